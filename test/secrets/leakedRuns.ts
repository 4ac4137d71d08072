/** The shapes a key leaks in, as a model or a server echoes it: cut short, re-cased, encoded. */
export function leakedShapes(key: string): string[] {
  return [key.slice(0, 16), key.toUpperCase(), `Basic ${Buffer.from(`reader:${key}`).toString("base64")}`, `key=${encodeURIComponent(key)}`];
}

/**
 * Every run of 12 characters, compared without case, of `key` and of its base64 (as in a Basic
 * header) and percent-encoded forms that `text` still holds: what redaction must leave none of.
 */
export function keyRunsLeft(text: string, key: string): string[] {
  const lower = text.toLowerCase();
  const base64 = Buffer.from(`reader:${key}`).toString("base64");
  // The base64 characters that carry the key's bytes alone ("reader:" is 7 bytes: from the 10th character).
  const forms = [key, base64.slice(10, -4), encodeURIComponent(key)];
  const left: string[] = [];
  for (const form of forms) {
    for (let at = 0; at + 12 <= form.length; at++) {
      const run = form.slice(at, at + 12).toLowerCase();
      if (lower.includes(run)) left.push(run);
    }
  }
  return left;
}
