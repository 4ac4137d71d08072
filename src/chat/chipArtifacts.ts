import { errorMessage } from "../errorMessage";
import type { ContextArtifact } from "../context/PromptContextTypes";
import type { VaultPort } from "../vault/VaultPort";
import type { ContextChip } from "./chatTypes";
import { documentKind, isDocumentFile } from "../documents/documentKinds";
import { DocumentReader, type DocumentSource } from "../documents/DocumentReader";
import { readableTextOf } from "../documents/documentText";

/** Most notes one folder or tag chip brings in (the first ones by path). */
export const MAX_NOTES_PER_CHIP = 20;
/** Longest note text attached, in characters; a longer note is cut and says so. */
export const MAX_NOTE_CHARS = 60_000;

/** The chip of a note (the active note, a note chosen with @, a note dropped on the view). */
export function noteChip(path: string): ContextChip {
  return { id: `note:${path}`, kind: "note", label: baseName(path), target: path };
}

export function folderChip(path: string): ContextChip {
  return { id: `folder:${path}`, kind: "folder", label: `${path}/`, target: path };
}

export function tagChip(tag: string): ContextChip {
  const normalized = tag.startsWith("#") ? tag : `#${tag}`;
  return { id: `tag:${normalized}`, kind: "tag", label: normalized, target: normalized };
}

/** A selection with its note and 1-based line range. */
export function selectionChip(path: string, text: string, fromLine: number, toLine: number): ContextChip {
  const lines = fromLine === toLine ? `line ${fromLine}` : `lines ${fromLine}–${toLine}`;
  return {
    id: `selection:${path}#L${fromLine}-L${toLine}`,
    kind: "selection",
    label: `${baseName(path)} (${lines})`,
    target: path,
    selection: { text, fromLine, toLine },
  };
}

/**
 * Reads chips into the artifacts of one message (L3 of its turn, L2 of later ones): a note once
 * however many chips name it, folders and tags as the notes in them. A note that cannot be read
 * is reported in `problems` and left out; the others still go. A PDF or canvas chip attaches its
 * text through `documents` (a PDF's pages under "[page N]" lines, a canvas as its outline).
 */
export async function readChipArtifacts(
  vault: VaultPort,
  chips: readonly ContextChip[],
  signal?: AbortSignal,
  /** Where folders and tags are listed: a project's vault inside a project, so a folder or tag chip brings only its notes. */
  listing: VaultPort = vault,
  documents: DocumentSource = new DocumentReader({ vault, pdf: null }),
): Promise<{ artifacts: ContextArtifact[]; problems: string[] }> {
  const artifacts: ContextArtifact[] = [];
  const problems: string[] = [];
  const seenNotes = new Set<string>();
  let allNotes: string[] | undefined;
  // A folder chip brings its PDFs and canvases too; a tag chip finds only notes (they alone have tags).
  const notes = async () => (allNotes ??= (await listing.listFiles()).filter((path) => documentKind(path) !== null).sort());

  const addNote = async (path: string, from: VaultPort = vault) => {
    if (seenNotes.has(path)) return;
    seenNotes.add(path);
    try {
      const text = isDocumentFile(path) ? readableTextOf(await documents.read(path, signal)) : await from.read(path);
      artifacts.push(noteArtifact(path, text));
    } catch (error) {
      problems.push(`${path}: ${errorMessage(error)}`);
    }
  };

  for (const chip of chips) {
    signal?.throwIfAborted();
    if (chip.kind === "note") await addNote(chip.target);
    else if (chip.kind === "selection" && chip.selection) {
      const { text, fromLine, toLine } = chip.selection;
      artifacts.push({ id: chip.id, kind: "selection", title: chip.label, source: `${chip.target}#L${fromLine}-L${toLine}`, content: text });
    } else if (chip.kind === "folder") {
      const prefix = chip.target === "" ? "" : `${chip.target}/`;
      const inFolder = (await notes()).filter((path) => path.startsWith(prefix));
      for (const path of inFolder.slice(0, MAX_NOTES_PER_CHIP)) await addNote(path, listing);
      if (inFolder.length > MAX_NOTES_PER_CHIP) problems.push(`${chip.label}: only the first ${MAX_NOTES_PER_CHIP} of ${inFolder.length} notes were attached`);
    } else if (chip.kind === "tag") {
      const tagged: string[] = [];
      for (const path of (await notes()).filter((note) => documentKind(note) === "markdown")) {
        if (tagged.length > MAX_NOTES_PER_CHIP) break;
        const metadata = await listing.getMetadata(path);
        if (metadata?.tags.some((tag) => hasTag(tag, chip.target))) tagged.push(path);
      }
      for (const path of tagged.slice(0, MAX_NOTES_PER_CHIP)) await addNote(path, listing);
      if (tagged.length > MAX_NOTES_PER_CHIP) problems.push(`${chip.label}: only the first ${MAX_NOTES_PER_CHIP} notes with this tag were attached`);
    }
  }
  return { artifacts, problems };
}

function noteArtifact(path: string, text: string): ContextArtifact {
  const content = text.length > MAX_NOTE_CHARS ? `${text.slice(0, MAX_NOTE_CHARS)}\n${cutNotice(path, text)}` : text;
  return { id: `note:${path}`, kind: "note", title: baseName(path), source: path, content };
}

/** What a cut attachment says: the characters left out, and for a PDF the pages (readNote reads them). */
function cutNotice(path: string, text: string): string {
  const left = text.length - MAX_NOTE_CHARS;
  const firstPageLeft = /\[page (\d+)\]/.exec(text.slice(MAX_NOTE_CHARS));
  const pagesLeft = [...text.slice(MAX_NOTE_CHARS).matchAll(/^\[page (\d+)\]$/gm)].at(-1)?.[1];
  if (isDocumentFile(path) && firstPageLeft && pagesLeft) {
    return `[… the PDF goes on: pages ${firstPageLeft[1]}–${pagesLeft} (${left} characters) were not attached, as an attachment holds at most ${MAX_NOTE_CHARS} characters; readNote reads them]`;
  }
  return `[… the note goes on; ${left} more characters not attached]`;
}

/** "#project" matches "#project" and its nested tags ("#project/alpha"), in any case, as Obsidian's tag search does. */
function hasTag(tag: string, wanted: string): boolean {
  const a = tag.toLowerCase();
  const b = wanted.toLowerCase();
  return a === b || a.startsWith(`${b}/`);
}

/** "Projects/Alpha.md" → "Alpha". */
export function baseName(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return name.replace(/\.md$/i, "");
}
