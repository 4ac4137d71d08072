import { decodeBase64, encodeBase64 } from "../../text/base64";
import { dequantize, quantize } from "./quantize";

/** A section's vector as handed to the store. */
export interface SectionVector {
  key: string;
  hash: string;
  vector: Float32Array;
}

export interface VectorHit {
  path: string;
  /** The note's best section. */
  key: string;
  /** Cosine similarity, -1..1. */
  score: number;
}

/** One note's sections: keys, hashes and int8 codes side by side (section i at codes[i*dims]). */
interface NoteVectors {
  keys: string[];
  hashes: string[];
  codes: Int8Array;
  scales: Float32Array;
  /** Length of each section's code vector (the scale cancels out of a cosine). */
  norms: Float32Array;
}

const FORMAT_VERSION = 1;

/** The stored file: a header line `{version, model, dimensions}`, then one line per note. */
interface StoredHeader {
  version: number;
  model: string;
  dimensions: number;
}

interface StoredNote {
  path: string;
  keys: string[];
  hashes: string[];
  /** base64 of the int8 codes, section after section. */
  codes: string;
  /** base64 of the float32 scales, little-endian. */
  scales: string;
}

/** Hands the thread back now and then during a long write or read (see TimeSlicer.checkpoint). */
export type Checkpoint = () => Promise<void>;

/**
 * Section vectors of the vault's notes, int8-quantised with one scale per vector, grouped by note
 * path, for one embedding model. Search is a flat scan (cosine on the codes); see
 * bench/embeddings for what that costs at 50,000 sections.
 */
export class VectorStore {
  private readonly notes = new Map<string, NoteVectors>();
  private sections = 0;

  constructor(
    readonly model = "",
    private dims = 0,
  ) {}

  /** The vectors' length; 0 until the first vector arrives. */
  get dimensions(): number {
    return this.dims;
  }

  get noteCount(): number {
    return this.notes.size;
  }

  get sectionCount(): number {
    return this.sections;
  }

  /** Bytes the vectors take: one per dimension and four for the scale, per section. */
  get byteSize(): number {
    return this.sections * (this.dims + 4);
  }

  paths(): string[] {
    return [...this.notes.keys()];
  }

  has(path: string): boolean {
    return this.notes.has(path);
  }

  /** Replaces a note's sections (an empty list removes the note); a vector with no direction (all zero, or not finite) is refused and the note kept as it was. */
  set(path: string, sections: readonly SectionVector[]): void {
    for (const section of sections) {
      if (!section.vector.every(Number.isFinite) || section.vector.every((value) => value === 0)) {
        throw new RangeError(`A vector for "${path}" that is all zero or not finite: it has no direction to compare`);
      }
    }
    this.remove(path);
    if (sections.length === 0) return;
    if (this.dims === 0) this.dims = sections[0]?.vector.length ?? 0;
    const dims = this.dims;
    const codes = new Int8Array(sections.length * dims);
    const scales = new Float32Array(sections.length);
    sections.forEach((section, index) => {
      if (section.vector.length !== dims) throw new RangeError(`A vector of ${section.vector.length} dimensions in a store of ${dims}`);
      scales[index] = quantize(section.vector, codes, index * dims);
    });
    this.put(path, { keys: sections.map((section) => section.key), hashes: sections.map((section) => section.hash), codes, scales, norms: codeNorms(codes, dims) });
  }

  remove(path: string): void {
    const note = this.notes.get(path);
    if (!note) return;
    this.sections -= note.keys.length;
    this.notes.delete(path);
  }

  /** Section key → content hash of what is stored for the note (empty when nothing is). */
  hashesOf(path: string): Map<string, string> {
    const note = this.notes.get(path);
    return new Map(note ? note.keys.map((key, index) => [key, note.hashes[index] ?? ""]) : []);
  }

  /** A stored section's vector, dequantised. */
  vectorOf(path: string, key: string): Float32Array | undefined {
    const note = this.notes.get(path);
    const index = note?.keys.indexOf(key) ?? -1;
    if (!note || index < 0) return undefined;
    return dequantize(note.codes, index * this.dims, this.dims, note.scales[index] ?? 0);
  }

