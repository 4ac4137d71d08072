import { followFence, type OpenFence } from "../markdown/fences";

/** Where the cursor is, besides the note's text: what decides whether completion may run there. */
export interface CursorSituation {
  /** The note's whole text. */
  text: string;
  /** The cursor, as a UTF-16 offset into `text` (CodeMirror's positions). */
  cursor: number;
  /** True while text is selected: completion never runs over a selection. */
  selection: boolean;
  /** True on a phone or tablet. */
  mobile: boolean;
  /** The user's switch for completion on mobile. */
  allowedOnMobile: boolean;
}

/** Why completion does not run at a place, as a kind (for tests and counts) and a sentence (for the CLI's stderr). */
export interface NoCompletion {
  kind: "selection" | "mobile" | "mid-word" | "empty" | "frontmatter" | "code" | "inline-code" | "math" | "link" | "url" | "table";
  reason: string;
}

const reasons: Record<NoCompletion["kind"], string> = {
  selection: "text is selected",
  mobile: "completion is switched off on mobile",
  "mid-word": "the cursor is inside a word",
  empty: "nothing is written before the cursor yet",
  frontmatter: "the cursor is in the note's frontmatter",
  code: "the cursor is in a fenced code block",
  "inline-code": "the cursor is in inline code",
  math: "the cursor is in math",
  link: "the cursor is inside a [[link]]",
  url: "the cursor is in a URL",
  table: "the cursor is in a table row",
};

function no(kind: NoCompletion["kind"]): NoCompletion {
  return { kind, reason: reasons[kind] };
}

/**
 * Whether inline completion may run at the cursor, and if not why. It runs only at the end of a
 * line or before whitespace, with nothing selected, and never inside frontmatter, fenced or
 * inline code, math, a `[[link]]`, a URL or a table row: a suggestion there would be prose where
 * syntax belongs (a link target that does not exist, a line that breaks a table), and peers that
 * completed inside links learnt it the hard way. Mobile runs it only when the user switched it on.
 */
export function whyNoCompletion(situation: CursorSituation): NoCompletion | null {
  const { text, cursor } = situation;
  if (situation.selection) return no("selection");
  if (situation.mobile && !situation.allowedOnMobile) return no("mobile");
  if (text.slice(0, cursor).trim() === "") return no("empty");

  const lineStart = text.lastIndexOf("\n", cursor - 1) + 1;
  const lineEndAt = text.indexOf("\n", cursor);
  const lineEnd = lineEndAt === -1 ? text.length : lineEndAt;
  const line = stripCarriageReturn(text.slice(lineStart, lineEnd));
  const lineBefore = text.slice(lineStart, cursor);

  if (inFrontmatter(text, lineStart)) return no("frontmatter");
  const block = blockAt(text, lineStart, line);
  if (block === "code") return no("code");
  if (block === "math") return no("math");
  if (inInlineCode(lineBefore)) return no("inline-code");
  if (inInlineMath(lineBefore)) return no("math");
  if (inWikiLink(lineBefore)) return no("link");
  if (inUrl(lineBefore)) return no("url");
  if (isTableRow(text, lineStart, lineEnd, line)) return no("table");
  const next = text.charAt(cursor);
  if (next !== "" && !/\s/.test(next)) return no("mid-word");
  return null;
}

function stripCarriageReturn(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}

/** A note that opens with `---` is in its frontmatter until a line of `---` or `...` closes it (still open while it is being typed). */
function inFrontmatter(text: string, lineStart: number): boolean {
  const start = text.startsWith("\uFEFF") ? 1 : 0;
  if (!/^---[ \t]*\r?(\n|$)/.test(text.slice(start))) return false;
  const firstLineEnd = text.indexOf("\n", start);
  if (firstLineEnd === -1 || lineStart <= start) return true;
  let at = firstLineEnd + 1;
  while (at < lineStart) {
    const end = text.indexOf("\n", at);
    const line = stripCarriageReturn(text.slice(at, end === -1 ? text.length : end));
    if (/^(---|\.\.\.)[ \t]*$/.test(line)) return false;
    if (end === -1) break;
    at = end + 1;
  }
  return true;
}

