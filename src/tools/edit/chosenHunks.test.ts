import fc from "fast-check";
import { applyChosenHunks, hunkPlace } from "./chosenHunks";
import { buildDiffHunks, splitLines } from "./editDiff";

/** A note of `count` lines ("\n" or "\r\n" ends, the last one maybe without), in several scripts. */
const WORDS = ["молоко", "牛乳", "حليب", "นม", "🥛", "Cafe\u0301", "line"];
const note = (count: number, end: (index: number) => string = () => "\n") => Array.from({ length: count }, (_, index) => `${WORDS[index % WORDS.length]} ${index + 1}${end(index)}`).join("");
const all = (count: number) => new Set(Array.from({ length: count }, (_, index) => index));

describe("applying some of an edit's changes", () => {
  // Three changes far enough apart to be three hunks: lines 2, 15 and 28 of 30, Windows line ends in the middle.
  const before = note(30, (index) => (index >= 10 && index < 20 ? "\r\n" : "\n"));
  const after = before.replace("牛乳 2\n", "牛乳 два\n").replace("🥛 19\r\n", "🥛 девятнадцать\r\n🥛 и ещё\r\n").replace("line 28\n", "");
  const hunks = buildDiffHunks(before, after);

  it("writes only the chosen hunks, and every other byte as it was (line ends included)", () => {
    expect(hunks).toHaveLength(3);
    expect(applyChosenHunks(before, after, hunks, new Set([1]))).toBe(before.replace("🥛 19\r\n", "🥛 девятнадцать\r\n🥛 и ещё\r\n"));
    expect(applyChosenHunks(before, after, hunks, new Set([0, 2]))).toBe(before.replace("牛乳 2\n", "牛乳 два\n").replace("line 28\n", ""));
    expect(applyChosenHunks(before, after, hunks, all(3))).toBe(after);
    expect(applyChosenHunks(before, after, hunks, new Set())).toBe(before);
  });

  it("names each hunk by the lines of the note it changes", () => {
    expect(hunks.map(hunkPlace)).toEqual(["line 2", "line 19", "line 28"]);
    const added = buildDiffHunks("a\nb\n", "a\nb\nc\n");
    expect(added.map(hunkPlace)).toEqual(["after line 2"]);
    expect(buildDiffHunks("", "new\n").map(hunkPlace)).toEqual(["at the start"]);
  });

  it("keeps a last line without a line end as it was, whether its hunk is chosen or not", () => {
    const text = `${note(20)}last without end`;
    const changed = text.replace("молоко 1\n", "молоко один\n").replace("last without end", "last, changed");
    const changedHunks = buildDiffHunks(text, changed);
    expect(changedHunks).toHaveLength(2);
    expect(applyChosenHunks(text, changed, changedHunks, new Set([0]))).toBe(text.replace("молоко 1\n", "молоко один\n"));
    expect(applyChosenHunks(text, changed, changedHunks, new Set([1]))).toBe(text.replace("last without end", "last, changed"));
  });

  // Random notes and edits: lines from a small alphabet so hunks come and go in every shape.
  const line = fc.constantFrom("a", "b", "c", "д", "中", "🙂", "");
  const lineEnd = fc.constantFrom("\n", "\r\n");
  const text = fc.array(fc.tuple(line, lineEnd), { maxLength: 40 }).chain((lines) =>
    fc.boolean().map((lastEnds) => lines.map(([content, end], index) => (index === lines.length - 1 && !lastEnds ? content : content + end)).join("")),
  );

  it("gives the edit whole when every hunk is chosen and the note as it was when none is, for any edit", () => {
    fc.assert(
      fc.property(text, text, (oldText, newText) => {
        const diff = buildDiffHunks(oldText, newText);
        expect(applyChosenHunks(oldText, newText, diff, all(diff.length))).toBe(newText);
        expect(applyChosenHunks(oldText, newText, diff, new Set())).toBe(oldText);
      }),
      { numRuns: 300 },
    );
  });

  it("changes the note only inside the chosen hunk, for any edit and any hunk", () => {
    fc.assert(
      fc.property(text, text, fc.nat(), (oldText, newText, pick) => {
        const diff = buildDiffHunks(oldText, newText);
        if (diff.length === 0) return;
        const index = pick % diff.length;
        const result = splitLines(applyChosenHunks(oldText, newText, diff, new Set([index])));
        const old = splitLines(oldText);
        const oldNumbers = diff[index]!.lines.flatMap((entry) => (entry.oldLine === undefined ? [] : [entry.oldLine]));
        const newCount = diff[index]!.lines.filter((entry) => entry.newLine !== undefined).length;
        // The lines before the hunk are the note's own, and so are those after it, moved by what the hunk added or removed.
        // (A hunk without old lines is an insertion into an empty note: nothing is around it.)
        const start = oldNumbers.length > 0 ? oldNumbers[0]! - 1 : 0;
        expect(result.slice(0, start)).toEqual(old.slice(0, start));
        expect(result.slice(start + newCount)).toEqual(old.slice(start + oldNumbers.length));
      }),
      { numRuns: 300 },
    );
  });
});
