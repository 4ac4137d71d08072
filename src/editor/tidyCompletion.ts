/**
 * A model's continuation made fit to stand after the cursor:
 * - only up to the end of its first paragraph (a server may ignore the stop sequence);
 * - without a code fence wrapped round it, or quotes round all of it;
 * - without the end of the text before the cursor, when the model repeated it;
 * - without a space doubled at the join (the text before already ends with one), and with no
 *   space added where the script does not use them (Chinese or Japanese go on without one);
 * - without the start of the text after the cursor, when the model wrote that too.
 * Trailing whitespace goes: a suggestion that ends in spaces would move the next word.
 */
export function tidyCompletion(raw: string, before: string, after: string): string {
  let text = raw.replace(/\r\n?/g, "\n");
  const fenced = /^\s*(`{3,}|~{3,})[^\n]*\n([\s\S]*?)(\n\1\s*)?$/.exec(text);
  if (fenced) text = fenced[2] ?? "";
  const leading = /^\n*/.exec(text)?.[0].length ?? 0;
  const paragraphEnd = text.indexOf("\n\n", leading);
  if (paragraphEnd !== -1) text = text.slice(0, paragraphEnd);
  if (/^\s*"[^"]*"\s*$/.test(text) && !before.trimEnd().endsWith('"')) text = text.trim().slice(1, -1);
  text = withoutRepeatedStart(text, before);
  if (/\s$/.test(before) || before === "") text = text.replace(/^[ \t]+/, "");
  text = text.replace(/\s+$/, "");
  text = withoutRepeatedEnd(text, after);
  return text;
}

/** The longest end of `before` (at least 8 characters) that `text` starts with, taken off. */
function withoutRepeatedStart(text: string, before: string): string {
  const trimmedBefore = before.trimEnd();
  for (let length = Math.min(trimmedBefore.length, text.length); length >= 8; length--) {
    const tail = trimmedBefore.slice(-length);
    if (text.trimStart().startsWith(tail)) return text.trimStart().slice(length);
  }
  return text;
}

/** `text` without an end that is the start of `after` (at least 4 characters), which is already in the note. */
function withoutRepeatedEnd(text: string, after: string): string {
  const head = after.trimStart();
  for (let length = Math.min(head.length, text.length); length >= 4; length--) {
    if (text.endsWith(head.slice(0, length))) return text.slice(0, text.length - length).replace(/\s+$/, "");
  }
  return text;
}
