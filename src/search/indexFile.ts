import { decodeBase64, encodeBase64 } from "../text/base64";
import { VarintReader, VarintWriter } from "./binaryText";
import type { IndexedDocument, IndexSnapshot } from "./InvertedIndex";
import { FIELD_COUNT } from "./noteFields";
import type { TimeSlicer } from "./TimeSlicer";
import { TOKENIZER_VERSION } from "./tokenizer";

/**
 * The index file, version 1: text lines, so it goes through the plugin's text store and is parsed
 * a line at a time between slices (a 50,000-note index never sits in one `JSON.parse`). Line 1
 * is a JSON header; then "d" lines hold notes as JSON arrays `[path, mtime, size, dayKey,
 * ...fieldLengths]`, "t" lines the terms as JSON arrays, "p" lines the postings (per term: its
 * count, then note-id gaps and packed frequencies, as varints in base64), and a last "e" line
 * repeats the counts, so a cut-off file is never taken for a whole one.
 *
 * The lines are stored in parts of a few megabytes (`parts` in the header; each later part starts
 * with a "g" line naming the header's generation), so no single read decodes tens of megabytes at
 * once and a part left from another save is recognized.
 */
export const INDEX_FILE_FORMAT = "vault-copilot-note-index";
export const INDEX_FILE_VERSION = 1;

/** The index file cannot be used: another version, another tokenizer, or damaged. */
export class IndexFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "IndexFileError";
  }
}

interface Header {
  format: string;
  version: number;
  tokenizer: number;
  documents: number;
  terms: number;
  postings: number;
  parts: number;
  generation: string;
}

const DOCUMENTS_PER_LINE = 2_000;
const TERMS_PER_LINE = 20_000;
const POSTINGS_PER_LINE = 50_000;
const PART_CHARS = 4_000_000;

/** The index as the texts of its parts, the header's part first. */
export async function encodeIndexFile(
  snapshot: IndexSnapshot,
  slicer: TimeSlicer,
  options: { generation?: string; partChars?: number } = {},
): Promise<string[]> {
  const generation = options.generation ?? String(Date.now());
  const partChars = options.partChars ?? PART_CHARS;
  const { documents, lengths, terms, offsets, docs, frequencies } = snapshot;
  const lines: string[] = [];
  for (let start = 0; start < documents.length; start += DOCUMENTS_PER_LINE) {
    const rows = documents.slice(start, start + DOCUMENTS_PER_LINE).map((document, offset) => {
      const id = start + offset;
      return [document.path, document.mtime, document.size, document.dayKey, ...lengths.subarray(id * FIELD_COUNT, (id + 1) * FIELD_COUNT)];
    });
    lines.push(`d${JSON.stringify(rows)}`);
    await slicer.checkpoint();
  }
  for (let start = 0; start < terms.length; start += TERMS_PER_LINE) {
    lines.push(`t${JSON.stringify(terms.slice(start, start + TERMS_PER_LINE))}`);
    await slicer.checkpoint();
  }
  const writer = new VarintWriter();
  let inLine = 0;
  for (let termId = 0; termId < terms.length; termId++) {
    const start = offsets[termId] ?? 0;
    const end = offsets[termId + 1] ?? 0;
    writer.write(end - start);
    let previous = 0;
    for (let index = start; index < end; index++) {
      const id = docs[index] ?? 0;
      writer.write(id - previous);
      writer.write(frequencies[index] ?? 0);
      previous = id;
    }
    inLine += end - start + 1;
    if (inLine >= POSTINGS_PER_LINE || termId === terms.length - 1) {
      lines.push(`p${encodeBase64(writer.take())}`);
      inLine = 0;
      await slicer.checkpoint();
    }
  }
  lines.push(`e${JSON.stringify([documents.length, terms.length, docs.length])}`);

  const groups: string[][] = [[]];
  let size = 0;
  for (const line of lines) {
    if (size > 0 && size + line.length > partChars) {
      groups.push([]);
      size = 0;
    }
    (groups[groups.length - 1] as string[]).push(line);
    size += line.length + 1;
  }
  const header: Header = {
    format: INDEX_FILE_FORMAT,
    version: INDEX_FILE_VERSION,
    tokenizer: TOKENIZER_VERSION,
    documents: documents.length,
    terms: terms.length,
    postings: docs.length,
    parts: groups.length,
    generation,
  };
  return groups.map((group, index) => [index === 0 ? JSON.stringify(header) : `g${generation}`, ...group].join("\n"));
}

/**
 * Reads an index stored in parts (`readPart(0)` is the header's); throws `IndexFileError` for
 * anything that is not a whole, current index.
 */
export async function decodeIndexFile(readPart: (index: number) => Promise<string | null>, slicer: TimeSlicer): Promise<IndexSnapshot> {
  const first = await slicer.wait(readPart(0));
  if (first === null) throw new IndexFileError("no index was stored");
  const firstBreak = first.indexOf("\n");
  const header = parseHeader(firstBreak < 0 ? first : first.slice(0, firstBreak));
  const reader = new SnapshotReader(header);
  let endLine = "";
  for (let part = 0; part < header.parts; part++) {
    const text = part === 0 ? first : await slicer.wait(readPart(part));
    if (text === null) throw new IndexFileError(`part ${part + 1} of the index is missing`);
    let start = 0;
    for (let lineNumber = 0; start <= text.length; lineNumber++) {
      const newline = text.indexOf("\n", start);
      const end = newline < 0 ? text.length : newline;
      const line = text.slice(start, end);
      start = end + 1;
      if (lineNumber === 0) {
        if (part > 0 && line !== `g${header.generation}`) throw new IndexFileError(`part ${part + 1} of the index is from another save`);
        continue;
      }
      if (line.startsWith("e")) endLine = line;
      else reader.line(line);
      await slicer.checkpoint();
    }
  }
  if (endLine !== `e${JSON.stringify([header.documents, header.terms, header.postings])}`) throw new IndexFileError("the index file is incomplete");
  return reader.finish();
}

