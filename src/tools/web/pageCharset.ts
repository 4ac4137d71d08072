/**
 * A page's bytes as text, in the charset the page is written in: the one the Content-Type header
 * names, else a byte-order mark, else the `<meta>` tag of the page's first bytes (as browsers
 * look for it), else UTF-8. Older sites in Cyrillic, Greek, Japanese and Chinese are often in a
 * legacy charset (windows-1251, Shift_JIS, GBK) named only in the page.
 */
export function decodePage(bytes: Uint8Array, contentTypeHeader: string): { text: string; contentType: string } {
  const [mediaType = "", ...parameters] = contentTypeHeader.split(";");
  const contentType = mediaType.trim().toLowerCase();
  const named = parameters.map((parameter) => /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(parameter)?.[1]).find(Boolean);
  const charset = named ?? byteOrderMark(bytes) ?? (contentType === "" || contentType.includes("html") ? metaCharset(bytes) : undefined) ?? "utf-8";
  return { text: decoderFor(charset).decode(bytes), contentType };
}

function byteOrderMark(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  return undefined;
}

/** How far into a page browsers look for its `<meta charset>`. */
const META_SCAN_BYTES = 1024;

function metaCharset(bytes: Uint8Array): string | undefined {
  // Read as Latin-1: every byte is one character, and the tag itself is ASCII in every charset that matters here.
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, META_SCAN_BYTES));
  return /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1];
}

/** A decoder for the charset, or UTF-8 for a name no decoder knows. Invalid bytes become U+FFFD, never an error. */
function decoderFor(charset: string): TextDecoder {
  try {
    return new TextDecoder(charset);
  } catch {
    return new TextDecoder("utf-8");
  }
}
