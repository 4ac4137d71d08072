/**
 * The fence scanner against the CommonMark spec's own examples (the `commonmark-spec` package,
 * 0.31.2): every example whose Markdown has a fence, the expected code blocks read from the
 * spec's HTML, fences in block quotes and list items included. The one example an HTML block
 * decides is listed and left out: nothing here reads HTML blocks.
 */
import { closesFence, codeLineText, fencedBlocks, fenceFor, followFence, openingFence, type OpenFence } from "./fences";
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the package is CommonJS and ships no types
const spec = require("commonmark-spec") as { tests: { markdown: string; html: string; section: string; number: number }[] };

/** Examples left out, with why. */
const LEFT_OUT: Record<number, string> = {
  161: "a fence inside an HTML block is HTML",
};
/** Indented code blocks (four columns in) some examples' HTML also holds: not fences, so not expected of the scanner. */
const INDENTED_CODE: Record<number, string[]> = {
  134: ["```\naaa\n```\n"],
  278: ["baz\n"],
};
/** Examples whose info string the renderer unescapes (backslash escapes, entities): the code is compared, not the language. */
const ESCAPED_INFO = new Set([24, 34]);

const examples = spec.tests.filter((example) => example.section === "Fenced code blocks" || /(^|\n) {0,3}(```|~~~)/.test(example.markdown));

function unescapeHtml(text: string): string {
  return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&amp;/g, "&");
}

/** The code blocks of the spec's HTML: language (or "") and text. */
function expectedBlocks(html: string): { language: string; text: string }[] {
  return [...html.matchAll(/<pre><code(?: class="language-([^"]*)")?>([\s\S]*?)<\/code><\/pre>/g)].map((match) => ({ language: match[1] ?? "", text: unescapeHtml(match[2] ?? "") }));
}

function linesOf(markdown: string): string[] {
  const lines = markdown.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

describe("the fence scanner on the CommonMark spec's examples", () => {
  it("covers every example of the fenced code section and the others with fences", () => {
    expect(examples.filter((example) => example.section === "Fenced code blocks")).toHaveLength(29);
    expect(examples.length).toBeGreaterThanOrEqual(38);
  });

  const scanned = examples.filter((example) => !(example.number in LEFT_OUT));
  it.each(scanned.map((example) => [example.number, example] as const))("example %i: finds the code blocks the spec renders", (number, example) => {
    const expected = expectedBlocks(example.html).filter((block) => !(INDENTED_CODE[number] ?? []).includes(block.text));
    const found = fencedBlocks(linesOf(example.markdown)).map((block) => ({
      language: ESCAPED_INFO.has(number) ? expected[0]?.language ?? "" : (block.info.split(/[ \t]/)[0] ?? ""),
      text: block.lines.map((line) => `${line}\n`).join(""),
    }));
    expect(found).toEqual(expected);
  });
});

/** What `followFence` makes of each line in turn. */
function roles(lines: readonly string[]): string[] {
  const found: string[] = [];
  let open: OpenFence | null = null;
  for (const line of lines) {
    const followed = followFence(line, open);
    found.push(followed.role);
    open = followed.open;
  }
  return found;
}

describe("the fence scanner", () => {
  it("keeps a four-backtick block open across an inner three-backtick line: headings inside are code", () => {
    expect(roles(["# Before", "````markdown", "```", "# Not a heading", "```", "````", "# After"])).toEqual(["text", "open", "code", "code", "code", "close", "text"]);
  });

  it("refuses a closer with an info string, of the other character, shorter, or indented four columns", () => {
    const fence = openingFence("````js")!;
    expect(fence).toEqual({ character: "`", length: 4, indent: 0, info: "js", containers: [] });
    expect(["```` js", "~~~~", "```", "    ````", "\t````"].map((line) => closesFence(line, fence))).toEqual([false, false, false, false, false]);
    expect(["````", "`````", "   ````  \t"].map((line) => closesFence(line, fence))).toEqual([true, true, true]);
  });

  it("opens on tildes whatever the info string holds, on backticks only without a backtick after", () => {
    expect(openingFence("~~~ a`b")?.info).toBe("a`b");
    expect(openingFence("``` a`b")).toBeNull();
    expect(openingFence("\t```")).toBeNull();
    expect(openingFence("``")).toBeNull();
  });

  it("makes a fence no line of the text can close", () => {
    const text = "a ``` b\n`````\n";
    const fence = fenceFor(text);
    expect(fence).toBe("``````");
    const open = openingFence(fence)!;
    expect(text.split("\n").some((line) => closesFence(line, open))).toBe(false);
    expect(fenceFor("plain")).toBe("```");
  });
});

describe("fences in block quotes and list items", () => {
  it("keeps a list item's fence open across a blank line and closes it at the item's indentation", () => {
    const lines = ["- ```dataviewjs", "  dv.paragraph(1)", "", "  ```", "# После"];
    expect(roles(lines)).toEqual(["open", "code", "code", "close", "text"]);
    expect(fencedBlocks(lines)).toEqual([{ info: "dataviewjs", lines: ["dv.paragraph(1)", ""] }]);
  });

  it("ends a quoted fence at the first line without its '>', which is then read on its own", () => {
    expect(roles(["> ```js", "> const 東京 = 1;", "```", "text"])).toEqual(["open", "code", "open", "code"]);
    expect(roles(["> ```", "> ```", "# عنوان"])).toEqual(["open", "close", "text"]);
  });

  it("says where the container marks end on an opening line, and keeps a tab's columns", () => {
    const followed = followFence("1. > ```python title", null);
    expect(followed).toMatchObject({ role: "open", contentStart: 5, content: "```python title" });
    expect(followed.open).toMatchObject({ info: "python title", containers: [{ kind: "item", width: 3 }, { kind: "quote" }] });
    // The tab after ">" is three columns: one is the mark's space, two stay as the fence's indentation.
    const tabbed = followFence(">\t```", null).open!;
    expect(tabbed.indent).toBe(2);
    const code = followFence(">\t  x", tabbed);
    expect(code.role).toBe("code");
    expect(codeLineText(code.content, tabbed)).toBe("  x");
  });

  it("reads lines that keep a Windows line ending's \\r", () => {
    expect(roles(["```js\r", "a\r", "```\r", "# ข้อความ\r"])).toEqual(["open", "code", "close", "text"]);
    expect(roles(["- ```\r", "  a\r", "\r", "  ```\r"])).toEqual(["open", "code", "code", "close"]);
  });
});
