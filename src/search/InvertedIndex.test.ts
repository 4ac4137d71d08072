import { decodeIndexFile, encodeIndexFile, IndexFileError } from "./indexFile";
import { InvertedIndex, type IndexedDocument } from "./InvertedIndex";
import { FIELD_NAMES, type FieldName } from "./noteFields";
import { DEFAULT_RANKING } from "./ranking";
import { TimeSlicer } from "./TimeSlicer";
import { Term } from "./tokenizer";

const slicer = () => new TimeSlicer({ yieldNow: async () => undefined });

function note(path: string, fields: Partial<Record<FieldName, string>>, mtime = 1): [IndexedDocument, Term[][]] {
  return [{ path, mtime, size: 10, dayKey: 0 }, FIELD_NAMES.map((name) => (fields[name] ?? "").split(/\s+/).filter(Boolean).map((text) => new Term(text)))];
}

function ranked(index: InvertedIndex, query: string): [string, number][] {
  const terms = new Map(query.split(" ").map((term) => [term, 1]));
  return index.search(terms, 10, DEFAULT_RANKING).map(({ document, score }) => [document.path, Number(score.toFixed(9))]);
}

function sample(): InvertedIndex {
  const index = new InvertedIndex();
  index.add(...note("a.md", { title: "alpha", body: "alpha beta beta gamma" }));
  index.add(...note("b.md", { body: "beta gamma delta", tags: "alpha" }));
  index.add(...note("c.md", { body: "gamma gamma gamma", headings: "delta" }));
  return index;
}

describe("InvertedIndex", () => {
  it("scores a field occurrence by its weight: title over tag over body", () => {
    const index = new InvertedIndex();
    index.add(...note("body.md", { body: "word other" }));
    index.add(...note("tag.md", { body: "other", tags: "word" }));
    index.add(...note("title.md", { body: "other", title: "word" }));
    index.add(...note("none.md", { body: "other" }));
    expect(ranked(index, "word").map(([path]) => path)).toEqual(["title.md", "tag.md", "body.md"]);
  });

  it("replaces a note added again under the same path", () => {
    const index = sample();
    index.add(...note("a.md", { body: "omega" }));
    expect(index.documentCount).toBe(3);
    expect(ranked(index, "omega").map(([path]) => path)).toEqual(["a.md"]);
    expect(ranked(index, "alpha").map(([path]) => path)).toEqual(["b.md"]);
  });

  it("finds every note past the delta's first block of postings, before and after compaction", async () => {
    const index = new InvertedIndex();
    // 70,000 distinct words ("слово" and "词" ones among them) fill more than one block of 65,536 postings.
    const words = Array.from({ length: 70_000 }, (_, n) => (n % 3 === 0 ? `слово${n}` : n % 3 === 1 ? `词${n}` : `w${n}`));
    index.add({ path: "huge.md", mtime: 1, size: 1, dayKey: 0 }, [words.map((text) => new Term(text)), [], [], [], [], []]);
    index.add(...note("small.md", { body: `${words[69_999]} ${words[3]} tail` }));
    const before = ranked(index, `${words[69_999]} ${words[3]}`);
    expect(before.map(([path]) => path)).toEqual(["small.md", "huge.md"]);
    expect(ranked(index, "tail").map(([path]) => path)).toEqual(["small.md"]);
    await index.compact(slicer());
    expect(ranked(index, `${words[69_999]} ${words[3]}`)).toEqual(before);
  });

  it("gives the same scores before and after compaction, and drops removed notes and unused terms", async () => {
    const index = sample();
    index.remove("b.md");
    index.add(...note("d.md", { body: "delta epsilon" }));
    index.remove("d.md");
    const before = ranked(index, "alpha beta gamma delta");
    const terms = index.termCount;
    await index.compact(slicer());
    expect(ranked(index, "alpha beta gamma delta")).toEqual(before);
    expect(index.pendingWork).toBe(0);
    expect(index.termCount).toBeLessThan(terms);
    expect(index.documentFrequency("epsilon")).toBe(0);
    index.add(...note("e.md", { body: "alpha" }));
    expect(ranked(index, "alpha").map(([path]) => path)).toEqual(["a.md", "e.md"]);
  });

  it("counts document frequency over live notes only", () => {
    const index = sample();
    expect(index.documentFrequency("gamma")).toBe(3);
    index.remove("c.md");
    expect(index.documentFrequency("gamma")).toBe(2);
  });

  it("applies a filter and a limit", () => {
    const index = sample();
    const terms = new Map([["gamma", 1]]);
    expect(index.search(terms, 1, DEFAULT_RANKING)).toHaveLength(1);
    expect(index.search(terms, 10, DEFAULT_RANKING, (document) => document.path !== "c.md").map((hit) => hit.document.path).sort()).toEqual(["a.md", "b.md"]);
  });
});

