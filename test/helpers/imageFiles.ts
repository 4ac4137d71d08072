import { readFileSync } from "node:fs";
import { join } from "node:path";
import { crc32, deflateSync } from "node:zlib";

/**
 * Real image files, written byte by byte for the tests (every browser decodes them; the Chromium
 * tests check that): a PNG of any size and colour, a baseline grey JPEG, a lossless WebP, and
 * the GIF pdfjs-dist ships. No package here encodes JPEG or WebP, and these formats are simple
 * enough at their plainest to write by hand.
 */

/** A PNG of one colour, RGB, 8 bits a channel, with its chunks' checksums. */
export function pngImage(width: number, height: number, [red, green, blue]: readonly [number, number, number] = [200, 60, 30]): Buffer {
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set([red, green, blue], 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk("IHDR", header), pngChunk("IDAT", deflateSync(pixels)), pngChunk("IEND", Buffer.alloc(0))]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, checksum]);
}

/**
 * A baseline JPEG, one grey channel, mid-grey all over: every 8×8 block is a zero DC difference
 * and an end of block, each a one-bit Huffman code, so the scan is two zero bits a block.
 */
export function jpegImage(width: number, height: number): Buffer {
  const segment = (marker: number, body: number[]) => [0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff, ...body];
  const oneCodeTable = (tableClassAndId: number) => segment(0xc4, [tableClassAndId, 1, ...Array<number>(15).fill(0), 0x00]);
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const scanBits = blocks * 2;
  const scan = Array<number>(Math.ceil(scanBits / 8)).fill(0);
  // The last byte's unused bits are ones, as the standard pads.
  if (scanBits % 8 !== 0) scan[scan.length - 1] = 0xff >> scanBits % 8;
  return Buffer.from([
    0xff, 0xd8,
    ...segment(0xdb, [0x00, ...Array<number>(64).fill(1)]),
    ...segment(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0]),
    ...oneCodeTable(0x00),
    ...oneCodeTable(0x10),
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]),
    ...scan,
    0xff, 0xd9,
  ]);
}

/**
 * A lossless WebP (VP8L) of one colour: no transforms, no colour cache, and five prefix codes of
 * one symbol each (green, red, blue, alpha, distance), so every pixel takes zero bits.
 */
export function webpImage(width: number, height: number, [red, green, blue]: readonly [number, number, number] = [30, 120, 220]): Buffer {
  const bits = new BitWriter();
  bits.write(width - 1, 14);
  bits.write(height - 1, 14);
  bits.write(0, 1); // no alpha used
  bits.write(0, 3); // version 0
  bits.write(0, 1); // no transform
  bits.write(0, 1); // no colour cache
  bits.write(0, 1); // no meta prefix codes
  for (const symbol of [green, red, blue, 255, 0]) {
    bits.write(1, 1); // a simple code
    bits.write(0, 1); // of one symbol
    bits.write(1, 1); // written in eight bits
    bits.write(symbol, 8);
  }
  const data = Buffer.from([0x2f, ...bits.bytes()]);
  const padded = data.length % 2 === 0 ? data : Buffer.concat([data, Buffer.alloc(1)]);
  const chunkHeader = Buffer.alloc(8);
  chunkHeader.write("VP8L", 0, "ascii");
  chunkHeader.writeUInt32LE(data.length, 4);
  const riff = Buffer.alloc(12);
  riff.write("RIFF", 0, "ascii");
  riff.writeUInt32LE(4 + 8 + padded.length, 4);
  riff.write("WEBP", 8, "ascii");
  return Buffer.concat([riff, chunkHeader, padded]);
}

/** The first bytes of a lossy (VP8) or extended (VP8X) WebP: enough to read the size, not an image to decode. */
export function webpHeaderOnly(kind: "VP8 " | "VP8X", width: number, height: number): Buffer {
  const chunk = Buffer.alloc(30);
  chunk.write("RIFF", 0, "ascii");
  chunk.writeUInt32LE(22, 4);
  chunk.write("WEBP", 8, "ascii");
  chunk.write(kind, 12, "ascii");
  chunk.writeUInt32LE(10, 16);
  if (kind === "VP8X") {
    chunk.writeUIntLE(width - 1, 24, 3);
    chunk.writeUIntLE(height - 1, 27, 3);
  } else {
    chunk.set([0x9d, 0x01, 0x2a], 23);
    chunk.writeUInt16LE(width, 26);
    chunk.writeUInt16LE(height, 28);
  }
  return chunk;
}

/** pdfjs-dist's loading spinner: a real animated GIF, 24×24 px (8 frames). */
export function gifImage(): Buffer {
  return readFileSync(join(__dirname, "../../node_modules/pdfjs-dist/web/images/loading-icon.gif"));
}

/** Bits packed from the least significant bit of each byte up, as VP8L reads them. */
class BitWriter {
  private readonly out: number[] = [];
  private current = 0;
  private used = 0;

  write(value: number, count: number): void {
    for (let bit = 0; bit < count; bit++) {
      this.current |= ((value >> bit) & 1) << this.used;
      if (++this.used === 8) {
        this.out.push(this.current);
        this.current = 0;
        this.used = 0;
      }
    }
  }

  bytes(): number[] {
    return this.used > 0 ? [...this.out, this.current] : [...this.out];
  }
}
