import type { ToolFailure } from "../errorMessage";
import type { FileStat, NoteMetadata, ReadOptions, VaultEvent, VaultPort } from "../vault/VaultPort";
import { maskOutsideLinks, maskOutsideMetadata, type OutsideTest } from "./outsideLinks";
import type { ProjectScope } from "./ProjectScope";

/**
 * Refused inside a project: the path is outside it, or no such file exists. The message is the
 * same either way and does not repeat the path, so a refusal tells nothing of what lies outside.
 */
export class OutsideProjectError extends Error {
  readonly failure: ToolFailure;
  constructor(
    readonly projectName: string,
    action: "read" | "change" | "create",
  ) {
    super(
      action === "create"
        ? `New notes can only be made inside the folders of the project "${projectName}"; nothing was written. Use getFileTree to see them.`
        : `That note is outside the project "${projectName}" (or does not exist), so it cannot be ${action === "read" ? "read" : "changed"} here. Only the project's notes can; use getFileTree or localSearch to find them.`,
    );
    this.name = "OutsideProjectError";
    this.failure = { kind: action === "create" ? "outside-project-folders" : "outside-project", values: { project: projectName } };
  }
}

/**
 * The vault as a project sees it: the one boundary of a project's scope. Every tool and runner of
 * a chat in a project is handed this port instead of the vault, so no tool can reach past it:
 * listings hold only the project's files; a file outside it has no stat, no metadata and no text
 * (refused, in words that do not say whether it exists); writes and new notes stay inside; the
 * events are the project's own; and every link to a note outside the project reads
 * `[[a note outside the project]]` in the text and metadata handed out. A read for an edit
 * (`forEdit`) gets the note's exact text, since its bytes are written back.
 */
export class ScopedVault implements VaultPort {
  readonly configDir: string;
  /** The project's name, for messages that say where the model is (see noteLookup's findNote). */
  readonly projectName: string;
  private readonly isOutside: OutsideTest;

  constructor(
    private readonly vault: VaultPort,
    private readonly scope: ProjectScope,
  ) {
    this.configDir = vault.configDir;
    this.projectName = scope.project.name;
    this.isOutside = (link, sourcePath) => {
      const target = scope.resolveLink(link, sourcePath);
      return target !== null && !scope.has(target);
    };
  }

  async listNotes(): Promise<string[]> {
    await this.scope.prepare();
    return (await this.vault.listNotes()).filter((path) => this.scope.has(path));
  }

  async listFiles(): Promise<string[]> {
    await this.scope.prepare();
    return (await this.vault.listFiles()).filter((path) => this.scope.has(path));
  }

  async stat(path: string): Promise<FileStat | null> {
    return (await this.scope.contains(path)) ? this.vault.stat(path) : null;
  }

  async read(path: string, options?: ReadOptions): Promise<string> {
    // A read for an edit is the first step of a change: refused as one.
    await this.refuseOutside(path, options?.forEdit ? "change" : "read");
    const text = await this.vault.read(path, options);
    return options?.forEdit ? text : maskOutsideLinks(text, path, this.isOutside);
  }

  /** A file's bytes (an image), refused outside the project as a note's text is. */
  async readBinary(path: string): Promise<Uint8Array> {
    await this.refuseOutside(path, "read");
    return this.vault.readBinary(path);
  }

  async create(path: string, content: string): Promise<void> {
    await this.scope.prepare();
    if (!this.scope.canCreate(path)) throw new OutsideProjectError(this.projectName, "create");
    await this.vault.create(path, content);
  }

  async process(path: string, transform: (current: string) => string): Promise<string> {
    await this.refuseOutside(path, "change");
    return this.vault.process(path, transform);
  }

  async rename(path: string, newPath: string): Promise<void> {
    await this.refuseOutside(path, "change");
    if (!this.scope.canCreate(newPath)) throw new OutsideProjectError(this.projectName, "create");
    await this.vault.rename(path, newPath);
  }

  async trash(path: string): Promise<void> {
    await this.refuseOutside(path, "change");
    await this.vault.trash(path);
  }

  async getMetadata(path: string): Promise<NoteMetadata | null> {
    if (!(await this.scope.contains(path))) return null;
    const metadata = await this.vault.getMetadata(path);
    return metadata && maskOutsideMetadata(metadata, path, this.isOutside);
  }

  /** The project's events: a file that leaves the project is a delete, one that comes in a create. */
  onChange(listener: (event: VaultEvent) => void): () => void {
    return this.vault.onChange((event) => {
      if (event.type !== "rename") {
        if (event.type === "delete" || this.scope.has(event.path)) listener(event);
        return;
      }
      const to = this.scope.canCreate(event.path) || this.scope.has(event.path);
      const from = this.scope.has(event.oldPath) || this.scope.canCreate(event.oldPath);
      if (from && to) listener(event);
      else if (from) listener({ type: "delete", path: event.oldPath });
      else if (to) listener({ type: "create", path: event.path });
    });
  }

  /** Text from the index of a note in the project (a search passage) as this port would hand it out. */
  maskPassage(text: string, sourcePath: string): string {
    return maskOutsideLinks(text, sourcePath, this.isOutside);
  }

  private async refuseOutside(path: string, action: "read" | "change"): Promise<void> {
    if (!(await this.scope.contains(path))) throw new OutsideProjectError(this.projectName, action);
  }
}
