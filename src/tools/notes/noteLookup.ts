import type { ToolFailure } from "../../errorMessage";
import { defuseToolText } from "../../context/escapeXml";
import { wordMatcher } from "../../text/fuzzy";
import { baseName, hasExtension, isExactVaultPath, parentFolder, pathKey, toVaultPath } from "../../vault/vaultPath";
import { cachedNoteLookup, refreshNoteLookup } from "./noteLookupCache";
import type { LinkInfo, VaultPort } from "../../vault/VaultPort";

/** What a model may write for a note: a path, a name, or a wikilink, with an optional heading. */
export interface NoteReference {
  /** The link target: "Folder/Note", "Note", "Note.md". */
  target: string;
  /** "Heading" from "Note#Heading", when given. */
  heading?: string;
}

/** Reads "[[Folder/Note#Heading|alias]]", "![[Note]]", "Note#Heading" or a plain path. */
export function parseNoteReference(input: string): NoteReference {
  let text = input.trim();
  const wikilink = /^!?\[\[([^\]]+)\]\]$/.exec(text);
  if (wikilink) text = wikilink[1] ?? "";
  text = (text.split("|")[0] ?? "").trim();
  const hash = text.indexOf("#");
  if (hash === -1) return { target: text };
  const heading = text.slice(hash + 1).replace(/^\^/, "").trim();
  return { target: text.slice(0, hash).trim(), ...(heading ? { heading } : {}) };
}

/**
 * Resolves link targets to note paths as Obsidian does: an exact path first, then a path
 * relative to the linking note's folder, then any note whose path ends with the target (a bare
 * name matches by file name), the shortest path winning ties. Paths compare by `pathKey` (case,
 * Unicode form and no-break spaces aside), and what comes back is the path as the vault lists it:
 * "Café" typed composed finds a note stored under a decomposed name, and opens it under that name.
 */
export class NoteLookup {
  private readonly paths = new Set<string>();
  /** pathKey -> paths with that key (two only when the vault holds look-alike twins). */
  private readonly byKey = new Map<string, string[]>();
  /** pathKey of the file name -> paths with that name, shortest first. */
  private readonly byName = new Map<string, string[]>();

  constructor(
    notes: Iterable<string>,
    private readonly configDir: string,
  ) {
    for (const path of notes) this.add(path);
  }

  /** The vault's lookup, kept current from vault events between calls (see noteLookupCache.ts). */
  static of(vault: VaultPort): Promise<NoteLookup> {
    return cachedNoteLookup(vault);
  }

  /** Every path known, as the vault lists it. */
  get notes(): Iterable<string> {
    return this.paths;
  }

  /** Takes a listed path in; names the path rule refuses (a line break in a name) are left out. */
  add(path: string): void {
    if (this.paths.has(path) || !isExactVaultPath(path, this.configDir)) return;
    this.paths.add(path);
    insertShortestFirst(this.byKey, pathKey(path), path);
    insertShortestFirst(this.byName, pathKey(baseName(path)), path);
  }

  remove(path: string): void {
    if (!this.paths.delete(path)) return;
    removeFrom(this.byKey, pathKey(path), path);
    removeFrom(this.byName, pathKey(baseName(path)), path);
  }

  /**
   * The listed path whose NFC form is that of `path` (its twin in another Unicode form), or null.
   * Case counts here: "plan.md" and "Plan.md" may be two notes on a case-sensitive disk.
   */
  twinOf(path: string): string | null {
    const wanted = path.normalize("NFC");
    return this.byKey.get(pathKey(path))?.find((candidate) => candidate.normalize("NFC") === wanted) ?? null;
  }

