/**
 * Numbers as compact text, for an index file kept through a text-only store: unsigned integers as
 * variable-length bytes (7 bits a byte, small numbers in one byte), then base64 (text/base64.ts). Plain loops, so
 * the same code runs in Obsidian (desktop and mobile) and in Node.
 */

/** Appends unsigned integers (below 2^32) as variable-length bytes. */
export class VarintWriter {
  private bytes = new Uint8Array(1024);
  private length = 0;

  write(value: number): void {
    if (this.length + 5 > this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    let rest = value >>> 0;
    while (rest >= 0x80) {
      this.bytes[this.length++] = (rest & 0x7f) | 0x80;
      rest >>>= 7;
    }
    this.bytes[this.length++] = rest;
  }

  get size(): number {
    return this.length;
  }

  /** The bytes written since the last `take()`, and a fresh start. */
  take(): Uint8Array {
    const out = this.bytes.slice(0, this.length);
    this.length = 0;
    return out;
  }
}

/** Reads what `VarintWriter` wrote; throws `RangeError` past the end or on an overlong number. */
export class VarintReader {
  private position = 0;

  constructor(private readonly bytes: Uint8Array) {}

  get done(): boolean {
    return this.position >= this.bytes.length;
  }

  read(): number {
    const first = this.bytes[this.position];
    // Most numbers in an index fit one byte.
    if (first !== undefined && first < 0x80) {
      this.position++;
      return first;
    }
    let value = 0;
    let factor = 1;
    for (let count = 0; count < 5; count++) {
      if (this.position >= this.bytes.length) throw new RangeError("varint runs past the end of its data");
      const byte = this.bytes[this.position++] ?? 0;
      value += (byte & 0x7f) * factor;
      if (byte < 0x80) {
        if (value > 0xffffffff) throw new RangeError("varint is larger than 32 bits");
        return value;
      }
      factor *= 128;
    }
    throw new RangeError("varint is longer than five bytes");
  }
}
