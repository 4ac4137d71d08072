import { VaultFileNotFoundError, type FileStat, type VaultPort } from "../vault/VaultPort";
import { quotePath, toVaultPath, VaultPathError } from "../vault/vaultPath";
import type { InvertedIndex } from "./InvertedIndex";
import { FIELD_NAMES, fieldTermSource } from "./noteFields";
import { dailyNoteDayKey } from "./timeRange";
import type { TimeSlicer } from "./TimeSlicer";
import type { Term, Tokenizer } from "./tokenizer";
import { errorMessage } from "../errorMessage";
import { documentKind, isDocumentFile } from "../documents/documentKinds";
import { PAGE_BREAK } from "../documents/documentText";

/** Where a long index job is, for a progress bar: `done` of `total` notes in this phase. */
export interface IndexProgress {
  phase: "loading" | "checking" | "indexing" | "saving";
  done: number;
  total: number;
}

export interface ReconcileReport {
  /** Notes read and indexed (new, or changed since they were indexed). */
  indexed: number;
  /** Notes dropped: gone from the vault, or now excluded. */
  removed: number;
  /** Notes left as they were, their size and modification time unchanged. */
  unchanged: number;
  /** Notes that could not be read, one line each. */
  problems: string[];
}

export interface ReconcileContext {
  vault: VaultPort;
  index: InvertedIndex;
  tokenizer: Tokenizer;
  slicer: TimeSlicer;
  isExcluded: (path: string) => boolean;
  onProgress?: (progress: IndexProgress) => void;
}

const STAT_BATCH = 128;
const READ_BATCH = 32;
const BATCHES_AHEAD = 1;

/**
 * Brings the index in line with the vault: notes no longer there (or now excluded) are dropped,
 * and a note is read only when it is new or its size or modification time differs from what was
 * indexed, so a start after an earlier run re-reads only what changed while the app was closed.
 * A first build is the same walk over an empty index.
 */
export async function reconcile(context: ReconcileContext): Promise<ReconcileReport> {
  const { vault, index, slicer } = context;
  const report: ReconcileReport = { indexed: 0, removed: 0, unchanged: 0, problems: [] };
  // Notes already indexed are checked first: only those whose size or time changed are read.
  // (Walked in slices: for a large vault even these passes would hold the thread too long.)
  const listed = await slicer.wait(vault.listNotes());
  const present = new Set<string>();
  const known: string[] = [];
  const toRead: { path: string; stat?: FileStat }[] = [];
  for (let position = 0; position < listed.length; position++) {
    const path = listed[position] ?? "";
    if (context.isExcluded(path)) continue;
    // A name the path rule refuses (a line break, an escape character) cannot be read or linked:
    // it is left out and reported, and every other note is served.
    const refusal = pathRuleRefusal(path, vault.configDir);
    if (refusal !== null) {
      report.problems.push(refusal);
      continue;
    }
    present.add(path);
    if (index.get(path)) known.push(path);
    else toRead.push({ path });
    if ((position & 2047) === 2047) await slicer.checkpoint();
  }
  let visited = 0;
  for (const path of [...index.paths()]) {
    if (!present.has(path)) {
      index.remove(path);
      report.removed++;
    }
    if ((++visited & 2047) === 0) await slicer.checkpoint();
  }

  for (let start = 0; start < known.length; start += STAT_BATCH) {
    const batch = known.slice(start, start + STAT_BATCH);
    const stats = await slicer.wait(Promise.all(batch.map((path) => statOrReason(vault, path))));
    batch.forEach((path, offset) => {
      const { stat, problem } = stats[offset] ?? {};
      const indexed = index.get(path);
      if (problem) {
        if (index.remove(path)) report.removed++;
        report.problems.push(problem);
      } else if (!stat) {
        if (index.remove(path)) report.removed++;
      } else if (indexed && indexed.mtime === stat.mtime && indexed.size === stat.size) {
        report.unchanged++;
      } else {
        toRead.push({ path, stat });
      }
    });
    context.onProgress?.({ phase: "checking", done: Math.min(known.length, start + STAT_BATCH), total: known.length });
    await slicer.checkpoint();
  }

  // PDFs and canvases after the notes: a PDF read for the first time is extracted page by page,
  // and the notes should not wait behind it.
  toRead.sort((a, b) => Number(isDocumentFile(a.path)) - Number(isDocumentFile(b.path)));

  // New notes are stated as they are read, in batches; the next batch is read while this one is
  // indexed, which keeps the disk and the thread both busy. (Reading further ahead, in more or
  // larger batches or note by note, measured no faster: a read advances only when the thread is free.)
  const fetchBatch = (start: number) =>
    Promise.all(
      toRead
        .slice(start, start + READ_BATCH)
        .map((note) => Promise.all([note.stat ? Promise.resolve<StatOrReason>({ stat: note.stat }) : statOrReason(vault, note.path), readOrReason(vault, note.path)])),
    );
  const ahead: ReturnType<typeof fetchBatch>[] = [];
  for (let start = 0; start < toRead.length && ahead.length < BATCHES_AHEAD; start += READ_BATCH) ahead.push(fetchBatch(start));
  for (let start = 0; start < toRead.length; start += READ_BATCH) {
    const fetched = await slicer.wait(ahead.shift() ?? fetchBatch(start));
    const following = start + READ_BATCH * (ahead.length + 1);
    if (following < toRead.length) ahead.push(fetchBatch(following));
    for (let offset = 0; offset < fetched.length; offset++) {
      const path = toRead[start + offset]?.path ?? "";
      const [{ stat, problem }, text] = fetched[offset] as (typeof fetched)[number];
      if (!stat || text.problem !== undefined) {
        if (index.remove(path)) report.removed++;
        const reason = problem ?? text.problem;
        if (reason) report.problems.push(reason);
      } else {
        await indexText(context, { path, mtime: stat.mtime, size: stat.size }, text.text);
        report.indexed++;
      }
      await slicer.checkpoint();
    }
    context.onProgress?.({ phase: "indexing", done: Math.min(toRead.length, start + READ_BATCH), total: toRead.length });
  }
  return report;
}

