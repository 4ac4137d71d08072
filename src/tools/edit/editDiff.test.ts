import { createTwoFilesPatch, FILE_HEADERS_ONLY } from "diff";
import { buildDiffHunks, countChangedLines, diffEdit, MAX_ALIGNED_LINE_CHANGES } from "./editDiff";

const renderUnifiedDiff = (path: string, before: string | null, after: string) => diffEdit(path, before, after).unified;

/** `count` lines made by `line`, each ending in "\n". */
const lines = (count: number, line: (index: number) => string) => Array.from({ length: count }, (_, index) => `${line(index)}\n`).join("");

describe("edit diffs", () => {
  it("renders a unified diff headed with the path, /dev/null for a new note", () => {
    const diff = renderUnifiedDiff("N.md", "a\nb\nc\n", "a\nB\nc\n");
    expect(diff).toContain("--- a/N.md\n+++ b/N.md\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
    expect(renderUnifiedDiff("New.md", null, "x\n")).toContain("--- /dev/null\n+++ b/New.md");
  });

  it("numbers structured lines in the old and the new text", () => {
    const hunks = buildDiffHunks("a\nb\nc\n", "a\nc\nd\n");
    expect(hunks[0]?.lines).toEqual([
      { kind: "context", text: "a", oldLine: 1, newLine: 1 },
      { kind: "removed", text: "b", oldLine: 2 },
      { kind: "context", text: "c", oldLine: 3, newLine: 2 },
      { kind: "added", text: "d", newLine: 3 },
    ]);
    expect(countChangedLines(hunks)).toEqual({ added: 1, removed: 1 });
  });

  it("gives the same diff as an unbounded line diff for edits within the bound", () => {
    const long = lines(100, (index) => `line ${index}`);
    const cases: Array<[string, string]> = [
      ["", "x\n"],
      ["x\n", ""],
      ["a\nb\nc", "a\nb\nC"],
      ["a\nb\nc\n", "a\nb\nc"],
      ["one\r\ntwo\r\n", "one\r\n2\r\n"],
      [long, long.replace("line 50\n", "fifty\n")],
      [long, long.replace("line 3\n", "three\n").replace("line 97\n", "ninety-seven\n")],
      [long, `first\n${long}`],
      [long, long.replace("line 99\n", "")],
      [long, long.replace(lines(40, (index) => `line ${index + 30}`), lines(30, (index) => `new ${index}`))],
    ];
    for (const [before, after] of cases) {
      const unbounded = createTwoFilesPatch("a/N.md", "b/N.md", before, after, undefined, undefined, { context: 3, headerOptions: FILE_HEADERS_ONLY });
      expect(renderUnifiedDiff("N.md", before, after)).toBe(unbounded);
    }
  });

  it("shows a 20,000-line rewrite as one block removed and one added, between the lines that stayed", () => {
    const before = `# Title\n${lines(20_000, (index) => `old ${index}`)}The end`;
    const after = `# Title\n${lines(20_000, (index) => `new ${index}`)}The end`;
    const hunks = buildDiffHunks(before, after);
    expect(hunks.map((hunk) => hunk.header)).toEqual(["@@ -1,20002 +1,20002 @@"]);
    expect(countChangedLines(hunks)).toEqual({ added: 20_000, removed: 20_000 });
    const diff = renderUnifiedDiff("Big.md", before, after);
    expect(diff.startsWith("--- a/Big.md\n+++ b/Big.md\n@@ -1,20002 +1,20002 @@\n # Title\n-old 0\n-old 1\n")).toBe(true);
    expect(diff.endsWith("+new 19998\n+new 19999\n The end\n\\ No newline at end of file\n")).toBe(true);
  });

  it("stops aligning lines past the bound and shows the changed stretch whole", () => {
    // Every tenth line changed: aligning them would cost time quadratic in the changes.
    const before = lines(20_000, (index) => `line ${index}`);
    const after = lines(20_000, (index) => (index % 10 === 5 ? `changed ${index}` : `line ${index}`));
    expect(2 * 2_000).toBeGreaterThan(MAX_ALIGNED_LINE_CHANGES);
    const hunks = buildDiffHunks(before, after);
    expect(hunks.map((hunk) => hunk.header)).toEqual(["@@ -3,19997 +3,19997 @@"]);
    expect(countChangedLines(hunks)).toEqual({ added: 19_991, removed: 19_991 });
    expect(hunks[0]?.lines.slice(0, 4)).toEqual([
      { kind: "context", text: "line 2", oldLine: 3, newLine: 3 },
      { kind: "context", text: "line 3", oldLine: 4, newLine: 4 },
      { kind: "context", text: "line 4", oldLine: 5, newLine: 5 },
      { kind: "removed", text: "line 5", oldLine: 6 },
    ]);
  });
});