describe("index file", () => {
  async function packed(): Promise<InvertedIndex> {
    const index = sample();
    await index.compact(slicer());
    return index;
  }
  const reading = (parts: readonly string[]) => async (part: number) => parts[part] ?? null;

  it("round-trips an index: same notes, same scores", async () => {
    const index = await packed();
    const parts = await encodeIndexFile(index.snapshot(), slicer());
    expect(parts).toHaveLength(1);
    const loaded = await InvertedIndex.restore(await decodeIndexFile(reading(parts), slicer()), slicer());
    expect(ranked(loaded, "alpha beta gamma delta")).toEqual(ranked(index, "alpha beta gamma delta"));
    expect(loaded.get("a.md")).toEqual(index.get("a.md"));
  });

  it("splits a large index into parts and reads them back in order", async () => {
    const index = await packed();
    const parts = await encodeIndexFile(index.snapshot(), slicer(), { partChars: 40 });
    expect(parts.length).toBeGreaterThan(2);
    const loaded = await InvertedIndex.restore(await decodeIndexFile(reading(parts), slicer()), slicer());
    expect(ranked(loaded, "alpha beta gamma delta")).toEqual(ranked(index, "alpha beta gamma delta"));
  });

  it("rejects a missing part and a part from another save", async () => {
    const snapshot = (await packed()).snapshot();
    const parts = await encodeIndexFile(snapshot, slicer(), { partChars: 40, generation: "1" });
    const other = await encodeIndexFile(snapshot, slicer(), { partChars: 40, generation: "2" });
    await expect(decodeIndexFile(reading(parts.slice(0, -1)), slicer())).rejects.toThrow(/missing/);
    await expect(decodeIndexFile(reading([parts[0] ?? "", ...other.slice(1)]), slicer())).rejects.toThrow(/another save/);
  });

  it("round-trips an empty index", async () => {
    const parts = await encodeIndexFile(new InvertedIndex().snapshot(), slicer());
    const loaded = await InvertedIndex.restore(await decodeIndexFile(reading(parts), slicer()), slicer());
    expect(loaded.documentCount).toBe(0);
  });

  it("refuses a snapshot of an index with changes not compacted", () => {
    expect(() => sample().snapshot()).toThrow(/compacted/);
  });

  it.each([
    ["a missing end line", (text: string) => text.slice(0, text.lastIndexOf("\n"))],
    ["counts that disagree with the header", (text: string) => text.replace(/"documents":3/, '"documents":2').replace(/e\[3,/, "e[2,")],
    ["a line of unknown kind", (text: string) => text.replace("\nt[", "\nx[")],
    ["a note listed twice", (text: string) => text.replace('"b.md"', '"a.md"')],
    ["postings cut short", (text: string) => text.replace(/\np([^\n]*)/, (_line, data: string) => `\np${data.slice(0, 4)}`)],
  ])("rejects a file with %s", async (_label, damage) => {
    const [text = ""] = await encodeIndexFile((await packed()).snapshot(), slicer());
    await expect(decodeIndexFile(reading([damage(text)]), slicer())).rejects.toBeInstanceOf(IndexFileError);
  });
});
