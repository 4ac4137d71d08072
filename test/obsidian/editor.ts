import type * as Obsidian from "obsidian";

type Position = Obsidian.EditorPosition;

/**
 * Obsidian's Editor, on a string with one selection (anchor and head as offsets). A change made
 * through it is announced to `onChange` listeners (double only), which is how a MarkdownView
 * saves it and how a textarea on the demo page follows it.
 */
export class Editor
  implements
    Pick<
      Obsidian.Editor,
      | "getValue"
      | "setValue"
      | "getLine"
      | "lineCount"
      | "lastLine"
      | "getSelection"
      | "somethingSelected"
      | "getRange"
      | "replaceSelection"
      | "replaceRange"
      | "getCursor"
      | "listSelections"
      | "setCursor"
      | "setSelection"
      | "focus"
      | "blur"
      | "hasFocus"
      | "posToOffset"
      | "offsetToPos"
      | "refresh"
    >
{
  private text = "";
  private anchor = 0;
  private head = 0;
  private focused = false;
  private readonly listeners = new Set<(origin: string) => void>();

  getValue(): string {
    return this.text;
  }

  setValue(content: string): void {
    this.setText(content, "setValue");
  }

  getLine(line: number): string {
    return this.text.split("\n")[line] ?? "";
  }

  lineCount(): number {
    return this.text.split("\n").length;
  }

  lastLine(): number {
    return this.lineCount() - 1;
  }

  getSelection(): string {
    const [from, to] = this.ordered();
    return this.text.slice(from, to);
  }

  somethingSelected(): boolean {
    return this.anchor !== this.head;
  }

  getRange(from: Position, to: Position): string {
    return this.text.slice(this.posToOffset(from), this.posToOffset(to));
  }

  replaceSelection(replacement: string, origin = "+input"): void {
    const [from, to] = this.ordered();
    this.text = this.text.slice(0, from) + replacement + this.text.slice(to);
    this.anchor = this.head = from + replacement.length;
    this.announce(origin);
  }

  replaceRange(replacement: string, from: Position, to?: Position, origin = "+input"): void {
    const start = this.posToOffset(from);
    const end = to ? this.posToOffset(to) : start;
    this.text = this.text.slice(0, start) + replacement + this.text.slice(end);
    // The selection moves with the text after the replaced range, as CodeMirror maps it.
    const map = (offset: number) => (offset <= start ? offset : offset >= end ? offset + replacement.length - (end - start) : start + replacement.length);
    this.anchor = map(this.anchor);
    this.head = map(this.head);
    this.announce(origin);
  }

  getCursor(side: "from" | "to" | "head" | "anchor" = "head"): Position {
    const [from, to] = this.ordered();
    const offset = { from, to, head: this.head, anchor: this.anchor }[side];
    return this.offsetToPos(offset);
  }

  listSelections(): Obsidian.EditorSelection[] {
    return [{ anchor: this.offsetToPos(this.anchor), head: this.offsetToPos(this.head) }];
  }

  setCursor(pos: Position | number, ch?: number): void {
    const position = typeof pos === "number" ? { line: pos, ch: ch ?? 0 } : pos;
    this.anchor = this.head = this.posToOffset(position);
    this.announce("select");
  }

  setSelection(anchor: Position, head?: Position): void {
    this.anchor = this.posToOffset(anchor);
    this.head = head ? this.posToOffset(head) : this.anchor;
    this.announce("select");
  }

  focus(): void {
    this.focused = true;
  }

  blur(): void {
    this.focused = false;
  }

  hasFocus(): boolean {
    return this.focused;
  }

  refresh(): void {}

  posToOffset(pos: Position): number {
    const lines = this.text.split("\n");
    const line = Math.min(Math.max(pos.line, 0), lines.length - 1);
    let offset = 0;
    for (let index = 0; index < line; index++) offset += (lines[index]?.length ?? 0) + 1;
    return offset + Math.min(Math.max(pos.ch, 0), lines[line]?.length ?? 0);
  }

  offsetToPos(offset: number): Position {
    const clamped = Math.min(Math.max(offset, 0), this.text.length);
    const before = this.text.slice(0, clamped).split("\n");
    return { line: before.length - 1, ch: before.at(-1)?.length ?? 0 };
  }

  /**
   * Sets text and selection as offsets in one step, as a user's typing does (double only: the
   * demo's textarea hands its state over with it). `origin` "+input" means the user typed.
   */
  setState(text: string, anchor: number, head: number, origin = "+input"): void {
    this.text = text;
    this.anchor = Math.min(Math.max(anchor, 0), text.length);
    this.head = Math.min(Math.max(head, 0), text.length);
    this.announce(origin);
  }

  /** The selection as offsets, `[anchor, head]` (double only). */
  selectionOffsets(): [number, number] {
    return [this.anchor, this.head];
  }

  /** Calls `listener` with the change's origin after each change (double only); returns the unsubscribe. */
  onChange(listener: (origin: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private setText(content: string, origin: string): void {
    this.text = content;
    this.anchor = Math.min(this.anchor, content.length);
    this.head = Math.min(this.head, content.length);
    this.announce(origin);
  }

  private ordered(): [number, number] {
    return this.anchor <= this.head ? [this.anchor, this.head] : [this.head, this.anchor];
  }

  private announce(origin: string): void {
    for (const listener of [...this.listeners]) listener(origin);
  }
}
