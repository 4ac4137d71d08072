import { VaultNotTextError } from "./VaultPort";

// ignoreBOM keeps a byte-order mark in the text, so writing the text back keeps it in the file.
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * A note's bytes as text for an edit, or `VaultNotTextError` when they are not valid UTF-8: the
 * lenient decoding reads use turns every invalid byte into U+FFFD, and writing that text back
 * would change bytes outside the approved change.
 */
export function decodeForEdit(bytes: Uint8Array | ArrayBuffer, path: string): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw new VaultNotTextError(path);
  }
}
