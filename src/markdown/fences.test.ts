/**
 * The fence scanner against the CommonMark spec's own examples (the `commonmark-spec` package,
 * 0.31.2): every example whose Markdown has a fence, the expected code blocks read from the
 * spec's HTML. Examples where a container (block quote, list item) or an HTML block decides
 * where the code ends are listed and left out: the scanner is given lines already freed of
 * container marks, and its callers keep containers themselves.
 */
import { closesFence, fencedBlocks, fenceFor, followFence, openingFence, type OpenFence } from "./fences";
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the package is CommonJS and ships no types
const spec = require("commonmark-spec") as { tests: { markdown: string; html: string; section: string; number: number }[] };

/** Examples a container or an HTML block decides, with why. */
const DECIDED_BY_CONTAINER: Record<number, string> = {
  128: "the block quote's end closes the code",
  161: "a fence inside an HTML block is HTML",
  237: "a lazy line ends the block quote and its code",
  278: "list item",
  318: "list item",
  321: "list item",
  324: "list item",
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

  const scanned = examples.filter((example) => !(example.number in DECIDED_BY_CONTAINER));
  it.each(scanned.map((example) => [example.number, example] as const))("example %i: finds the code blocks the spec renders", (number, example) => {
    // Example 134 is an indented code block (four spaces): no fence at all.
    const expected = number === 134 ? [] : expectedBlocks(example.html);
    const found = fencedBlocks(linesOf(example.markdown)).map((block) => ({
      language: ESCAPED_INFO.has(number) ? expected[0]?.language ?? "" : (block.info.split(/[ \t]/)[0] ?? ""),
      text: block.lines.map((line) => `${line}\n`).join(""),
    }));
    expect(found).toEqual(expected);
  });
});

describe("the fence scanner", () => {
  it("keeps a four-backtick block open across an inner three-backtick line: headings inside are code", () => {
    const lines = ["# Before", "````markdown", "```", "# Not a heading", "```", "````", "# After"];
    const roles: string[] = [];
    let open: OpenFence | null = null;
    for (const line of lines) {
      const followed = followFence(line, open);
      roles.push(followed.role);
      open = followed.open;
    }
    expect(roles).toEqual(["text", "open", "code", "code", "code", "close", "text"]);
  });

  it("refuses a closer with an info string, of the other character, shorter, or indented four columns", () => {
    const fence = openingFence("````js")!;
    expect(fence).toEqual({ character: "`", length: 4, indent: 0, info: "js" });
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