  /**
   * The path a link target names, or null when no note matches. `relativeTo` is the linking
   * note for Markdown links (`[text](../Note.md)`), which are read relative to its folder first;
   * wikilinks are not.
   */
  resolve(target: string, relativeTo?: string): string | null {
    const cleaned = safeDecode(target.trim()).replace(/^\.\//, "");
    if (cleaned.length === 0) return relativeTo ?? null;
    for (const candidate of withNoteExtension(cleaned)) {
      if (relativeTo) {
        const relative = joinRelative(parentFolder(relativeTo), candidate);
        const found = relative === null ? null : this.exact(relative);
        if (found) return found;
      }
      // Only a whole ".." segment climbs ("Wait... what.md" is a name like any other).
      if (candidate.split("/").includes("..")) continue;
      const normalized = this.normalized(candidate);
      const exact = normalized === null ? null : this.exact(normalized);
      if (exact) return exact;
      const key = pathKey(candidate);
      const sameName = this.byName.get(pathKey(baseName(candidate))) ?? [];
      const match = sameName.find((path) => {
        const pathAsKey = pathKey(path);
        return pathAsKey === key || pathAsKey.endsWith(`/${key}`);
      });
      if (match) return match;
    }
    return null;
  }

  /** Up to `limit` notes whose names look like `target`, for a "did you mean" hint. */
  suggest(target: string, limit = 5): string[] {
    const wordsIn = wordMatcher(target.replace(/\.md$/i, ""));
    const scored: { path: string; hits: number }[] = [];
    for (const path of this.paths) {
      const hits = wordsIn(baseName(path));
      if (hits > 0) scored.push({ path, hits });
    }
    return scored
      .sort((a, b) => b.hits - a.hits || shortestFirst(a.path, b.path))
      .slice(0, limit)
      .map((entry) => entry.path);
  }

  /** Where a link found in `sourcePath` points (Markdown links relative to it, wikilinks not). */
  resolveLink(link: LinkInfo, sourcePath: string): string | null {
    const isWikilink = /^!?\[\[/.test(link.original);
    return this.resolve(link.link, isWikilink ? undefined : sourcePath);
  }

  /** The listed path with this key: the one spelled exactly so if there are twins, else the first. */
  private exact(path: string): string | null {
    const same = this.byKey.get(pathKey(path));
    if (!same) return null;
    return same.find((candidate) => candidate === path) ?? same[0] ?? null;
  }

  private normalized(candidate: string): string | null {
    try {
      return toVaultPath(candidate, this.configDir);
    } catch {
      return null; // not a path that can exist in the vault, so nothing matches it
    }
  }
}

export class NoteNotFoundError extends Error {
  readonly failure: ToolFailure;
  constructor(
    readonly reference: string,
    suggestions: string[],
  ) {
    // The suggestions are note names, the user's text: defused as every tool's note text is.
    super(
      defuseToolText(
        `No note matches "${reference}".` +
          (suggestions.length > 0 ? ` Notes with similar names: ${suggestions.map((s) => `"${s}"`).join(", ")}.` : "") +
          " Use getFileTree to see the notes in the vault.",
      ),
    );
    this.name = "NoteNotFoundError";
    this.failure = { kind: "note-not-found", values: { note: reference } };
  }
}

/**
 * Inside a project: no note of the project matches. Said without repeating what the model asked
 * for, and the same whether a note outside the project has that name or no note has, so the
 * answer tells nothing of what lies outside; the names offered are the project's own.
 */
export class NoteNotInProjectError extends Error {
  readonly failure: ToolFailure;
  constructor(projectName: string, suggestions: string[]) {
    super(
      defuseToolText(
        `No note of the project "${projectName}" matches that name: it is outside the project or does not exist.` +
          (suggestions.length > 0 ? ` Notes of the project with similar names: ${suggestions.map((s) => `"${s}"`).join(", ")}.` : "") +
          " Use getFileTree to see the project's notes.",
      ),
    );
    this.name = "NoteNotInProjectError";
    this.failure = { kind: "outside-project", values: { project: projectName } };
  }
}

/**
 * The note a tool argument names. Paths are checked by the vault path rule first, so a path
 * outside the vault or in the config folder is refused with its reason rather than "not found".
 */
export async function findNote(vault: VaultPort, input: string): Promise<{ path: string; heading?: string; lookup: NoteLookup }> {
  const reference = parseNoteReference(input);
  if (reference.target.length === 0) throw new NoteNotFoundError(input, []);
  toVaultPath(reference.target, vault.configDir);
  let lookup = await NoteLookup.of(vault);
  let path = lookup.resolve(reference.target);
  // The lookup may miss what changed behind the vault's back (another program, for the CLI):
  // a miss, or a hit that is gone, takes a fresh listing before it is believed.
  if (!path || !(await vault.stat(path))) {
    lookup = await refreshNoteLookup(vault);
    path = lookup.resolve(reference.target);
  }
  if (!path) throw vault.projectName === undefined ? new NoteNotFoundError(input, lookup.suggest(reference.target)) : new NoteNotInProjectError(vault.projectName, lookup.suggest(reference.target));
  return { path, lookup, ...(reference.heading ? { heading: reference.heading } : {}) };
}

/**
 * The path under which a note to be written already exists in another Unicode form ("Café.md"
 * typed composed, stored decomposed as macOS writes it), or null when there is none. A writer
 * (writeToFile, replaceInFile) calls it with the checked path and writes to what it returns, so
 * it never creates a look-alike twin of a note. Exact spellings answer at once; a miss is
 * checked against a fresh listing.
 */
export async function existingNotePath(vault: VaultPort, path: string): Promise<string | null> {
  if (await vault.stat(path)) return path;
  const cached = (await NoteLookup.of(vault)).twinOf(path);
  if (cached && (await vault.stat(cached))) return cached;
  return (await refreshNoteLookup(vault)).twinOf(path);
}

/**
 * Where a writer should write a checked note path: the existing note it names (in whatever
 * Unicode form that note is stored), or, for a new note, the path in NFC form, as Obsidian names
 * new files. writeToFile and replaceInFile call it with `editablePath`'s result.
 */
export async function notePathForWrite(vault: VaultPort, checkedPath: string): Promise<string> {
  return (await existingNotePath(vault, checkedPath)) ?? checkedPath.normalize("NFC");
}

function withNoteExtension(target: string): string[] {
  return hasExtension(target) ? [target, `${target}.md`] : [`${target}.md`, target];
}

/** `target` read from `folder`, with ".." segments applied; null when it climbs out of the vault. */
function joinRelative(folder: string, target: string): string | null {
  const segments = folder ? folder.split("/") : [];
  for (const segment of target.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (segments.length === 0) return null;
      segments.pop();
    } else segments.push(segment);
  }
  return segments.length > 0 ? segments.join("/") : null;
}

function insertShortestFirst(map: Map<string, string[]>, key: string, path: string): void {
  const list = map.get(key);
  if (!list) {
    map.set(key, [path]);
    return;
  }
  let at = list.length;
  while (at > 0 && shortestFirst(list[at - 1] ?? "", path) > 0) at--;
  list.splice(at, 0, path);
}

function removeFrom(map: Map<string, string[]>, key: string, path: string): void {
  const list = map.get(key);
  if (!list) return;
  const at = list.indexOf(path);
  if (at !== -1) list.splice(at, 1);
  if (list.length === 0) map.delete(key);
}

function shortestFirst(a: string, b: string): number {
  return a.length - b.length || a.localeCompare(b);
}

function safeDecode(text: string): string {
  if (!text.includes("%")) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // a literal "%" in a file name
  }
}
