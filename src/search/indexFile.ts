import { decodeBase64, encodeBase64, VarintReader, VarintWriter } from "./binaryText";
import type { IndexedDocument, IndexSnapshot } from "./InvertedIndex";
import { FIELD_COUNT } from "./noteFields";
import type { TimeSlicer } from "./TimeSlicer";
import { TOKENIZER_VERSION } from "./tokenizer";

/**
 * The index file, version 1: text lines, so it is read and written through the plugin's text
 * store and parsed a line at a time between slices (a 50,000-note index never sits in one
 * `JSON.parse`). Line 1 is a JSON header; then "d" lines hold notes as JSON arrays
 * `[path, mtime, size, dayKey, ...fieldLengths]`, "t" lines the terms as JSON arrays, "p" lines the
 * postings (per term: its count, then doc-id gaps and packed frequencies, as varints in base64),
 * and a last "e" line repeats the counts, so a cut-off file is never taken for a whole one.
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
}

const DOCUMENTS_PER_LINE = 2_000;
const TERMS_PER_LINE = 20_000;
const POSTINGS_PER_LINE = 200_000;

export async function encodeIndexFile(snapshot: IndexSnapshot, slicer: TimeSlicer): Promise<string> {
  const { documents, lengths, terms, offsets, docs, frequencies } = snapshot;
  const header: Header = {
    format: INDEX_FILE_FORMAT,
    version: INDEX_FILE_VERSION,
    tokenizer: TOKENIZER_VERSION,
    documents: documents.length,
    terms: terms.length,
    postings: docs.length,
  };
  const lines = [JSON.stringify(header)];
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
  lines.push(`e${JSON.stringify([header.documents, header.terms, header.postings])}`);
  return lines.join("\n");
}

/** Reads an index file; throws `IndexFileError` for anything that is not a whole, current one. */
export async function decodeIndexFile(text: string, slicer: TimeSlicer): Promise<IndexSnapshot> {
  const lines = text.split("\n");
  const header = parseHeader(lines[0] ?? "");
  const last = lines[lines.length - 1] ?? "";
  if (last !== `e${JSON.stringify([header.documents, header.terms, header.postings])}`) {
    throw new IndexFileError("the index file is incomplete");
  }
  const documents: IndexedDocument[] = [];
  const lengths = new Uint32Array(header.documents * FIELD_COUNT);
  const terms: string[] = [];
  const offsets = new Uint32Array(header.terms + 1);
  const docs = new Uint32Array(header.postings);
  const frequencies = new Uint32Array(header.postings);
  const paths = new Set<string>();
  let termId = 0;
  let cursor = 0;

  for (let lineNumber = 1; lineNumber < lines.length - 1; lineNumber++) {
    const line = lines[lineNumber] ?? "";
    const body = line.slice(1);
    if (line.startsWith("d")) {
      for (const row of parseArray(body)) {
        if (documents.length >= header.documents) throw new IndexFileError("more notes than the header says");
        lengths.set(readLengths(row), documents.length * FIELD_COUNT);
        const document = readDocument(row);
        if (paths.has(document.path)) throw new IndexFileError("a note appears twice");
        paths.add(document.path);
        documents.push(document);
      }
    } else if (line.startsWith("t")) {
      for (const term of parseArray(body)) {
        if (typeof term !== "string" || terms.length >= header.terms) throw new IndexFileError("bad term list");
        terms.push(term);
      }
    } else if (line.startsWith("p")) {
      const reader = new VarintReader(readBase64(body));
      while (!reader.done) {
        if (termId >= header.terms) throw new IndexFileError("postings for more terms than the header says");
        const count = reader.read();
        if (cursor + count > header.postings) throw new IndexFileError("more postings than the header says");
        let id = 0;
        for (let index = 0; index < count; index++) {
          const gap = reader.read();
          id += gap;
          if ((index > 0 && gap === 0) || id >= header.documents) throw new IndexFileError("a posting names no note");
          docs[cursor] = id;
          frequencies[cursor++] = reader.read();
        }
        offsets[++termId] = cursor;
      }
    } else {
      throw new IndexFileError(`unexpected line ${lineNumber + 1}`);
    }
    await slicer.checkpoint();
  }
  if (documents.length !== header.documents || terms.length !== header.terms || termId !== header.terms || cursor !== header.postings) {
    throw new IndexFileError("the index file's parts do not add up");
  }
  return { documents, lengths, terms, offsets, docs, frequencies };
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
  for (const key of ["documents", "terms", "postings"] as const) {
    const value = header[key];
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) throw new IndexFileError(`bad ${key} count`);
  }
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
