/**
 * Base64 in plain loops, for bytes kept or sent as text: the index file and the vectors (through a
 * text-only store) and images sent to a model. The same code runs in Obsidian (desktop and
 * mobile) and in Node, and never builds one giant string of single characters.
 */

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Encodes bytes as base64 (with padding), in slices of 8,192 characters. */
export function encodeBase64(bytes: Uint8Array): string {
  const parts: string[] = [];
  const chunk: number[] = [];
  for (let index = 0; index < bytes.length; index += 3) {
    const a = bytes[index] ?? 0;
    const b = bytes[index + 1] ?? 0;
    const c = bytes[index + 2] ?? 0;
    const left = bytes.length - index;
    chunk.push(
      ALPHABET.charCodeAt(a >> 2),
      ALPHABET.charCodeAt(((a & 3) << 4) | (b >> 4)),
      left > 1 ? ALPHABET.charCodeAt(((b & 15) << 2) | (c >> 6)) : 61,
      left > 2 ? ALPHABET.charCodeAt(c & 63) : 61,
    );
    if (chunk.length >= 8192) {
      parts.push(String.fromCharCode(...chunk));
      chunk.length = 0;
    }
  }
  parts.push(String.fromCharCode(...chunk));
  return parts.join("");
}

/** Decodes base64; throws `RangeError` on a character outside the alphabet or a bad length. */
export function decodeBase64(text: string): Uint8Array {
  if (text.length % 4 !== 0) throw new RangeError("base64 text length is not a multiple of 4");
  const padding = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
  const out = new Uint8Array((text.length / 4) * 3 - padding);
  const table = sextets();
  const whole = padding > 0 ? text.length - 4 : text.length;
  let cursor = 0;
  for (let index = 0; index < whole; index += 4) {
    const a = table[text.charCodeAt(index)] ?? -1;
    const b = table[text.charCodeAt(index + 1)] ?? -1;
    const c = table[text.charCodeAt(index + 2)] ?? -1;
    const d = table[text.charCodeAt(index + 3)] ?? -1;
    if ((a | b | c | d) < 0) throw new RangeError("base64 text holds a character outside its alphabet");
    const triple = (a << 18) | (b << 12) | (c << 6) | d;
    out[cursor++] = triple >> 16;
    out[cursor++] = (triple >> 8) & 255;
    out[cursor++] = triple & 255;
  }
  if (padding > 0) {
    const a = table[text.charCodeAt(whole)] ?? -1;
    const b = table[text.charCodeAt(whole + 1)] ?? -1;
    const c = padding === 2 ? 0 : (table[text.charCodeAt(whole + 2)] ?? -1);
    if ((a | b | c) < 0) throw new RangeError("base64 text holds a character outside its alphabet");
    const triple = (a << 18) | (b << 12) | (c << 6);
    out[cursor++] = triple >> 16;
    if (padding === 1) out[cursor++] = (triple >> 8) & 255;
  }
  return out;
}

/** ASCII code -> 6-bit value, -1 outside the alphabet (other codes read past its end: undefined). */
function sextets(): Int8Array {
  const table = new Int8Array(128).fill(-1);
  for (let value = 0; value < ALPHABET.length; value++) table[ALPHABET.charCodeAt(value)] = value;
  return table;
}
