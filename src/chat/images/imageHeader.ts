import type { ImageMimeType } from "../../context/imageInput";

/** What an image file's first bytes say: its type and size in pixels. */
export interface ImageHeader {
  mimeType: ImageMimeType;
  width: number;
  height: number;
}

/**
 * Reads the type and the pixel size of a PNG, JPEG, WebP or GIF from its header, without
 * decoding it (nothing here can run on a phone's memory for a 50-megapixel photo). Null for any
 * other file, or one cut short before its size.
 */
export function readImageHeader(bytes: Uint8Array): ImageHeader | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return png(bytes);
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return jpeg(bytes);
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WEBP") return webp(bytes);
  if (ascii(bytes, 0, 6) === "GIF87a" || ascii(bytes, 0, 6) === "GIF89a") return sized("image/gif", uint16le(bytes, 6), uint16le(bytes, 8));
  return null;
}

/** PNG: the IHDR chunk comes first, width and height as big-endian 32-bit numbers. */
function png(bytes: Uint8Array): ImageHeader | null {
  if (ascii(bytes, 12, 4) !== "IHDR") return null;
  return sized("image/png", uint32be(bytes, 16), uint32be(bytes, 20));
}

/** Start-of-frame markers (baseline, progressive, lossless, …), which carry the size; C4, C8 and CC are not frames. */
const SOF_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** JPEG: walks the segments to the first start-of-frame. */
function jpeg(bytes: Uint8Array): ImageHeader | null {
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1] ?? 0;
    // Fill bytes, and markers that stand alone (no length).
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // the image data or its end, and no frame yet
    const length = uint16be(bytes, offset + 2);
    if (SOF_MARKERS.has(marker)) return offset + 9 <= bytes.length ? sized("image/jpeg", uint16be(bytes, offset + 7), uint16be(bytes, offset + 5)) : null;
    offset += 2 + length;
  }
  return null;
}

/** WebP: a lossy (VP8), lossless (VP8L) or extended (VP8X) first chunk, each with the size its own way. */
function webp(bytes: Uint8Array): ImageHeader | null {
  const chunk = ascii(bytes, 12, 4);
  const data = 20;
  if (chunk === "VP8X") return sized("image/webp", uint24le(bytes, data + 4) + 1, uint24le(bytes, data + 7) + 1);
  if (chunk === "VP8L") {
    if (bytes[data] !== 0x2f || data + 5 > bytes.length) return null;
    const bits = uint32le(bytes, data + 1);
    return sized("image/webp", (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === "VP8 ") {
    // A key frame's start code, then 14-bit width and height (the top two bits are scaling).
    if (!startsWith(bytes.subarray(data + 3), [0x9d, 0x01, 0x2a])) return null;
    return sized("image/webp", uint16le(bytes, data + 6) & 0x3fff, uint16le(bytes, data + 8) & 0x3fff);
  }
  return null;
}

function sized(mimeType: ImageMimeType, width: number, height: number): ImageHeader | null {
  return Number.isFinite(width) && Number.isFinite(height) && width > 0 && height > 0 ? { mimeType, width, height } : null;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}

function ascii(bytes: Uint8Array, offset: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(offset, offset + length));
}

// Past the end a read gives NaN, which `sized` refuses.
const byte = (bytes: Uint8Array, offset: number) => bytes[offset] ?? NaN;
const uint16be = (bytes: Uint8Array, offset: number) => byte(bytes, offset) * 256 + byte(bytes, offset + 1);
const uint16le = (bytes: Uint8Array, offset: number) => byte(bytes, offset) + byte(bytes, offset + 1) * 256;
const uint24le = (bytes: Uint8Array, offset: number) => uint16le(bytes, offset) + byte(bytes, offset + 2) * 65536;
const uint32be = (bytes: Uint8Array, offset: number) => uint16be(bytes, offset) * 65536 + uint16be(bytes, offset + 2);
const uint32le = (bytes: Uint8Array, offset: number) => uint16le(bytes, offset) + uint16le(bytes, offset + 2) * 65536;