  /** The notes whose best section is closest to `query` (cosine), best first; `accept` filters paths. */
  search(query: Float32Array, limit: number, accept?: (path: string) => boolean): VectorHit[] {
    const dims = this.dims;
    if (limit <= 0 || dims === 0 || query.length !== dims) return [];
    const queryNorm = Math.sqrt(dot(query, query));
    if (queryNorm === 0) return [];
    const hits: VectorHit[] = [];
    let worst = -Infinity;
    for (const [path, note] of this.notes) {
      if (accept && !accept(path)) continue;
      let best = -Infinity;
      let bestIndex = 0;
      for (let index = 0; index < note.keys.length; index++) {
        const norm = note.norms[index] ?? 0;
        if (norm === 0) continue;
        const score = codeDot(query, note.codes, index * dims) / (norm * queryNorm);
        if (score > best) {
          best = score;
          bestIndex = index;
        }
      }
      // Below the limit-th best seen so far (known after a trim): it cannot make the list.
      if (best === -Infinity || best < worst) continue;
      hits.push({ path, key: note.keys[bestIndex] ?? "", score: best });
      if (hits.length >= limit * 2 + 16) worst = trim(hits, limit);
    }
    trim(hits, limit);
    return hits;
  }

  /** The notes closest to `path` (the mean of its section vectors), the note itself left out. */
  similarToNote(path: string, limit: number, accept?: (path: string) => boolean): VectorHit[] {
    const note = this.notes.get(path);
    if (!note) return [];
    const dims = this.dims;
    const mean = new Float32Array(dims);
    // Each section counts as a unit vector (the scale cancels out), so a long one does not outweigh the rest.
    note.keys.forEach((_, index) => {
      const norm = note.norms[index] ?? 0;
      if (norm === 0) return;
      for (let dim = 0; dim < dims; dim++) mean[dim] = (mean[dim] ?? 0) + (note.codes[index * dims + dim] ?? 0) / norm;
    });
    return this.search(mean, limit, (other) => other !== path && (accept?.(other) ?? true));
  }

  /** The whole store as text: a header line, then a line per note. */
  serialize(): string {
    return [this.header(), ...[...this.notes].map(([path, note]) => noteLine(path, note))].join("\n");
  }

  /** `serialize()` in slices: `checkpoint` is awaited between notes, so a large store never holds the thread long. */
  async serializeSliced(checkpoint: Checkpoint): Promise<string> {
    // Added to the text in parts as it goes: one join of every line at the end is itself a long stall.
    let text = this.header();
    let lines: string[] = [];
    for (const [path, note] of [...this.notes]) {
      await checkpoint();
      lines.push(noteLine(path, note));
      if (lines.length >= 256) {
        text += `\n${lines.join("\n")}`;
        lines = [];
      }
    }
    return lines.length > 0 ? `${text}\n${lines.join("\n")}` : text;
  }

  /** The store a `serialize()` text holds; a corrupt text, or one of another version, gives an empty store. */
  static deserialize(text: string): VectorStore {
    try {
      const lines = text.split("\n");
      const store = VectorStore.fromHeader(lines[0] ?? "");
      for (let index = 1; index < lines.length; index++) store.readNote(lines[index] ?? "");
      return store;
    } catch {
      return new VectorStore();
    }
  }

  /** `deserialize` in slices, `checkpoint` awaited between notes (an abort it throws passes through). */
  static async deserializeSliced(text: string, checkpoint: Checkpoint): Promise<VectorStore> {
    let store: VectorStore;
    let position = text.indexOf("\n");
    try {
      store = VectorStore.fromHeader(text.slice(0, position < 0 ? text.length : position));
    } catch {
      return new VectorStore();
    }
    while (position >= 0) {
      await checkpoint();
      const next = text.indexOf("\n", position + 1);
      try {
        store.readNote(text.slice(position + 1, next < 0 ? text.length : next));
      } catch {
        return new VectorStore();
      }
      position = next;
    }
    return store;
  }

