/**
 * Escaping for text placed inside the prompt's XML-like blocks. Note text is the user's data, not
 * structure: a note that contains "</document>" or "[User query]:" must not close a block or pose
 * as the question. `&`, `<` and `>` are escaped; the CiC question label is defused by escaping its
 * opening bracket.
 */
export function escapeXmlText(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\[(User query\]:)/gi, "&#91;$1");
}

/** Escaping for an attribute value in double quotes. */
export function escapeXmlAttribute(text: string): string {
  return escapeXmlText(text).replace(/"/g, "&quot;");
}
