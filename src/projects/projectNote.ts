import { errorMessage } from "../errorMessage";
import { NotePropertiesError, readNoteProperties } from "../vault/noteProperties";
import { unreadableNote, type NoteLoadProblem } from "../vault/noteLoadProblem";
import { chatModeList, isChatMode } from "../settings/chatModes";
import type { ChatMode } from "../settings/settingsSchema";
import { noteName, pathKey, toVaultPath } from "../vault/vaultPath";
import type { VaultPort } from "../vault/VaultPort";

/**
 * A project the user keeps as a note in the projects folder. The note's name is the project's
 * name, its properties say what the project holds and how it runs, its text is the project's
 * instructions (added to the system prompt after the user's own):
 *
 *   folders: [Thesis, Sources/Papers]     every note and file in these folders (and below)
 *   tags: [thesis]                        every note carrying one of these tags (or a nested one)
 *   notes: ["[[Supervisor]]"]             these notes, as links
 *   urls: [https://example.org/guide]     web pages the project refers to (told to the model, which may read them)
 *   model: gpt-4.1-mini                   the model its chats use (default: the chat's)
 *   mode: agent                           the mode its chats start in (default: the chat's)
 *   mcp: [filesystem]                     the MCP servers whose tools stay on (none otherwise)
 */
export interface ProjectDefinition {
  name: string;
  /** The project note's path. */
  path: string;
  /** Vault paths of folders, without a trailing "/". */
  folders: string[];
  /** Tags with their "#", as written. */
  tags: string[];
  /** Links to notes as written (`[[Note]]`, `Folder/Note.md`), resolved when the scope is built. */
  notes: string[];
  urls: string[];
  model?: string;
  mode?: ChatMode;
  /** MCP server names whose tools are bound inside the project. */
  mcp: string[];
  /** The note's text after its properties, trimmed ("" for none). */
  instructions: string;
}

/** A project note that could not be read: reported by path; the other projects still load. */
export class ProjectNoteError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
    /** The reason's case, for a view in another language. */
    readonly problem: NoteLoadProblem,
  ) {
    super(`The project "${path}" was not loaded: ${reason}.`);
    this.name = "ProjectNoteError";
  }
}

/** Reads a project note; throws `ProjectNoteError` (naming the note and what is wrong) for a broken one. */
export function parseProjectNote(path: string, text: string, configDir: string): ProjectDefinition {
  let properties: Record<string, unknown>;
  let body: string;
  try {
    ({ properties, body } = readNoteProperties(text));
  } catch (error) {
    if (error instanceof NotePropertiesError) throw new ProjectNoteError(path, error.reason, error.problem);
    throw new ProjectNoteError(path, errorMessage(error), unreadableNote(error));
  }
  const list = (key: string): string[] => stringList(path, properties, key);
  const folders = list("folders").map((folder) => {
    try {
      return toVaultPath(folder, configDir);
    } catch (error) {
      throw new ProjectNoteError(path, `its folder ${JSON.stringify(folder)} is not a folder of the vault (${errorMessage(error)})`, { code: "folder-invalid", folder, detail: errorMessage(error) });
    }
  });
  const tags = list("tags").map((tag) => {
    const written = tag.startsWith("#") ? tag : `#${tag}`;
    if (!/^#[\p{L}\p{N}_/-]+$/u.test(written) || /^#[\d/]+$/.test(written)) throw new ProjectNoteError(path, `its tag ${JSON.stringify(tag)} is not a tag`, { code: "tag-invalid", tag });
    return written;
  });
  const urls = list("urls").map((url) => {
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) throw new ProjectNoteError(path, `its url ${JSON.stringify(url)} is not an http(s) address`, { code: "url-invalid", url });
    return url;
  });
  const mode = properties.mode;
  if (mode !== undefined && mode !== null && !isChatMode(mode)) throw new ProjectNoteError(path, `its mode ${JSON.stringify(mode)} is not one of ${chatModeList()}`, { code: "mode-invalid", mode: JSON.stringify(mode), modes: chatModeList() });
  const model = properties.model;
  if (model !== undefined && model !== null && (typeof model !== "string" || model.trim() === "")) throw new ProjectNoteError(path, "its model is not a name", { code: "model-not-name" });
  return {
    name: noteName(path),
    path,
    folders,
    tags,
    notes: list("notes"),
    urls,
    ...(typeof model === "string" ? { model: model.trim() } : {}),
    ...(isChatMode(mode) ? { mode } : {}),
    mcp: list("mcp"),
    instructions: body.trim(),
  };
}

/** Every project note in the folder (and its subfolders), by name; broken ones reported, not thrown. */
export async function loadProjects(vault: VaultPort, folder: string): Promise<{ projects: ProjectDefinition[]; problems: ProjectNoteError[] }> {
  const prefix = `${toVaultPath(folder, vault.configDir)}/`;
  const projects: ProjectDefinition[] = [];
  const problems: ProjectNoteError[] = [];
  for (const path of (await vault.listNotes()).filter((note) => note.startsWith(prefix) && note.toLowerCase().endsWith(".md"))) {
    try {
      projects.push(parseProjectNote(path, await vault.read(path), vault.configDir));
    } catch (error) {
      problems.push(error instanceof ProjectNoteError ? error : new ProjectNoteError(path, errorMessage(error), unreadableNote(error)));
    }
  }
  projects.sort((left, right) => left.name.localeCompare(right.name));
  return { projects, problems };
}

/** The project a name means: exactly, else in another letter case or Unicode form. */
export function findProject<Project extends { name: string }>(projects: readonly Project[], name: string): Project | undefined {
  const wanted = pathKey(name.trim());
  return projects.find((project) => project.name === name.trim()) ?? projects.find((project) => pathKey(project.name) === wanted);
}

/** A property that is a list of text (or one text, or absent): anything else is the note's fault, said by name. */
function stringList(path: string, properties: Record<string, unknown>, key: string): string[] {
  const value = properties[key];
  if (value === undefined || value === null) return [];
  const items: unknown[] = Array.isArray(value) ? value : [value];
  return items.map((item) => {
    // YAML reads an unquoted [[Note]] as a list in a list: it is still the link the user wrote.
    if (Array.isArray(item) && item.length === 1 && Array.isArray(item[0]) && item[0].length === 1 && typeof item[0][0] === "string") return `[[${item[0][0]}]]`;
    if (typeof item !== "string" && typeof item !== "number") throw new ProjectNoteError(path, `its "${key}" is not a list of text`, { code: "not-text-list", key });
    const text = String(item).trim();
    if (text === "") throw new ProjectNoteError(path, `its "${key}" has an empty entry`, { code: "empty-entry", key });
    return text;
  });
}