/** Indexes one note's text under its path, size and modification time. */
export function indexNote(
  context: Pick<ReconcileContext, "index" | "tokenizer">,
  note: { path: string; mtime: number; size: number },
  text: string,
): void {
  context.index.add(
    { path: note.path, mtime: note.mtime, size: note.size, dayKey: dailyNoteDayKey(note.path) },
    fieldTermSource(note.path, text, context.tokenizer),
  );
}

/**
 * Indexes one note's text as `indexNote` does; a PDF's page by page, with the thread handed back
 * between pages: a 300-page PDF is one text of about a million characters, which tokenized in
 * one go holds the thread for a third of a second or more. (A PDF's text has no headings, tags or
 * frontmatter: documentText.ts escapes the lines Markdown would read so; its terms are its
 * pages' words, its title and folder.)
 */
export async function indexText(
  context: Pick<ReconcileContext, "index" | "tokenizer" | "slicer">,
  note: { path: string; mtime: number; size: number },
  text: string,
): Promise<void> {
  if (documentKind(note.path) !== "pdf") {
    indexNote(context, note, text);
    return;
  }
  const fields: Term[][] = FIELD_NAMES.map(() => []);
  // The title and folder fields, as a note's: from the path alone.
  fieldTermSource(note.path, "", context.tokenizer)((field, term) => fields[field]?.push(term));
  const body = fields[FIELD_NAMES.indexOf("body")] ?? [];
  for (const page of text.split(`\n${PAGE_BREAK}\n`)) {
    for (const line of page.split("\n")) context.tokenizer.forEachTerm(line, (term) => body.push(term));
    await context.slicer.checkpoint();
  }
  context.index.add({ path: note.path, mtime: note.mtime, size: note.size, dayKey: dailyNoteDayKey(note.path) }, fields);
}

/** A note's text, or why it could not be read (a note deleted meanwhile has no reason: it is gone). */
export async function readOrReason(vault: VaultPort, path: string): Promise<{ text: string; problem?: undefined } | { problem: string | null }> {
  try {
    return { text: await vault.read(path) };
  } catch (error) {
    if (error instanceof VaultFileNotFoundError) return { problem: null };
    return { problem: `Could not read ${quotePath(path)} for the search index: ${errorMessage(error)}` };
  }
}

export type StatOrReason = { stat: FileStat | null; problem?: undefined } | { stat?: undefined; problem: string };

/** A note's stat (null when it is gone), or why it could not be taken. */
export async function statOrReason(vault: VaultPort, path: string): Promise<StatOrReason> {
  try {
    return { stat: await vault.stat(path) };
  } catch (error) {
    return { problem: `Could not look at ${quotePath(path)} for the search index: ${errorMessage(error)}` };
  }
}

/** Why a listed name is left out of the index, or null when the path rule takes it as it is. */
export function pathRuleRefusal(path: string, configDir: string): string | null {
  try {
    if (toVaultPath(path, configDir) === path) return null;
    return `Left ${quotePath(path)} out of the search index: its name is not one a note path can spell exactly.`;
  } catch (error) {
    return `Left ${quotePath(path)} out of the search index: ${error instanceof VaultPathError ? error.reason : errorMessage(error)}.`;
  }
}
