import type { ToolFailure } from "../errorMessage";
/**
 * What the core (tools, search, context, runners) knows of a vault. `ObsidianVault` implements it
 * on the app's vault and metadata cache; `FsVault` on a plain folder, for the CLI and tests.
 * Every path is vault-relative and has passed `toVaultPath` (see vaultPath.ts).
 */
export interface VaultPort {
  /** The vault's config folder name (".obsidian" unless the user changed it); never written by tools. */
  readonly configDir: string;
  /**
   * Set on a project's view of the vault (projects/ScopedVault): the project's name, so a note
   * that cannot be found is told in words that say where the model is and name nothing outside.
   */
  readonly projectName?: string;
  /** Every Markdown note, vault-relative, outside the config folder. */
  listNotes(): Promise<string[]>;
  /** Every file (any extension) outside the config folder. */
  listFiles(): Promise<string[]>;
  /** The stat of a file, or null when there is no file at that path. */
  stat(path: string): Promise<FileStat | null>;
  /**
   * A file's text; throws `VaultFileNotFoundError` when there is none. With `forEdit`, a file that
   * is not valid UTF-8 is refused (`VaultNotTextError`): its decoded text, written back, would
   * change bytes nobody was shown. Plain reads (search, reading a note) decode leniently.
   */
  read(path: string, options?: ReadOptions): Promise<string>;
  /** A file's bytes (an image, a PDF), read with the same checks as `read`; throws `VaultFileNotFoundError` when there is none. */
  readBinary(path: string): Promise<Uint8Array>;
  /** Creates a file and any missing folders; throws `VaultFileExistsError` if one is there. */
  create(path: string, content: string): Promise<void>;
  /**
   * Atomically replaces a file's text with `transform(current)` and returns the new text.
   * `transform` may throw to abandon the change; the file is then left as it was. Refuses files
   * that are not UTF-8 text (`VaultNotTextError`); on a folder (`FsVault`) also read-only and
   * hard-linked notes (`VaultFileRefusedError`), and throws `VaultNoteChangedError` when another
   * program changed the note between the read and the write (nothing is written then).
   */
  process(path: string, transform: (current: string) => string): Promise<string>;
  /**
   * Moves or renames a file (creating missing folders); Obsidian updates the links to it. Throws
   * `VaultFileNotFoundError` when there is no file, `VaultFileExistsError` when the new path is taken.
   */
  rename(path: string, newPath: string): Promise<void>;
  /** Moves a file to the trash (Obsidian's setting decides which) or deletes it. */
  trash(path: string): Promise<void>;
  /** Frontmatter, tags, links and headings of a note, or null when there is no such note. */
  getMetadata(path: string): Promise<NoteMetadata | null>;
  /** Subscribes to changes; returns the function that unsubscribes. */
  onChange(listener: (event: VaultEvent) => void): () => void;
}

/** What a link to a note outside the project reads as in a project's view of the vault (the note is never named). */
export const OUTSIDE_PROJECT_NOTE = "a note outside the project";

export interface ReadOptions {
  /** The text will be edited and written back: refuse a file that is not valid UTF-8. */
  forEdit?: boolean;
}

export interface FileStat {
  /** Last modification, epoch ms. */
  mtime: number;
  /** Creation, epoch ms. */
  ctime: number;
  /** Size in bytes. */
  size: number;
}

export interface HeadingInfo {
  heading: string;
  level: number;
  /** Zero-based line of the heading. */
  line: number;
}

export interface LinkInfo {
  /** The link target as written, without alias or heading (`[[Note#H|alias]]` gives "Note"). */
  link: string;
  /** The whole link as written. */
  original: string;
  /** True for `![[...]]` embeds. */
  embed: boolean;
}

export interface NoteMetadata {
  frontmatter: Record<string, unknown>;
  /** Tags with their leading "#", from the frontmatter and the body, in order of appearance. */
  tags: string[];
  /** Aliases from the frontmatter's `aliases` (or `alias`). */
  aliases: string[];
  links: LinkInfo[];
  headings: HeadingInfo[];
}

export type VaultEvent =
  | { type: "create" | "modify" | "delete"; path: string }
  | { type: "rename"; path: string; oldPath: string };

export class VaultFileNotFoundError extends Error {
  readonly failure: ToolFailure;
  constructor(readonly path: string) {
    super(`No file at "${path}"`);
    this.name = "VaultFileNotFoundError";
    this.failure = { kind: "note-not-found", values: { note: path } };
  }
}

export class VaultFileExistsError extends Error {
  constructor(readonly path: string) {
    super(`A file already exists at "${path}"`);
    this.name = "VaultFileExistsError";
  }
}

/** A note that is not valid UTF-8 (a Latin-1 export, a binary file named `.md`): never rewritten. */
export class VaultNotTextError extends Error {
  readonly failure: ToolFailure;
  constructor(readonly path: string) {
    super(
      `"${path}" is not UTF-8 text (it may be a Latin-1 export or a binary file), so it cannot be edited without ` +
        "changing bytes nobody was shown; it was left unchanged.",
    );
    this.name = "VaultNotTextError";
    this.failure = { kind: "not-text", values: { path } };
  }
}

/** A file the vault will not read or write as a note; `reason` completes "…is" / "…has" sentences. */
export class VaultFileRefusedError extends Error {
  readonly failure: ToolFailure;
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`"${path}" ${reason}; it was left unchanged.`);
    this.name = "VaultFileRefusedError";
    this.failure = { kind: "file-refused", values: { path } };
  }
}

/** Another program changed the note between the edit's read and its write: the edit was not written. */
export class VaultNoteChangedError extends Error {
  readonly failure: ToolFailure;
  constructor(readonly path: string) {
    super(`"${path}" changed while Copilot was writing it (another program edited it), so nothing was written: it keeps the other program's text.`);
    this.name = "VaultNoteChangedError";
    this.failure = { kind: "note-changed", values: { path } };
  }
}

/** Another of our processes held the file's lock for longer than a write takes. */
export class VaultFileBusyError extends Error {
  readonly failure: ToolFailure;
  constructor(
    readonly path: string,
    holder: string,
  ) {
    super(`Another program is writing "${path}" (${holder} holds its lock), so Copilot gave up waiting and nothing was written. Try again in a moment.`);
    this.name = "VaultFileBusyError";
    this.failure = { kind: "file-busy", values: { path } };
  }
}

/**
 * Private storage for the plugin (the search index, edit history): the plugin's own folder in
 * Obsidian, `<vault>/<configDir>/plugins/vault-copilot/` for the CLI. Never reachable by tools.
 */
export interface DataStore {
  /** The stored text, or null when nothing is stored under that name. */
  read(name: string): Promise<string | null>;
  write(name: string, data: string): Promise<void>;
  /**
   * Replaces the stored text with `change(current)` (current is null when nothing is stored) so
   * that no other writer's update in between is lost, and returns the new text. For files that
   * several writers append to (the edit history). `change` may throw to leave the file as it was,
   * and may run again (on the newer text) when another writer got in between.
   */
  update(name: string, change: (current: string | null) => string): Promise<string>;
  remove(name: string): Promise<void>;
}

/** Refuses a DataStore name that could leave the store's folder or hide a file ("a.json" is fine). */
export function checkDataFileName(name: string): string {
  if (!/^[\w.-]+$/.test(name) || name.startsWith(".")) throw new RangeError(`Bad data file name "${name}"`);
  return name;
}
