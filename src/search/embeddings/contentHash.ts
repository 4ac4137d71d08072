/**
 * A stable 64-bit content hash as 16 hex digits: two FNV-1a passes over the UTF-16 code units
 * with different offset bases. Enough to tell "this section changed" apart; not for security.
 */
export function contentHash(text: string): string {
  let low = 0x811c9dc5;
  let high = 0x050c5d1f;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    low = Math.imul(low ^ unit, 0x01000193);
    high = Math.imul(high ^ unit ^ (index & 0xff), 0x01000193);
  }
  return (low >>> 0).toString(16).padStart(8, "0") + (high >>> 0).toString(16).padStart(8, "0");
}
