import { fuzzyScore } from "../text/fuzzy";
import type { VaultPort } from "../vault/VaultPort";
import { documentKind } from "../documents/documentKinds";
import { isImagePath } from "./images/noteImages";

/** A note, folder, tag or image offered after "@" in the message box, or the web page whose address was typed. */
export interface ContextSuggestion {
  kind: "note" | "folder" | "tag" | "image" | "web";
  /** The note, folder or image path, the tag with its "#", or the page's URL. */
  value: string;
  /** What the list shows. */
  label: string;
}

/** How long the lists of notes, folders and tags are reused between keystrokes. */
const CANDIDATES_TTL_MS = 15_000;
/** Most notes whose tags are read for the list (tags of a larger vault come from the first ones). */
const MAX_NOTES_SCANNED_FOR_TAGS = 5_000;

/**
 * Offers notes, folders and tags for "@": fuzzy (the query's characters in order, anywhere),
 * ranked by where and how tightly they match, names before paths. The vault's lists are read once
 * and reused for a few seconds, so typing does not list the vault at each key.
 */
export class ContextSuggester {
  private candidates: { at: number; items: Promise<ContextSuggestion[]> } | null = null;

  /**
   * @param lastFolders folders whose notes and subfolders come after every other suggestion (the
   *   saved chats and the prompts: seldom what "@" is for, and many)
   */
  constructor(
    private readonly vault: VaultPort,
    private readonly now: () => number = Date.now,
    private readonly lastFolders: () => readonly string[] = () => [],
  ) {}

  async suggest(query: string, limit = 8): Promise<ContextSuggestion[]> {
    // An address typed after "@" is the page to attach, and nothing else matches it.
    const url = webAddress(query);
    if (url) return [{ kind: "web", value: url, label: url }];
    const items = await this.all();
    const last = this.lastFolders().filter((folder) => folder !== "");
    const demoted = (item: ContextSuggestion) => (item.kind !== "tag" && last.some((folder) => item.value === folder || item.value.startsWith(`${folder}/`)) ? 1 : 0);
    if (query.trim() === "") {
      const notes = items.filter((item) => item.kind === "note");
      return [...notes.filter((item) => !demoted(item)), ...notes.filter(demoted)].slice(0, limit);
    }
    const scored: Array<{ item: ContextSuggestion; score: number; demoted: number }> = [];
    for (const item of items) {
      const score = fuzzyScore(query, item.label);
      if (score !== null) scored.push({ item, score, demoted: demoted(item) });
    }
    scored.sort((a, b) => a.demoted - b.demoted || b.score - a.score || a.item.label.length - b.item.label.length || a.item.label.localeCompare(b.item.label));
    return scored.slice(0, limit).map((entry) => entry.item);
  }

  private all(): Promise<ContextSuggestion[]> {
    const now = this.now();
    if (!this.candidates || now - this.candidates.at > CANDIDATES_TTL_MS) {
      const items = this.read();
      this.candidates = { at: now, items };
      // A failed read is not kept: the next keystroke tries again.
      items.catch(() => (this.candidates = null));
    }
    return this.candidates.items;
  }

  private async read(): Promise<ContextSuggestion[]> {
    const files = await this.vault.listFiles();
    // PDFs and canvases are attached like notes (read as text through the document reader).
    const notes = files.filter((path) => documentKind(path) !== null).sort();
    const images = files.filter(isImagePath).sort();
    const folders = new Set<string>();
    for (const path of notes) {
      for (let slash = path.indexOf("/"); slash !== -1; slash = path.indexOf("/", slash + 1)) folders.add(path.slice(0, slash));
    }
    const tags = new Set<string>();
    for (const path of notes.filter((note) => documentKind(note) === "markdown").slice(0, MAX_NOTES_SCANNED_FOR_TAGS)) {
      const metadata = await this.vault.getMetadata(path).catch(() => null);
      for (const tag of metadata?.tags ?? []) tags.add(tag);
    }
    return [
      ...notes.map((path): ContextSuggestion => ({ kind: "note", value: path, label: path.replace(/\.md$/i, "") })),
      ...[...folders].sort().map((path): ContextSuggestion => ({ kind: "folder", value: path, label: `${path}/` })),
      ...[...tags].sort().map((tag): ContextSuggestion => ({ kind: "tag", value: tag, label: tag })),
      ...images.map((path): ContextSuggestion => ({ kind: "image", value: path, label: path })),
    ];
  }
}

/**
 * How a chosen suggestion stands in the message: a note as its link (`[[Projects/Alpha plan]]`), a
 * folder as `Projects/`, a tag as `#work`; so "Compare @A with @B" is sent and kept as written.
 */
export function mentionText(suggestion: ContextSuggestion): string {
  if (suggestion.kind !== "note" && suggestion.kind !== "image") return suggestion.label;
  // A name with a character that ends or splits a link is written as it is, not as a link.
  return /[[\]|#^]/.test(suggestion.label) ? suggestion.label : `[[${suggestion.label}]]`;
}

/** The http(s) URL a query is, whole (no spaces), or null. */
export function webAddress(text: string): string | null {
  const candidate = text.trim();
  if (!/^https?:\/\/\S+$/i.test(candidate) || !URL.canParse(candidate)) return null;
  return new URL(candidate).href;
}
