import { followFence, type OpenFence } from "../../markdown/fences";

/** A `$$` math block: not Markdown's, but its lines are as much one block as a fence's. */
const MATH_BLOCK = "math";

/**
 * Splits a streamed answer into Markdown blocks, so that a block that is complete is rendered once
 * and only the growing last block is rendered again as text arrives. Each call reads only the
 * lines that arrived since the last one, so a whole answer costs time linear in its length.
 *
 * A block ends at a blank line outside a fence (fenced code as `markdown/fences.ts` reads it, in
 * block quotes and list items too, or `$$` math) when the next line starts at column 0: an
 * indented line after a blank one continues a list item, so it stays in the block.
 * Rendered one by one, such blocks read as the whole text rendered at once (a loose list may be
 * drawn as two lists; reference-style link definitions only apply within their block).
 */
export class MarkdownBlockSplitter {
  private readonly complete: string[] = [];
  /** Where the next unread line starts. */
  private scanned = 0;
  /** Where the block being built starts. */
  private blockStart = 0;
  /** Where a block would end if the next line starts at column 0 (after a blank line). */
  private pendingEnd = -1;
  /** The fenced code or math block the next line is inside, if any. */
  private fence: OpenFence | typeof MATH_BLOCK | null = null;
  private blockHasContent = false;
  private text = "";

  /** The blocks of `text`, the last one still growing; `text` must extend the previous text. */
  update(text: string): { complete: readonly string[]; tail: string } {
    // Text only grows while it streams; anything else (a shorter or different text) starts over.
    const last = this.text.length - 1;
    if (text.length < this.text.length || (last >= 0 && text.charCodeAt(last) !== this.text.charCodeAt(last))) this.reset();
    this.text = text;
    let newline = text.indexOf("\n", this.scanned);
    while (newline !== -1) {
      this.readLine(text.slice(this.scanned, newline), newline + 1);
      this.scanned = newline + 1;
      newline = text.indexOf("\n", this.scanned);
    }
    // A line that has begun at column 0 after a blank line already ends the block before it.
    if (this.pendingEnd !== -1 && this.scanned < text.length && !/^\s/.test(text[this.scanned]!)) this.endBlock();
    return { complete: this.complete, tail: text.slice(this.blockStart) };
  }

  /** Every block of the finished text, the last one included (empty blocks left out). */
  finish(text: string): readonly string[] {
    const { complete, tail } = this.update(text);
    return tail.trim() === "" ? complete : [...complete, tail];
  }

  private readLine(line: string, lineEnd: number): void {
    const blank = line.trim() === "";
    if (this.pendingEnd !== -1 && !blank) {
      if (!/^\s/.test(line)) this.endBlock();
      this.pendingEnd = -1;
    }
    if (this.fence === MATH_BLOCK) {
      if (line.trim().endsWith("$$")) this.fence = null;
      return;
    }
    const followed = followFence(line, this.fence);
    this.fence = followed.open;
    if (followed.role === "code" || followed.role === "close") return;
    if (followed.role === "open" || /^ {0,3}\$\$/.test(line)) {
      this.fence ??= MATH_BLOCK;
      this.blockHasContent = true;
      return;
    }
    if (blank) {
      if (this.blockHasContent) this.pendingEnd = lineEnd;
      // Blank lines before a block's first line are not part of it.
      else if (this.blockStart === this.scanned) this.blockStart = lineEnd;
      return;
    }
    this.blockHasContent = true;
  }

  private endBlock(): void {
    this.complete.push(this.text.slice(this.blockStart, this.pendingEnd));
    this.blockStart = this.pendingEnd;
    this.blockHasContent = false;
    this.pendingEnd = -1;
  }

  private reset(): void {
    this.complete.length = 0;
    this.scanned = 0;
    this.blockStart = 0;
    this.pendingEnd = -1;
    this.fence = null;
    this.blockHasContent = false;
  }
}
