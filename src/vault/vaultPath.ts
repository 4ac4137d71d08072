import type { ToolFailure } from "../errorMessage";
/**
 * The one path rule for every vault: a path a tool or a model gives is made vault-relative and
 * normalized, or refused. Refused: empty paths, absolute paths (`/x`, `C:\x`, `C:x`, `\\server`),
 * backslashes, `~`, NUL and other control characters, any `..` segment (a ".." inside a name, as
 * in "Wait... what.md", is a name) or other name of only dots and spaces ("...", ".. "), and
 * anything inside the vault's config folder, also when named with trailing dots or spaces
 * (".obsidian." is the config folder on Windows, which drops them). Accepted paths
 * use "/" separators and have no "." segments, no doubled or trailing slashes. Their characters
 * are kept as given: a note named in decomposed Unicode (NFD, as macOS writes names) is opened
 * under that name, so the checks compare in NFC and lookups compare by `pathKey`.
 */
export class VaultPathError extends Error {
  readonly failure: ToolFailure;
  constructor(
    readonly input: string,
    readonly reason: string,
  ) {
    super(`Refused path ${quotePath(input)}: ${reason}`);
    this.name = "VaultPathError";
    this.failure = { kind: "path-refused", values: { path: input } };
  }
}

// eslint-disable-next-line no-control-regex -- control characters are what this refuses
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
const DRIVE_LETTER = /^[a-zA-Z]:/;

/** Normalizes `input` into a vault-relative path, or throws `VaultPathError`. */
export function toVaultPath(input: string, configDir: string): string {
  if (typeof input !== "string") throw new VaultPathError(String(input), "a path must be text");
  const path = input.trim();
  if (path.length === 0) throw new VaultPathError(input, "the path is empty");
  if (CONTROL_CHARACTERS.test(path)) throw new VaultPathError(input, "it contains control characters");
  if (path.includes("\\")) throw new VaultPathError(input, 'use "/" between folders, not "\\"');
  if (DRIVE_LETTER.test(path)) throw new VaultPathError(input, "drive letters point outside the vault");
  if (path.startsWith("/")) throw new VaultPathError(input, "absolute paths point outside the vault");
  if (path.startsWith("~")) throw new VaultPathError(input, "home-folder paths point outside the vault");
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) throw new VaultPathError(input, "URLs are not vault paths");

  const segments: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") throw new VaultPathError(input, '".." would leave the folder it names');
    if (segment.trim() === "") throw new VaultPathError(input, "a folder name cannot be blank");
    // Windows drops a name's trailing dots and spaces: ".. " would be "..", ".obsidian." the config folder.
    if (withoutTrailingDotsAndSpaces(segment) === "") throw new VaultPathError(input, "a name of only dots and spaces would leave the folder it names");
    segments.push(segment);
  }
  if (segments.length === 0) throw new VaultPathError(input, "the path names the vault itself");
  const first = pathKey(withoutTrailingDotsAndSpaces(segments[0] ?? ""));
  if (first === pathKey(configDir)) {
    throw new VaultPathError(input, `the "${configDir}" folder holds Obsidian's settings and is off limits`);
  }
  return segments.join("/");
}

/** A name as Windows opens it: trailing dots and spaces dropped ("notes. " opens "notes"). */
function withoutTrailingDotsAndSpaces(name: string): string {
  return name.replace(/[. ]+$/, "");
}

/**
 * The form two paths are compared in: NFC, no-break spaces as spaces, lower case. Paths with one
 * key name the same note for a lookup ("Café" typed composed finds "Café.md" stored decomposed).
 */
export function pathKey(path: string): string {
  return path.normalize("NFC").replace(/\u00a0|\u202f/g, " ").toLowerCase();
}

/** True when the path rule takes a listed `path` exactly as it is (so it can be opened under that name). */
export function isExactVaultPath(path: string, configDir: string): boolean {
  try {
    return toVaultPath(path, configDir) === path;
  } catch {
    return false;
  }
}

/** `toVaultPath`, with ".md" added when the path has no extension (for note paths). */
export function toNotePath(input: string, configDir: string): string {
  const path = toVaultPath(input, configDir);
  return hasExtension(path) ? path : `${path}.md`;
}

/** True when the last segment of a path has an extension ("a/b.md", not "a.b/c"). */
export function hasExtension(path: string): boolean {
  const name = baseName(path);
  const dot = name.lastIndexOf(".");
  return dot > 0 && dot < name.length - 1;
}

/**
 * A path quoted for a message: in double quotes, with line breaks, escape and other control
 * characters written out (`\n`, `\u001b`), so a file name cannot break a line or drive a terminal.
 */
export function quotePath(path: string): string {
  return JSON.stringify(path);
}

/** "a/b/Note.md" -> "Note.md" */
export function baseName(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? path : path.slice(slash + 1);
}

/** "a/b/Note.md" -> "Note" */
export function noteName(path: string): string {
  const name = baseName(path);
  return name.toLowerCase().endsWith(".md") ? name.slice(0, -3) : name;
}

/** "a/b/Note.md" -> "a/b"; "Note.md" -> "" */
export function parentFolder(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "" : path.slice(0, slash);
}

/** True for paths inside the config folder (events and listings from the adapters skip them). */
export function isInConfigDir(path: string, configDir: string): boolean {
  const lower = pathKey(path);
  const dir = pathKey(configDir);
  return lower === dir || lower.startsWith(`${dir}/`);
}
