/**
 * An event's data around the one string that is its text: `before` ends just ahead of the
 * string's opening quote, `after` starts just past its closing one. Any data made of `before`, a
 * JSON string and `after` is the same chunk with other text, so the text of the many events of a
 * stream that differ only there is read without parsing each of them.
 */
export interface ContentTemplate {
  before: string;
  after: string;
}

/**
 * The template of a chunk's data whose only `"content"` key holds `content`; undefined when the
 * key is there more than once, or its string is not that text.
 */
export function contentTemplate(data: string, content: string): ContentTemplate | undefined {
  const keys = [...data.matchAll(/"content"\s*:\s*"/g)];
  if (keys.length !== 1) return undefined;
  const key = keys[0]!;
  const open = key.index + key[0].length - 1;
  let close = open + 1;
  while (close < data.length && data.charCodeAt(close) !== QUOTE) close += data.charCodeAt(close) === BACKSLASH ? 2 : 1;
  if (close >= data.length || stringAt(data.slice(open, close + 1)) !== content) return undefined;
  return { before: data.slice(0, open), after: data.slice(close + 1) };
}

/** The text of data that fits the template, or undefined when it does not. */
export function textInTemplate(data: string, template: ContentTemplate): string | undefined {
  if (data.length < template.before.length + template.after.length + 2 || !data.startsWith(template.before) || !data.endsWith(template.after)) return undefined;
  return stringAt(data.slice(template.before.length, data.length - template.after.length));
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** A JSON string without escapes: its text is what is between the quotes. */
// eslint-disable-next-line no-control-regex -- control characters are what a JSON string may not hold unescaped
const PLAIN_STRING = /^"[^"\\\u0000-\u001f]*"$/;

/** The string when `literal` is exactly one JSON string, else undefined. */
function stringAt(literal: string): string | undefined {
  if (PLAIN_STRING.test(literal)) return literal.slice(1, -1);
  try {
    const value: unknown = JSON.parse(literal);
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}
