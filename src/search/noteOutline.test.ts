import { specExample } from "../../test/helpers/commonmarkExamples";
import { readNoteOutline } from "./noteOutline";

describe("readNoteOutline", () => {
  it("keeps a four-backtick block open across an inner three-backtick line: its headings and tags are code", () => {
    const note = ["# Установка", "````markdown", "```", "# Не заголовок #внутри", "```", "````", "## Linux", "#после and text"].join("\n");
    const outline = readNoteOutline(note);
    expect(outline.headings).toEqual([
      { level: 1, heading: "Установка", line: 0 },
      { level: 2, heading: "Linux", line: 6 },
    ]);
    expect(outline.tags).toEqual(["после"]);
  });

  it.each([124, 125])("reads the spec's example %i (a shorter fence inside a longer one) as one block, and the heading after it", (number) => {
    const note = `${specExample(number).replace("aaa", "# ข้างใน #داخل")}# หลัง\n#بعد\n`;
    const outline = readNoteOutline(note);
    expect(outline.headings.map((heading) => heading.heading)).toEqual(["หลัง"]);
    expect(outline.tags).toEqual(["بعد"]);
  });

  it("leaves out the tags of code in a list item and a block quote, and reads the note on after them", () => {
    const note = ["- ```python", "  #列表", "", "  ```", "> ```", "> #引用", "#正文", "# 标题"].join("\n");
    const outline = readNoteOutline(note);
    expect(outline.tags).toEqual(["正文"]);
    expect(outline.headings.map((heading) => heading.heading)).toEqual(["标题"]);
  });
});
