/** The start of `text`, at most `maxChars` long, ended at a space where one is near the end; never half a surrogate pair. */
export function cutAtWord(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const end = /[\uD800-\uDBFF]/.test(text.charAt(maxChars - 1)) ? maxChars - 1 : maxChars;
  const cut = text.slice(0, end);
  const space = cut.lastIndexOf(" ");
  return space > maxChars * 0.6 ? cut.slice(0, space) : cut;
}
