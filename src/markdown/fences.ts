import { continueContainers, openContainers, type Container } from "./containers";

/**
 * Fenced code blocks as CommonMark 0.31.2 (section 4.5) defines them, for every reader of Markdown
 * in the project: the note index and note metadata, note sections, the stream splitter, the
 * untrusted-output pass and the chat-note reader. Lines are given one at a time; a line may keep
 * the "\r" of a Windows line ending. `openingFence` and `closesFence` read a line as it stands;
 * `followFence` and `fencedBlocks` also read the block quotes and list items a fence sits in
 * (containers.ts). The chat note's callouts take their `> ` off before their lines get here.
 *
 * - An opening fence is 3 or more backticks or tildes (not mixed) after at most 3 columns of
 *   indentation; after it, the info string. A backtick fence's info string holds no backtick
 *   (that line is inline code instead).
 * - A closing fence is the same character, at least as long as the opening one, after at most 3
 *   columns of indentation, followed by nothing but spaces and tabs.
 * - Without a closing fence the block runs to the end of the document.
 */

/** A fence that opened and has not closed yet. */
export interface OpenFence {
  /** "`" or "~". */
  readonly character: string;
  /** How many of them (at least 3). */
  readonly length: number;
  /** Columns of indentation before the fence (0 to 3); as many are taken off each code line. */
  readonly indent: number;
  /** The info string, trimmed (its first word is usually the language); "" when there is none. */
  readonly info: string;
  /** The block quotes and list items the fence opened in, outermost first: its code stays inside them. */
  readonly containers: readonly Container[];
}

/** What a line is, seen by `followFence`. */
export type FenceLineRole = "text" | "open" | "code" | "close";

const TAB_STOP = 4;
/** Where a fence may start: at most three columns in (a fourth makes an indented code block). */
const MAX_FENCE_INDENT = 3;

/** The fence `line` opens by itself (no container marks before it), or null. */
export function openingFence(line: string): OpenFence | null {
  const { columns, offset } = indentation(line);
  if (columns > MAX_FENCE_INDENT) return null;
  const character = line[offset];
  if (character !== "`" && character !== "~") return null;
  const length = runLength(line, offset, character);
  if (length < 3) return null;
  const rest = line.slice(offset + length);
  if (character === "`" && rest.includes("`")) return null;
  return { character, length, indent: columns, info: rest.trim(), containers: [] };
}

/** Whether `line`, freed of the fence's container marks, closes `fence`. */
export function closesFence(line: string, fence: OpenFence): boolean {
  const { columns, offset } = indentation(line);
  if (columns > MAX_FENCE_INDENT || line[offset] !== fence.character) return false;
  const length = runLength(line, offset, fence.character);
  return length >= fence.length && /^[ \t]*\r?$/.test(line.slice(offset + length));
}

/** What `followFence` makes of a line. */
export interface FollowedLine {
  /** The fence open after the line. */
  open: OpenFence | null;
  role: FenceLineRole;
  /** The line inside its containers: for "code", what `codeLineText` takes; the line itself for "text". */
  content: string;
  /** Where `content` starts in the line: after the container marks of an "open" line, else 0. */
  contentStart: number;
}

/**
 * Follows fenced code line by line: the fence open after `line`, and what `line` was. A line that
 * leaves the containers of the open fence ends its code, and is read again as a line of its own.
 */
export function followFence(line: string, open: OpenFence | null): FollowedLine {
  if (open !== null) {
    const inside = open.containers.length === 0 ? line : continueContainers(line, open.containers);
    if (inside !== null && closesFence(inside, open)) return { open: null, role: "close", content: inside, contentStart: 0 };
    if (inside !== null) return { open, role: "code", content: inside, contentStart: 0 };
  }
  if (!mayHoldFence(line)) return { open: null, role: "text", content: line, contentStart: 0 };
  const { containers, content, contentStart } = openContainers(line);
  const opened = openingFence(content);
  if (opened === null) return { open: null, role: "text", content: line, contentStart: 0 };
  return { open: { ...opened, containers }, role: "open", content, contentStart };
}

/**
 * Whether `followFence` may say anything of `line` but "code" inside `open` or "text" outside: a
 * quick test for loops over every line of a vault. Only a line with three backticks or tildes in
 * a row opens or closes a fence; inside containers any line may end it.
 */
export function fenceMayChange(line: string, open: OpenFence | null): boolean {
  return (open !== null && open.containers.length > 0) || mayHoldFence(line);
}

/** A code line as the block holds it: up to the fence's indentation taken off its start. */
export function codeLineText(line: string, fence: OpenFence): string {
  let taken = 0;
  let index = 0;
  while (index < line.length && taken < fence.indent && line[index] === " ") {
    taken++;
    index++;
  }
  return line.slice(index);
}

/** The fenced code blocks among `lines`: each one's info string and its code lines. */
export function fencedBlocks(lines: readonly string[]): { info: string; lines: string[] }[] {
  const blocks: { info: string; lines: string[] }[] = [];
  let open: OpenFence | null = null;
  let code: string[] = [];
  for (const line of lines) {
    const followed = followFence(line, open);
    // The open fence ends at a closing line, or before a line that leaves its containers.
    if (open !== null && followed.role !== "code") blocks.push({ info: open.info, lines: code });
    if (followed.role === "open") code = [];
    else if (followed.role === "code" && open !== null) code.push(codeLineText(followed.content, open));
    open = followed.open;
  }
  if (open) blocks.push({ info: open.info, lines: code });
  return blocks;
}

/** A backtick fence that no line of `text` can close: longer than any run of backticks in it, and at least 3. */
export function fenceFor(text: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return "`".repeat(Math.max(3, longest + 1));
}

function mayHoldFence(line: string): boolean {
  return line.includes("```") || line.includes("~~~");
}

/** Columns of leading indentation (a tab advances to the next multiple of 4) and where the text starts. */
function indentation(line: string): { columns: number; offset: number } {
  let columns = 0;
  let offset = 0;
  while (offset < line.length) {
    const character = line[offset];
    if (character === " ") columns++;
    else if (character === "\t") columns += TAB_STOP - (columns % TAB_STOP);
    else break;
    offset++;
    if (columns > MAX_FENCE_INDENT) break;
  }
  return { columns, offset };
}

function runLength(line: string, start: number, character: string): number {
  let end = start;
  while (line[end] === character) end++;
  return end - start;
}
