import fc from "fast-check";
import { normalized } from "./embeddingClient";
import { dequantize, quantize } from "./quantize";
import { VectorStore } from "./vectorStore";

const unit = (...values: number[]) => normalized(values);
const cosine = (left: Float32Array, right: Float32Array) => {
  let dot = 0;
  let leftSum = 0;
  let rightSum = 0;
  left.forEach((value, index) => {
    dot += value * (right[index] ?? 0);
    leftSum += value * value;
    rightSum += (right[index] ?? 0) ** 2;
  });
  return dot / Math.sqrt(leftSum * rightSum);
};

function sampleStore(): VectorStore {
  const store = new VectorStore("model-a");
  store.set("a.md", [
    { key: "a.md#0", hash: "h0", vector: unit(1, 0, 0, 0) },
    { key: "a.md#1", hash: "h1", vector: unit(0, 1, 0, 0) },
  ]);
  store.set("b.md", [{ key: "b.md#0", hash: "h2", vector: unit(0.9, 0.1, 0.4, 0) }]);
  store.set("c.md", [{ key: "c.md#0", hash: "h3", vector: unit(0, 0, 0, 1) }]);
  return store;
}

describe("int8 quantisation", () => {
  it("keeps cosine and values close for unit vectors (a property over 300 random vectors)", () => {
    fc.assert(
      fc.property(fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { minLength: 8, maxLength: 384 }), (values) => {
        const vector = normalized(values);
        if (!vector.some((value) => value !== 0)) return;
        const codes = new Int8Array(vector.length);
        const scale = quantize(vector, codes);
        const back = dequantize(codes, 0, vector.length, scale);
        const largest = Math.max(...Array.from(vector, Math.abs));
        back.forEach((value, index) => expect(Math.abs(value - (vector[index] ?? 0))).toBeLessThanOrEqual(largest / 254 + 1e-6));
        expect(cosine(vector, back)).toBeGreaterThan(0.99);
      }),
      { numRuns: 300, seed: 20261204 },
    );
  });
});

describe("VectorStore", () => {
  it("finds the best section per note, best notes first, and honours the filter", () => {
    const store = sampleStore();
    const hits = store.search(unit(0, 1, 0, 0), 10);
    expect(hits.map((hit) => hit.path)).toEqual(["a.md", "b.md", "c.md"]);
    expect(hits[0]).toEqual({ path: "a.md", key: "a.md#1", score: expect.closeTo(1, 2) });
    expect(store.search(unit(1, 0, 0.1, 0), 1).map((hit) => hit.key)).toEqual(["a.md#0"]);
    expect(store.search(unit(0, 1, 0, 0), 10, (path) => path !== "a.md").map((hit) => hit.path)).toEqual(["b.md", "c.md"]);
  });

  it("keeps only the best `limit` notes among many", () => {
    const store = new VectorStore("m");
    for (let index = 0; index < 200; index++) store.set(`n${index}.md`, [{ key: `n${index}.md#0`, hash: "", vector: unit(Math.cos(index / 100), Math.sin(index / 100)) }]);
    expect(store.search(unit(1, 0), 3).map((hit) => hit.path)).toEqual(["n0.md", "n1.md", "n2.md"]);
    expect(store.search(unit(Math.cos(1.5), Math.sin(1.5)), 2).map((hit) => hit.path)).toEqual(["n150.md", expect.stringMatching(/^n1(49|51)\.md$/)]);
  });

  it("lists the notes nearest to a note's sections, never the note itself", () => {
    const store = sampleStore();
    const hits = store.similarToNote("a.md", 5);
    expect(hits.map((hit) => hit.path)).toEqual(["b.md", "c.md"]);
    expect(store.similarToNote("missing.md", 5)).toEqual([]);
  });

  it("replaces and removes a note's sections, with hashes and counts to match", () => {
    const store = sampleStore();
    expect([store.noteCount, store.sectionCount, store.dimensions, store.byteSize]).toEqual([3, 4, 4, 4 * 8]);
    expect(store.hashesOf("a.md")).toEqual(new Map([["a.md#0", "h0"], ["a.md#1", "h1"]]));
    store.set("a.md", [{ key: "a.md#0", hash: "h9", vector: unit(0, 0, 1, 0) }]);
    expect(store.hashesOf("a.md")).toEqual(new Map([["a.md#0", "h9"]]));
    store.remove("c.md");
    expect([store.noteCount, store.sectionCount]).toEqual([2, 2]);
    expect(store.hashesOf("c.md").size).toBe(0);
    expect(() => store.set("d.md", [{ key: "d.md#0", hash: "", vector: unit(1, 0) }])).toThrow(RangeError);
  });

  it("reads back what it wrote: model, hashes and the same search results", () => {
    const store = sampleStore();
    const text = store.serialize();
    const back = VectorStore.deserialize(text);
    expect([back.model, back.dimensions, back.noteCount, back.sectionCount]).toEqual(["model-a", 4, 3, 4]);
    expect(back.hashesOf("a.md")).toEqual(store.hashesOf("a.md"));
    expect(back.search(unit(0.2, 0.3, 0.5, 0.1), 3)).toEqual(store.search(unit(0.2, 0.3, 0.5, 0.1), 3));
    expect(back.serialize()).toBe(text);
  });

  it("writes and reads in slices the same text and store as at once", async () => {
    const store = sampleStore();
    let checkpoints = 0;
    const checkpoint = () => {
      checkpoints++;
      return Promise.resolve();
    };
    const text = await store.serializeSliced(checkpoint);
    expect(text).toBe(store.serialize());
    const back = await VectorStore.deserializeSliced(text, checkpoint);
    expect(back.serialize()).toBe(text);
    expect(checkpoints).toBe(6);
  });

  it("gives an empty store for a corrupt file or another version, never a throw", async () => {
    const text = sampleStore().serialize();
    const [header = "", ...lines] = text.split("\n");
    const corrupt = [
      text.slice(0, text.length / 2),
      "",
      "null",
      "[]",
      [header.replace('"version":1', '"version":99'), ...lines].join("\n"),
      text.replace(/"codes":"[^"]*"/, '"codes":"AAAA"'),
      text.replace(/"codes":"[^"]*"/, '"codes":"!!!!"'),
      text.replace(/"scales":"[^"]*"/, '"scales":"AAA="'),
      `${text}\n${lines[0] ?? ""}`,
    ];
    for (const bad of corrupt) {
      for (const store of [VectorStore.deserialize(bad), await VectorStore.deserializeSliced(bad, () => Promise.resolve())]) {
        expect([store.noteCount, store.sectionCount, store.model]).toEqual([0, 0, ""]);
      }
    }
  });
});

describe("VectorStore.set", () => {
  it("refuses a vector with no direction (all zero) or a value that is not finite, and keeps what it held", () => {
    const store = sampleStore();
    expect(() => store.set("ноль.md", [{ key: "ноль.md#0", hash: "z", vector: new Float32Array(4) }])).toThrow(/all zero or not finite/);
    expect(() => store.set("无穷.md", [{ key: "无穷.md#0", hash: "i", vector: Float32Array.of(Infinity, 0, 0, 0) }])).toThrow(/all zero or not finite/);
    expect(() => store.set("b.md", [{ key: "b.md#0", hash: "z", vector: new Float32Array(4) }])).toThrow(/all zero or not finite/);
    expect(store.paths().sort()).toEqual(["a.md", "b.md", "c.md"]);
    expect(store.hashesOf("b.md")).toEqual(new Map([["b.md#0", "h2"]]));
  });
});
