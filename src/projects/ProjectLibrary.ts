import { followFolderChanges } from "../vault/folderChanges";
import { noteName, toVaultPath } from "../vault/vaultPath";
import type { VaultPort } from "../vault/VaultPort";
import type { NoteLoadProblem } from "../vault/noteLoadProblem";
import { findProject, loadProjects, ProjectNoteError, type ProjectDefinition } from "./projectNote";
import { ProjectScope } from "./ProjectScope";
import { ScopedVault } from "./ScopedVault";

/** How long the library waits after a change in the projects folder before it reads it again. */
const RELOAD_DELAY_MS = 300;

/** A project opened: its note, its scope, and the vault as it sees it. */
export interface OpenProject {
  project: ProjectDefinition;
  scope: ProjectScope;
  vault: ScopedVault;
}

/**
 * Why a project could not be opened, by case: no note of that name in the folder (with the
 * projects it holds), or the note of that name is broken (with its problem).
 */
export type ProjectMissing =
  | { code: "no-project"; name: string; folder: string; known: readonly string[] }
  | { code: "project-broken"; path: string; problem: NoteLoadProblem };

/** No project note has that name (or the one that has is broken: the message says why). */
export class ProjectNotFoundError extends Error {
  constructor(
    message: string,
    /** The case, for a view in another language. */
    readonly missing: ProjectMissing,
  ) {
    super(message);
    this.name = "ProjectNotFoundError";
  }
}

/**
 * The user's projects, read from the projects folder and read again when a note in it changes
 * (for the chat's picker, the command and the CLI's --project). A project note that cannot be
 * read is reported by path once per change; the others still load. An opened project keeps its
 * scope (and the members it worked out) until its note changes.
 */
export class ProjectLibrary {
  private projects: ProjectDefinition[] = [];
  private problemList: ProjectNoteError[] = [];
  private loaded: Promise<void> | null = null;
  private readonly opened = new Map<string, { key: string; open: OpenProject }>();
  private readonly listeners = new Set<() => void>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly vault: VaultPort,
    private readonly folder: () => string,
    /** Folders besides the projects folder that no project holds (the saved chats). */
    private readonly excludedFolders: () => readonly string[],
    private readonly onProblems: (problems: ProjectNoteError[]) => void = () => undefined,
  ) {
    this.unsubscribe = followFolderChanges(vault, folder, () => void this.reload(), RELOAD_DELAY_MS);
  }

  /** The projects, by name (read on first use). */
  async list(): Promise<readonly ProjectDefinition[]> {
    await (this.loaded ??= this.reload());
    return this.projects;
  }

  /** The project notes that could not be read at the last reading. */
  async problems(): Promise<readonly ProjectNoteError[]> {
    await this.list();
    return this.problemList;
  }

  /**
   * The project of that name, opened; throws `ProjectNotFoundError` when no note has the name,
   * or with the note's own problem when the note of that name is broken.
   */
  async open(name: string): Promise<OpenProject> {
    const project = findProject(await this.list(), name);
    if (!project) {
      const broken = findProject(this.problemList.map((problem) => ({ name: noteName(problem.path), problem })), name);
      if (broken) throw new ProjectNotFoundError(broken.problem.message, { code: "project-broken", path: broken.problem.path, problem: broken.problem.problem });
      const names = this.projects.map((entry) => entry.name);
      const known = names.map((entry) => `"${entry}"`).join(", ");
      throw new ProjectNotFoundError(`No project named "${name}" in the projects folder "${this.folder()}"${known ? ` (its projects: ${known})` : " (it holds none)"}.`, {
        code: "no-project",
        name,
        folder: this.folder(),
        known: names,
      });
    }
    // A changed note, or another projects or history folder in the settings, makes the scope anew.
    const excluded = this.excluded();
    const key = JSON.stringify([project, excluded]);
    const known = this.opened.get(project.path);
    if (known?.key === key) return known.open;
    known?.open.scope.dispose();
    const scope = new ProjectScope(this.vault, project, excluded);
    const open = { project, scope, vault: new ScopedVault(this.vault, scope) };
    this.opened.set(project.path, { key, open });
    return open;
  }

  /** Told each time the projects are read again. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async reload(): Promise<void> {
    try {
      const { projects, problems } = await loadProjects(this.vault, this.folder());
      this.projects = projects;
      this.problemList = problems;
      if (problems.length > 0) this.onProblems(problems);
    } catch {
      // A projects folder the path rule refuses holds no projects.
      this.projects = [];
      this.problemList = [];
    }
    for (const listener of [...this.listeners]) listener();
  }

  dispose(): void {
    this.unsubscribe();
    this.listeners.clear();
    for (const { open } of this.opened.values()) open.scope.dispose();
    this.opened.clear();
  }

  private excluded(): string[] {
    const folders: string[] = [];
    for (const folder of [this.folder(), ...this.excludedFolders()]) {
      try {
        folders.push(toVaultPath(folder, this.vault.configDir));
      } catch {
        // A folder the path rule refuses holds nothing.
      }
    }
    return folders;
  }
}
