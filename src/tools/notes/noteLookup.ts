import { baseName, hasExtension, parentFolder, toVaultPath } from "../../vault/vaultPath";
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
 * name matches by file name), case-insensitively, the shortest path winning ties.
 */
export class NoteLookup {
  private readonly byLowerPath = new Map<string, string>();
  /** Lowercased file name -> paths with that name, shortest first. */
  private readonly byLowerName = new Map<string, string[]>();

  constructor(
    readonly notes: readonly string[],
    private readonly configDir: string,
  ) {
    for (const path of notes) {
      this.byLowerPath.set(path.toLowerCase(), path);
      const name = baseName(path).toLowerCase();
      const same = this.byLowerName.get(name);
      if (same) same.push(path);
      else this.byLowerName.set(name, [path]);
    }
    for (const paths of this.byLowerName.values()) paths.sort(shortestFirst);
  }

  static async of(vault: VaultPort): Promise<NoteLookup> {
    return new NoteLookup(await vault.listFiles(), vault.configDir);
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
        const found = relative === null ? undefined : this.byLowerPath.get(relative.toLowerCase());
        if (found) return found;
      }
      // Only a whole ".." segment climbs ("Wait... what.md" is a name like any other).
      if (candidate.split("/").includes("..")) continue;
      const exact = this.byLowerPath.get(this.normalized(candidate)?.toLowerCase() ?? "");
      if (exact) return exact;
      const lower = candidate.toLowerCase();
      const sameName = this.byLowerName.get(baseName(lower)) ?? [];
      const match = sameName.find((path) => {
        const lowerPath = path.toLowerCase();
        return lowerPath === lower || lowerPath.endsWith(`/${lower}`);
      });
      if (match) return match;
    }
    return null;
  }

  /** Up to `limit` notes whose names look like `target`, for a "did you mean" hint. */
  suggest(target: string, limit = 5): string[] {
    const words = target.toLowerCase().replace(/\.md$/, "").split(/[\s/_-]+/).filter((word) => word.length >= 2);
    if (words.length === 0) return [];
    return this.notes
      .map((path) => {
        const name = baseName(path).toLowerCase();
        return { path, hits: words.filter((word) => name.includes(word)).length };
      })
      .filter((entry) => entry.hits > 0)
      .sort((a, b) => b.hits - a.hits || shortestFirst(a.path, b.path))
      .slice(0, limit)
      .map((entry) => entry.path);
  }

  /** Where a link found in `sourcePath` points (Markdown links relative to it, wikilinks not). */
  resolveLink(link: LinkInfo, sourcePath: string): string | null {
    const isWikilink = /^!?\[\[/.test(link.original);
    return this.resolve(link.link, isWikilink ? undefined : sourcePath);
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
  constructor(
    readonly reference: string,
    suggestions: string[],
  ) {
    super(
      `No note matches "${reference}".` +
        (suggestions.length > 0 ? ` Notes with similar names: ${suggestions.map((s) => `"${s}"`).join(", ")}.` : "") +
        " Use getFileTree to see the notes in the vault.",
    );
    this.name = "NoteNotFoundError";
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
  const lookup = await NoteLookup.of(vault);
  const path = lookup.resolve(reference.target);
  if (!path) throw new NoteNotFoundError(input, lookup.suggest(reference.target));
  return { path, lookup, ...(reference.heading ? { heading: reference.heading } : {}) };
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
