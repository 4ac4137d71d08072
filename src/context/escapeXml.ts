/**
 * Escaping for text placed in the prompt: note text and names are the user's data, not structure.
 * A note that contains "</document>" or "[User query]:" must not close a block or pose as the
 * question, whichever tool carries it. Two forms, one rule for the label:
 * - `escapeXmlText` / `escapeXmlAttribute` inside the prompt's XML-like blocks (`&`, `<`, `>` escaped);
 * - `defuseToolText` for plain-text tool results that the model may copy from (kept as written,
 *   except a closing tag's "<" and the label's opening bracket).
 * The label is defused in any spelling a model might still read as it: other spacing or case,
 * no-break or full-width spaces, full-width brackets or colon ("[ User Query ]:", "［user query］："),
 * or with the closing bracket escaped as Markdown converters write it ("\[User query\]:", a web page).
 */
const QUESTION_LABEL = /([[\uff3b\u3010\u3014])(?=[\s_-]*user[\s_-]*query[\s_-]*\\?[\]\uff3d\u3011\u3015]\s*[:\uff1a\ufe55\ufe13]?)/giu;

/** Replaces the opening bracket of every question-label spelling with its character reference. */
export function defuseQuestionLabel(text: string): string {
  return text.replace(QUESTION_LABEL, (bracket) => `&#${bracket.codePointAt(0) ?? 91};`);
}

export function escapeXmlText(text: string): string {
  return defuseQuestionLabel(text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"));
}

/** Escaping for an attribute value in double quotes. */
export function escapeXmlAttribute(text: string): string {
  return escapeXmlText(text).replace(/"/g, "&quot;");
}

/**
 * Plain-text tool output that carries note text or names: every closing tag ("</note>",
 * "</document>") loses its "<" to "&lt;", and every question label is defused. With
 * `onlyClosingTag`, only that tag is touched (readNote's text stays verbatim for edits otherwise).
 */
export function defuseToolText(text: string, onlyClosingTag?: string): string {
  const closing = onlyClosingTag ? new RegExp(`</(?=${onlyClosingTag}\\b)`, "gi") : /<\/(?=[a-z])/gi;
  return defuseQuestionLabel(text.replace(closing, "&lt;/"));
}