/** Turns the lines of an index file into a snapshot, checking every count and reference. */
class SnapshotReader {
  private readonly documents: IndexedDocument[] = [];
  private readonly paths = new Set<string>();
  private readonly lengths: Uint32Array;
  private readonly terms: string[] = [];
  private readonly offsets: Uint32Array;
  private readonly docs: Uint32Array;
  private readonly frequencies: Uint32Array;
  private termId = 0;
  private cursor = 0;

  constructor(private readonly header: Header) {
    this.lengths = new Uint32Array(header.documents * FIELD_COUNT);
    this.offsets = new Uint32Array(header.terms + 1);
    this.docs = new Uint32Array(header.postings);
    this.frequencies = new Uint32Array(header.postings);
  }

  line(line: string): void {
    const body = line.slice(1);
    if (line.startsWith("d")) for (const row of parseArray(body)) this.document(row);
    else if (line.startsWith("t")) for (const term of parseArray(body)) this.term(term);
    else if (line.startsWith("p")) this.postings(readBase64(body));
    else throw new IndexFileError("the index file holds a line of an unknown kind");
  }

  finish(): IndexSnapshot {
    const { header } = this;
    if (this.documents.length !== header.documents || this.terms.length !== header.terms || this.termId !== header.terms || this.cursor !== header.postings) {
      throw new IndexFileError("the index file's parts do not add up");
    }
    return { documents: this.documents, lengths: this.lengths, terms: this.terms, offsets: this.offsets, docs: this.docs, frequencies: this.frequencies };
  }

  private document(row: unknown): void {
    if (this.documents.length >= this.header.documents) throw new IndexFileError("more notes than the header says");
    const document = readDocument(row);
    if (this.paths.has(document.path)) throw new IndexFileError("a note appears twice");
    this.paths.add(document.path);
    this.lengths.set(readLengths(row), this.documents.length * FIELD_COUNT);
    this.documents.push(document);
  }

  private term(term: unknown): void {
    if (typeof term !== "string" || this.terms.length >= this.header.terms) throw new IndexFileError("bad term list");
    this.terms.push(term);
  }

  private postings(bytes: Uint8Array): void {
    const { header, docs, frequencies, offsets } = this;
    const reader = new VarintReader(bytes);
    try {
      while (!reader.done) {
        if (this.termId >= header.terms) throw new IndexFileError("postings for more terms than the header says");
        const count = reader.read();
        if (this.cursor + count > header.postings) throw new IndexFileError("more postings than the header says");
        let id = 0;
        for (let index = 0; index < count; index++) {
          const gap = reader.read();
          id += gap;
          if ((index > 0 && gap === 0) || id >= header.documents) throw new IndexFileError("a posting names no note");
          docs[this.cursor] = id;
          frequencies[this.cursor++] = reader.read();
        }
        offsets[++this.termId] = this.cursor;
      }
    } catch (error) {
      if (error instanceof RangeError) throw new IndexFileError("the postings are damaged");
      throw error;
    }
  }
}

function parseHeader(line: string): Header {
  let header: Partial<Header>;
  try {
    header = JSON.parse(line) as Partial<Header>;
  } catch {
    throw new IndexFileError("the index file has no readable header");
  }
  if (header?.format !== INDEX_FILE_FORMAT) throw new IndexFileError("not an index file");
  if (header.version !== INDEX_FILE_VERSION) throw new IndexFileError(`index file version ${String(header.version)} is not ${INDEX_FILE_VERSION}`);
  if (header.tokenizer !== TOKENIZER_VERSION) throw new IndexFileError("the index was made with another tokenizer");
  for (const key of ["documents", "terms", "postings", "parts"] as const) {
    const value = header[key];
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) throw new IndexFileError(`bad ${key} count`);
  }
  if ((header.parts ?? 0) < 1 || typeof header.generation !== "string") throw new IndexFileError("bad part list");
  return header as Header;
}

function parseArray(text: string): unknown[] {
  try {
    const value: unknown = JSON.parse(text);
    if (Array.isArray(value)) return value;
  } catch {
    // Reported below, as every other damage is.
  }
  throw new IndexFileError("a line of the index file is damaged");
}

function readBase64(text: string): Uint8Array {
  try {
    return decodeBase64(text);
  } catch {
    throw new IndexFileError("the postings are damaged");
  }
}

function readDocument(row: unknown): IndexedDocument {
  if (!Array.isArray(row) || row.length !== 4 + FIELD_COUNT) throw new IndexFileError("a note's entry is damaged");
  const [path, mtime, size, dayKey] = row as unknown[];
  if (typeof path !== "string" || path.length === 0 || !isCount(mtime) || !isCount(size) || !isCount(dayKey)) {
    throw new IndexFileError("a note's entry is damaged");
  }
  return { path, mtime, size, dayKey };
}

function readLengths(row: unknown): number[] {
  const values = Array.isArray(row) ? (row as unknown[]).slice(4) : [];
  if (values.length !== FIELD_COUNT || !values.every(isCount)) throw new IndexFileError("a note's field lengths are damaged");
  return values;
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}
