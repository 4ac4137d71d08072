import { whyNoCompletion, type NoCompletion } from "./completionPlace";

/** The situation for `marked`, whose "‸" marks the cursor. */
function at(marked: string, more: { selection?: boolean; mobile?: boolean; allowedOnMobile?: boolean } = {}) {
  const cursor = marked.indexOf("‸");
  const text = marked.slice(0, cursor) + marked.slice(cursor + 1);
  return whyNoCompletion({ text, cursor, selection: more.selection ?? false, mobile: more.mobile ?? false, allowedOnMobile: more.allowedOnMobile ?? false });
}

const kind = (found: NoCompletion | null) => found?.kind ?? "runs";

describe("where inline completion may run", () => {
  it.each([
    ["the end of a Cyrillic line", "# Заметки\n\nСегодня мы обсуждали план‸"],
    ["before a space in Han text", "今天我们讨论了‸ 计划"],
    ["the end of an Arabic line, before the next line", "ناقشنا الخطة اليوم‸\nالسطر التالي"],
    ["after a closed [[link]] in Thai", "ดู [[บันทึก]] แล้ว‸"],
    ["after closed inline code", "run `npm test` then ‸"],
    ["after a price, which is not math", "Итого $5 за всё‸"],
    ["after closed inline math", "Since $x^2$ grows‸"],
    ["after a fenced block closed", "```js\nconst a = 1;\n```\nAfter the code‸"],
    ["after the frontmatter", "---\ntitle: 日记\n---\nNotes about the day‸"],
    ["after a URL, past a space", "see https://example.org/página and ‸"],
    ["a line with a pipe that is not a table", "either this | or that‸"],
    ["an emoji line", "Planning 🎉 the party‸"],
    ["NFD text", "Cafe\u0301 notes‸"],
  ])("runs at %s", (_name, marked) => {
    expect(at(marked)).toBeNull();
  });

  it.each<[string, string, NoCompletion["kind"]]>([
    ["in the frontmatter", "---\ntitle: Заметка‸\n---\nBody", "frontmatter"],
    ["in frontmatter still being typed", "---\ntags: [日记‸", "frontmatter"],
    ["in frontmatter after a byte-order mark", "\uFEFF---\nalias: x‸\n---\n", "frontmatter"],
    ["in a fenced code block", "Text\n\n```python\nprint('привет')‸\n```", "code"],
    ["in a tilde fence left open", "~~~\nlet x = 1‸", "code"],
    ["on a fence's opening line", "```pyth‸", "code"],
    ["in a fence inside a block quote", "> ```\n> код‸\n> ```", "code"],
    ["in inline code", "Run `npm ins‸", "inline-code"],
    ["in double-backtick inline code", "Use ``a ` b‸", "inline-code"],
    ["in a $$ math block", "$$\n\\int_0^1 x‸\n$$", "math"],
    ["in inline math", "The area is $\\pi r‸", "math"],
    ["inside a [[link]] being typed", "See [[Встреча с‸", "link"],
    ["inside an embed being typed", "![[图片 ‸", "link"],
    ["in a URL", "Docs at https://example.org/путь‸", "url"],
    ["in a www address", "www.example‸", "url"],
    ["in a Markdown link's target", "[docs](https://exa‸", "url"],
    ["in a table row", "| Name | Возраст |\n| --- | --- |\n| Анна | 3‸", "table"],
    ["in a table's header row", "| 名前 | 年齢‸\n| --- | --- |", "table"],
    ["in a table row without outer pipes", "a | b\n--- | ---\nc | d‸", "table"],
    ["inside a word", "hel‸lo", "mid-word"],
    ["with nothing written yet", "   ‸", "empty"],
  ])("never runs %s", (_name, marked, expected) => {
    expect(kind(at(marked))).toBe(expected);
  });

  it("never runs while text is selected", () => {
    expect(kind(at("Some text‸", { selection: true }))).toBe("selection");
  });

  it("never runs on mobile unless switched on there", () => {
    expect(kind(at("Some text‸", { mobile: true }))).toBe("mobile");
    expect(at("Some text‸", { mobile: true, allowedOnMobile: true })).toBeNull();
  });

  it("gives a reason a person can read", () => {
    expect(at("See [[Note‸")?.reason).toBe("the cursor is inside a [[link]]");
  });
});
