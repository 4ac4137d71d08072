/**
 * Block quotes and list items, as far as fenced code needs them (CommonMark 0.31.2, sections 5.1
 * and 5.2). A fence may open after a line's container marks ("> ```", "- ```", "1. > ```"); the
 * code then holds only the lines that go on in those containers: a quoted line keeps its ">", a
 * list item's line is indented at least as far as the item's text (a blank line stays in the
 * item). A line that leaves a container ends it, and the code with it: code takes no lazy lines.
 *
 * Only what a line says by itself is read. A fence on a later line of a list item ("- Step" then
 * "  ```") is seen as a fence of its own, indented as far as the item's text: that reads the same
 * while the item's text starts within three columns, as nearly every list's does.
 */

/** A block quote, or a list item whose text starts `width` columns after its own start. */
export type Container = { readonly kind: "quote" } | { readonly kind: "item"; readonly width: number };

const TAB_STOP = 4;
/** Where a container mark may start: at most three columns in (a fourth makes indented code). */
const MAX_MARK_INDENT = 3;
/** A bullet ("-", "+", "*") or an ordered item's number ("1.", "12)"). */
const LIST_MARKER = /^(?:[-+*]|[0-9]{1,9}[.)])/;

/** The containers `line` opens at its start, and its text inside them. */
export function openContainers(line: string): { containers: Container[]; content: string; contentStart: number } {
  const cursor = new LineCursor(line);
  const containers: Container[] = [];
  for (;;) {
    const indent = cursor.indentColumns();
    if (indent > MAX_MARK_INDENT) break;
    const markStart = cursor.offsetAfterIndent();
    if (line[markStart] === ">") {
      cursor.takeColumns(indent);
      cursor.takeCharacters(1);
      cursor.takeColumns(Math.min(1, cursor.indentColumns()));
      containers.push({ kind: "quote" });
      continue;
    }
    const marker = LIST_MARKER.exec(line.slice(markStart))?.[0];
    if (marker === undefined) break;
    const probe = cursor.copy();
    probe.takeColumns(indent);
    probe.takeCharacters(marker.length);
    const spaces = probe.indentColumns();
    // A marker needs a space after it; an item that starts blank holds no fence on this line.
    if (spaces === 0 || endsAt(line, probe.offsetAfterIndent())) break;
    // Five or more spaces after the marker: the text starts after one, the rest is its indentation.
    const gap = spaces > MAX_MARK_INDENT + 1 ? 1 : spaces;
    probe.takeColumns(gap);
    cursor.moveTo(probe);
    containers.push({ kind: "item", width: indent + marker.length + gap });
  }
  return { containers, content: cursor.rest(), contentStart: cursor.offset };
}

/** `line`'s text inside `containers`, or null when it leaves one of them. */
export function continueContainers(line: string, containers: readonly Container[]): string | null {
  const cursor = new LineCursor(line);
  for (const container of containers) {
    const indent = cursor.indentColumns();
    if (container.kind === "quote") {
      if (indent > MAX_MARK_INDENT || line[cursor.offsetAfterIndent()] !== ">") return null;
      cursor.takeColumns(indent);
      cursor.takeCharacters(1);
      cursor.takeColumns(Math.min(1, cursor.indentColumns()));
    } else if (endsAt(line, cursor.offsetAfterIndent())) {
      cursor.takeColumns(indent);
    } else {
      if (indent < container.width) return null;
      cursor.takeColumns(container.width);
    }
  }
  return cursor.rest();
}

/** Whether nothing but a Windows line ending's "\r" is left of `line` at `offset`. */
function endsAt(line: string, offset: number): boolean {
  return offset >= line.length || (offset === line.length - 1 && line[offset] === "\r");
}

/** A place in a line, counted in characters and in columns (a tab advances to the next multiple of 4). */
class LineCursor {
  offset = 0;
  column = 0;
  /** Columns of the tab at `offset` already taken (a mark's space may be part of a tab). */
  private takenOfTab = 0;

  constructor(private readonly line: string) {}

  copy(): LineCursor {
    const copy = new LineCursor(this.line);
    copy.moveTo(this);
    return copy;
  }

  moveTo(other: LineCursor): void {
    this.offset = other.offset;
    this.column = other.column;
    this.takenOfTab = other.takenOfTab;
  }

  /** Columns of spaces and tabs from here on. */
  indentColumns(): number {
    let columns = 0;
    let column = this.column;
    for (let index = this.offset; index < this.line.length; index++) {
      const character = this.line[index];
      if (character === " ") {
        columns++;
        column++;
      } else if (character === "\t") {
        const width = index === this.offset ? this.tabWidth() : TAB_STOP - (column % TAB_STOP);
        columns += width;
        column += width;
      } else break;
    }
    return columns;
  }

  /** Where the text after the spaces and tabs from here starts. */
  offsetAfterIndent(): number {
    let index = this.offset;
    while (this.line[index] === " " || this.line[index] === "\t") index++;
    return index;
  }

  /** Takes `count` columns of spaces and tabs (there must be as many). */
  takeColumns(count: number): void {
    let left = count;
    while (left > 0) {
      if (this.line[this.offset] === " ") {
        this.offset++;
        this.column++;
        left--;
        continue;
      }
      const width = this.tabWidth();
      const taken = Math.min(left, width);
      this.column += taken;
      left -= taken;
      if (taken === width) {
        this.offset++;
        this.takenOfTab = 0;
      } else this.takenOfTab += taken;
    }
  }

  /** Takes `count` characters that are not spaces or tabs. */
  takeCharacters(count: number): void {
    this.offset += count;
    this.column += count;
    this.takenOfTab = 0;
  }

  /** The rest of the line; a tab partly taken stands as the spaces left of it. */
  rest(): string {
    return this.takenOfTab > 0 ? " ".repeat(this.tabWidth()) + this.line.slice(this.offset + 1) : this.line.slice(this.offset);
  }

  /** Columns left of the tab at `offset`. */
  private tabWidth(): number {
    return TAB_STOP - ((this.column - this.takenOfTab) % TAB_STOP) - this.takenOfTab;
  }
}
