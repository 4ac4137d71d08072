import { decodeBase64, encodeBase64 } from "../binaryText";
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

interface StoredFile {
  version: number;
  model: string;
  dimensions: number;
  notes: Array<{ path: string; keys: string[]; hashes: string[]; codes: string; scales: string }>;
}

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

  /** Replaces a note's sections (an empty list removes the note). */
  set(path: string, sections: readonly SectionVector[]): void {
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

  serialize(): string {
    const file: StoredFile = {
      version: FORMAT_VERSION,
      model: this.model,
      dimensions: this.dims,
      notes: [...this.notes].map(([path, note]) => ({
        path,
        keys: note.keys,
        hashes: note.hashes,
        codes: encodeBase64(new Uint8Array(note.codes.buffer, note.codes.byteOffset, note.codes.byteLength)),
        scales: encodeBase64(littleEndianFloats(note.scales)),
      })),
    };
    return JSON.stringify(file);
  }

  /** The store a `serialize()` text holds; a corrupt text, or one of another version, gives an empty store. */
  static deserialize(text: string): VectorStore {
    try {
      return VectorStore.read(JSON.parse(text) as StoredFile);
    } catch {
      return new VectorStore();
    }
  }

  private static read(file: StoredFile): VectorStore {
    if (file?.version !== FORMAT_VERSION || typeof file.model !== "string" || !Number.isInteger(file.dimensions) || file.dimensions < 0 || !Array.isArray(file.notes)) {
      throw new RangeError("not a vector store of this version");
    }
    const store = new VectorStore(file.model, file.dimensions);
    for (const entry of file.notes) {
      const count = entry.keys.length;
      const codes = new Int8Array(decodeBase64(entry.codes).buffer);
      const scales = floatsFromLittleEndian(decodeBase64(entry.scales));
      const wellFormed =
        typeof entry.path === "string" &&
        count > 0 &&
        entry.hashes.length === count &&
        entry.keys.every((key) => typeof key === "string") &&
        entry.hashes.every((hash) => typeof hash === "string") &&
        codes.length === count * file.dimensions &&
        scales.length === count;
      if (!wellFormed) throw new RangeError("a note's vectors do not fit the store");
      store.put(entry.path, { keys: entry.keys, hashes: entry.hashes, codes, scales, norms: codeNorms(codes, file.dimensions) });
    }
    return store;
  }

  private put(path: string, note: NoteVectors): void {
    this.notes.set(path, note);
    this.sections += note.keys.length;
  }
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

function codeDot(query: Float32Array, codes: Int8Array, offset: number): number {
  let sum = 0;
  for (let dim = 0; dim < query.length; dim++) sum += (query[dim] ?? 0) * (codes[offset + dim] ?? 0);
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