  private header(): string {
    const header: StoredHeader = { version: FORMAT_VERSION, model: this.model, dimensions: this.dims };
    return JSON.stringify(header);
  }

  private static fromHeader(line: string): VectorStore {
    const header = JSON.parse(line) as StoredHeader | null;
    if (header?.version !== FORMAT_VERSION || typeof header.model !== "string" || !Number.isInteger(header.dimensions) || header.dimensions < 0) {
      throw new RangeError("not a vector store of this version");
    }
    return new VectorStore(header.model, header.dimensions);
  }

  private readNote(line: string): void {
    const entry = JSON.parse(line) as StoredNote;
    const count = Array.isArray(entry.keys) ? entry.keys.length : 0;
    const codes = new Int8Array(decodeBase64(entry.codes).buffer);
    const scales = floatsFromLittleEndian(decodeBase64(entry.scales));
    const wellFormed =
      typeof entry.path === "string" &&
      count > 0 &&
      !this.notes.has(entry.path) &&
      Array.isArray(entry.hashes) &&
      entry.hashes.length === count &&
      entry.keys.every((key) => typeof key === "string") &&
      entry.hashes.every((hash) => typeof hash === "string") &&
      codes.length === count * this.dims &&
      scales.length === count;
    if (!wellFormed) throw new RangeError("a note's vectors do not fit the store");
    this.put(entry.path, { keys: entry.keys, hashes: entry.hashes, codes, scales, norms: codeNorms(codes, this.dims) });
  }

  private put(path: string, note: NoteVectors): void {
    this.notes.set(path, note);
    this.sections += note.keys.length;
  }
}

function noteLine(path: string, note: NoteVectors): string {
  const entry: StoredNote = {
    path,
    keys: note.keys,
    hashes: note.hashes,
    codes: encodeBase64(new Uint8Array(note.codes.buffer, note.codes.byteOffset, note.codes.byteLength)),
    scales: encodeBase64(littleEndianFloats(note.scales)),
  };
  return JSON.stringify(entry);
}

/** Keeps the `limit` best hits (best first) and returns the lowest score kept. */
function trim(hits: VectorHit[], limit: number): number {
  hits.sort((left, right) => right.score - left.score || left.path.localeCompare(right.path));
  hits.length = Math.min(hits.length, limit);
  return hits.length >= limit ? (hits[hits.length - 1]?.score ?? -Infinity) : -Infinity;
}

function codeNorms(codes: Int8Array, dims: number): Float32Array {
  const count = dims === 0 ? 0 : codes.length / dims;
  const norms = new Float32Array(count);
  for (let index = 0; index < count; index++) {
    let sum = 0;
    for (let dim = index * dims, end = dim + dims; dim < end; dim++) sum += (codes[dim] ?? 0) * (codes[dim] ?? 0);
    norms[index] = Math.sqrt(sum);
  }
  return norms;
}

/** The hot loop of a search: indexes are in range (offset + length within codes), hence the assertions. */
function codeDot(query: Float32Array, codes: Int8Array, offset: number): number {
  let sum = 0;
  const length = query.length;
  for (let dim = 0; dim < length; dim++) sum += query[dim]! * codes[offset + dim]!;
  return sum;
}

function dot(left: Float32Array, right: Float32Array): number {
  let sum = 0;
  for (let index = 0; index < left.length; index++) sum += (left[index] ?? 0) * (right[index] ?? 0);
  return sum;
}

/** Float32 values as little-endian bytes, whatever the machine's own order. */
function littleEndianFloats(values: Float32Array): Uint8Array {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  values.forEach((value, index) => view.setFloat32(index * 4, value, true));
  return bytes;
}

function floatsFromLittleEndian(bytes: Uint8Array): Float32Array {
  if (bytes.length % 4 !== 0) throw new RangeError("scales are not whole float32 values");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const values = new Float32Array(bytes.length / 4);
  for (let index = 0; index < values.length; index++) values[index] = view.getFloat32(index * 4, true);
  return values;
}
