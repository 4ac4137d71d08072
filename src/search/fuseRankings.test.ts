import { InvertedIndex } from "./InvertedIndex";
import { blendRankings, fuseRankings } from "./fuseRankings";
import { extractFieldTerms } from "./noteFields";
import { titleFirst } from "./titleFirst";
import { Tokenizer } from "./tokenizer";

describe("fuseRankings", () => {
  it("ranks what both lists hold first, and weights a list's votes", () => {
    const words = [{ path: "a" }, { path: "b" }, { path: "c" }];
    const meaning = [{ path: "c" }, { path: "d" }, { path: "b" }];
    expect(fuseRankings([words, meaning], 4).map((hit) => hit.path)).toEqual(["c", "b", "a", "d"]);
    // Meaning at a tenth: the word ranking nearly alone decides (b and c held by both still gain a little).
    expect(fuseRankings([words, meaning], 4, 60, [1, 0.1]).map((hit) => hit.path)).toEqual(["b", "c", "a", "d"]);
  });
});

describe("blendRankings", () => {
  it("keeps the word order where words decide, and lets meaning-only notes in after them", () => {
    const words = [
      { path: "a", score: 9 },
      { path: "b", score: 5 },
      { path: "c", score: 1 },
    ];
    const meaning = [
      { path: "d", score: 0.9 },
      { path: "c", score: 0.8 },
      { path: "a", score: 0.1 },
    ];
    expect(blendRankings(words, meaning, 5).map((hit) => hit.path)).toEqual(["a", "b", "d", "c"]);
    // With meaning counting as much as words, the note both rank fairly high wins.
    expect(blendRankings(words, meaning, 5, 0.5)[0]?.path).toBe("a");
    expect(blendRankings([], meaning, 2).map((hit) => hit.path)).toEqual(["d", "c"]);
  });
});

describe("titleFirst", () => {
  const tokenizer = new Tokenizer();
  const index = new InvertedIndex();
  for (const path of ["Car repairs.md", "Automobile.md", "Notes/Other.md"]) index.add({ path, mtime: 0, size: 0, dayKey: 0 }, extractFieldTerms(path, "text", tokenizer));
  const note = (path: string) => ({ path, title: path.replace(/\.md$/, "").split("/").pop() ?? path, score: 1, mtime: 0 });

  it("moves the note whose title is the query to the front", () => {
    const list = [note("Car repairs.md"), note("Notes/Other.md"), note("Automobile.md")];
    expect(titleFirst(list, "  automobile ", index, undefined).map((hit) => hit.path)).toEqual(["Automobile.md", "Car repairs.md", "Notes/Other.md"]);
  });

  it("brings it in from the index when the list missed it, keeping the list's length", () => {
    const list = [note("Car repairs.md"), note("Notes/Other.md")];
    expect(titleFirst(list, "Automobile", index, undefined).map((hit) => hit.path)).toEqual(["Automobile.md", "Car repairs.md"]);
    expect(titleFirst(list, "Automobile", index, (document) => document.path !== "Automobile.md").map((hit) => hit.path)).toEqual(["Car repairs.md", "Notes/Other.md"]);
  });

  it("finds titles of notes added and removed after the first lookup", () => {
    const local = new InvertedIndex();
    const add = (path: string) => local.add({ path, mtime: 0, size: 0, dayKey: 0 }, extractFieldTerms(path, "text", tokenizer));
    add("A/Plan.md");
    expect(local.pathsTitled("plan")).toEqual(["A/Plan.md"]);
    add("B/Plan.md");
    local.remove("A/Plan.md");
    add("Café  Notes.md");
    expect(local.pathsTitled("Plan")).toEqual(["B/Plan.md"]);
    expect(local.pathsTitled("cafe\u0301 notes")).toEqual(["Café  Notes.md"]);
    local.remove("B/Plan.md");
    expect(local.pathsTitled("plan")).toEqual([]);
  });
});
