/**
 * The index's term dictionary: each distinct term text numbered in order of arrival (0, 1, 2, …),
 * found by text and read back by number. The texts sit in one growing character array and the
 * lookup is an open-addressing hash table of numbers, so a term costs about 20 bytes beside its
 * characters instead of a string object and a Map entry (about 70): a note of millions of distinct
 * words fits in a fraction of the memory.
 */
export class TermTable {
  private characters = new Uint16Array(1024);
  private characterCount = 0;
  /** Term id -> where its characters start; `starts[size]` is where the next one will. */
  private starts = new Uint32Array(1025);
  private hashes = new Uint32Array(1024);
  /** Open addressing, linear probing: each slot holds a term id + 1, or 0 when free. */
  private slots = new Int32Array(2048);
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** The id of `text`, or undefined when it was never added. */
  find(text: string): number | undefined {
    const hash = hashOf(text);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot] ?? 0;
      if (entry === 0) return undefined;
      if (this.hashes[entry - 1] === hash && this.equals(entry - 1, text)) return entry - 1;
    }
  }

  /** The id of `text`, added with the next id if it is new. */
  idOf(text: string): number {
    const hash = hashOf(text);
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    for (; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot] ?? 0;
      if (entry === 0) break;
      if (this.hashes[entry - 1] === hash && this.equals(entry - 1, text)) return entry - 1;
    }
    const id = this.count++;
    if (id >= this.hashes.length) this.growTerms();
    if (this.characterCount + text.length > this.characters.length) this.growCharacters(this.characterCount + text.length);
    for (let index = 0; index < text.length; index++) this.characters[this.characterCount + index] = text.charCodeAt(index);
    this.characterCount += text.length;
    this.starts[id + 1] = this.characterCount;
    this.hashes[id] = hash;
    this.slots[slot] = id + 1;
    // Kept at most half full, so a probe ends after a step or two.
    if (this.count * 2 > this.slots.length) this.rehash();
    return id;
  }

  /** The text of term `id`. */
  text(id: number): string {
    const start = this.starts[id] ?? 0;
    const end = this.starts[id + 1] ?? 0;
    // Decoded in pieces: fromCharCode takes only so many arguments.
    let text = "";
    for (let from = start; from < end; from += 4096) text += String.fromCharCode(...this.characters.subarray(from, Math.min(end, from + 4096)));
    return text;
  }

  private equals(id: number, text: string): boolean {
    const start = this.starts[id] ?? 0;
    if ((this.starts[id + 1] ?? 0) - start !== text.length) return false;
    for (let index = 0; index < text.length; index++) if (this.characters[start + index] !== text.charCodeAt(index)) return false;
    return true;
  }

  private growTerms(): void {
    const size = Math.ceil(this.hashes.length * 1.5);
    const hashes = new Uint32Array(size);
    hashes.set(this.hashes);
    this.hashes = hashes;
    const starts = new Uint32Array(size + 1);
    starts.set(this.starts);
    this.starts = starts;
  }

  private growCharacters(minimum: number): void {
    const characters = new Uint16Array(Math.max(minimum, Math.ceil(this.characters.length * 1.5)));
    characters.set(this.characters.subarray(0, this.characterCount));
    this.characters = characters;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let id = 0; id < this.count; id++) {
      let slot = (this.hashes[id] ?? 0) & mask;
      while ((slots[slot] ?? 0) !== 0) slot = (slot + 1) & mask;
      slots[slot] = id + 1;
    }
    this.slots = slots;
  }
}

/** FNV-1a over the UTF-16 code units, with a final mix so the low bits (the slot) spread well. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  hash ^= hash >>> 15;
  hash = Math.imul(hash, 0x2c1b3c6d);
  return (hash ^ (hash >>> 12)) >>> 0;
}