/**
 * What the cursor's line belongs to: fenced code (read as CommonMark reads fences, with their
 * block quotes and list items), a `$$` math block, or text. The fence's own opening line (its info
 * string) and closing line count as code.
 */
function blockAt(text: string, lineStart: number, cursorLine: string): "code" | "math" | "text" {
  let fence: OpenFence | null = null;
  let math = false;
  let at = 0;
  while (at < lineStart) {
    const end = text.indexOf("\n", at);
    const line = stripCarriageReturn(text.slice(at, end));
    const followed = followFence(line, fence);
    if (followed.role === "text" && !fence) math = followMath(line, math);
    fence = followed.open;
    at = end + 1;
  }
  const followed = followFence(cursorLine, fence);
  if (followed.role !== "text") return "code";
  if (math || followMath(cursorLine, false) !== false) return "math";
  return "text";
}

/** Whether a `$$` block is open after `line`: each `$$` on a line outside inline code toggles it. */
function followMath(line: string, open: boolean): boolean {
  const marks = line.replace(/`[^`]*`/g, "").split("$$").length - 1;
  return marks % 2 === 1 ? !open : open;
}

/** Inline code open at the end of `lineBefore`: a run of backticks not yet closed by a run of the same length. */
function inInlineCode(lineBefore: string): boolean {
  let open = 0;
  for (const run of lineBefore.matchAll(/`+/g)) {
    const length = run[0].length;
    if (open === 0) open = length;
    else if (open === length) open = 0;
  }
  return open > 0;
}

/**
 * Inline math open at the end of `lineBefore`: a `$` (not escaped, not part of `$$`) opened and not
 * closed. A `$` before a digit or a space is a price or plain text ("$5", "a $ sign"), as Obsidian
 * reads it, not the start of math.
 */
function inInlineMath(lineBefore: string): boolean {
  const withoutCode = lineBefore.replace(/`[^`]*`/g, "");
  let open = false;
  for (let index = 0; index < withoutCode.length; index++) {
    if (withoutCode[index] === "\\") {
      index++;
      continue;
    }
    if (withoutCode[index] !== "$") continue;
    if (withoutCode[index + 1] === "$") {
      index++;
      continue;
    }
    const after = withoutCode.charAt(index + 1);
    if (!open && (after === "" || /[\s\d]/.test(after))) continue;
    open = !open;
  }
  return open;
}

/** A `[[` (or `![[`) with no `]]` after it on the line before the cursor. */
function inWikiLink(lineBefore: string): boolean {
  const opened = lineBefore.lastIndexOf("[[");
  return opened !== -1 && lineBefore.indexOf("]]", opened) === -1;
}

/** The word before the cursor is (part of) a URL, an autolink, or a Markdown link's target being typed. */
function inUrl(lineBefore: string): boolean {
  const word = /\S*$/.exec(lineBefore)?.[0] ?? "";
  if (/[a-z][a-z0-9+.-]*:\/\/|^<?www\./i.test(word)) return true;
  const target = lineBefore.lastIndexOf("](");
  return target !== -1 && lineBefore.indexOf(")", target) === -1;
}

/** A table row: a line that starts with `|`, a delimiter row, or a line with `|` next to a delimiter row. */
function isTableRow(text: string, lineStart: number, lineEnd: number, line: string): boolean {
  if (/^\s*\|/.test(line) || isDelimiterRow(line)) return true;
  if (!line.includes("|")) return false;
  const previousStart = text.lastIndexOf("\n", lineStart - 2) + 1;
  const previous = lineStart > 0 ? stripCarriageReturn(text.slice(previousStart, lineStart - 1)) : "";
  const nextEnd = text.indexOf("\n", lineEnd + 1);
  const next = lineEnd < text.length ? stripCarriageReturn(text.slice(lineEnd + 1, nextEnd === -1 ? text.length : nextEnd)) : "";
  return isDelimiterRow(previous) || isDelimiterRow(next);
}

function isDelimiterRow(line: string): boolean {
  return /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)+\|?\s*$/.test(line) || /^\s*\|\s*:?-+:?\s*\|\s*$/.test(line);
}
