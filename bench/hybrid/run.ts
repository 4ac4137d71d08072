// Hybrid search on BEIR SciFact (`npm run bench -- hybrid`): the plugin's word ranking (NoteIndex),
// the meaning ranking (sentence vectors from word vectors, see wordVectors.ts, scanned flat), and
// their fusions: NoteIndex's own (through its vector side, what the plugin runs), reciprocal rank
// fusion equal and weighted, and linear blends of min-max normalised scores, scored by nDCG@10
// and R@100 over the 300 test queries.
// Data: ../shared/bench/scifact; the vault and the word vectors go under .bench-data/ (reused).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { blendRankings, fuseRankings, RRF_K } from "../../src/search/fuseRankings";
import { NoteIndex } from "../../src/search/NoteIndex";
import type { VectorHit, VectorSide } from "../../src/search/vectorSide";
import { FsDataStore } from "../../src/vault/fsDataStore";
import { FsVault } from "../../src/vault/FsVault";
// @ts-ignore -- a plain .mjs module shared with bench/search
import { evaluate, readPaths, readQrels } from "../search/evaluate.mjs";
import { loadWordVectors } from "./wordVectors";

// bench/run.mjs runs each benchmark from the repository root.
const repo = process.cwd();
const data = join(repo, ".bench-data");
const shared = join(repo, "..", "shared", "bench");
const scifact = join(data, "scifact");

interface Evaluation {
  ndcgAt10: number;
  recallAt100: number;
}
type Evaluate = (rankings: Map<string, string[]>, qrels: unknown, idOfPath: Map<string, string>) => Evaluation;

async function main(): Promise<void> {
  if (!existsSync(join(scifact, "paths.tsv"))) {
    const made = spawnSync(process.execPath, [join(shared, "make-scifact-vault.mjs"), scifact], { stdio: "inherit" });
    if (made.status !== 0) throw new Error("make-scifact-vault failed");
  }
  const idOfPath = (readPaths as (file: string) => Map<string, string>)(join(scifact, "paths.tsv"));
  const qrels = (readQrels as (file: string) => unknown)(join(shared, "scifact", "qrels.test.tsv"));
  const queries = readFileSync(join(shared, "scifact", "queries.test.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line) as { _id: string; text: string });
  const vault = new FsVault(join(scifact, "vault"));
  const paths = [...idOfPath.keys()];
  const texts = await Promise.all(paths.map((path) => vault.read(path)));

  const began = performance.now();
  const vectors = loadWordVectors(join(data, "word-vectors"), texts);
  const noteVectors = texts.map((text) => vectors.embed(text));
  const embedMs = performance.now() - began;
  const nearest = (query: Float32Array, limit: number, accept: (path: string) => boolean): VectorHit[] => {
    const hits: VectorHit[] = [];
    noteVectors.forEach((vector, index) => {
      const path = paths[index]!;
      if (!accept(path)) return;
      let dot = 0;
      for (let d = 0; d < vector.length; d++) dot += vector[d]! * query[d]!;
      hits.push({ path, score: dot });
    });
    return hits.sort((a, b) => b.score - a.score).slice(0, limit);
  };
  const side: VectorSide = {
    search: (query, limit, accept) => Promise.resolve(nearest(vectors.embed(query), limit, accept)),
    similarToNote: () => null,
  };

  let useVectors = false;
  const index = new NoteIndex({
    vault,
    store: new FsDataStore(join(data, "hybrid-index")),
    getSettings: () => ({ excludedFolders: [], excludedPatterns: [] }),
    vectors: () => (useVectors ? side : null),
  });
  await index.start();

  const wordLists = new Map<string, Array<{ path: string; score: number }>>();
  const meaningLists = new Map<string, VectorHit[]>();
  const fused = new Map<string, string[]>();
  for (const query of queries) {
    useVectors = false;
    wordLists.set(query._id, await index.rank(query.text, { limit: 100 }));
    meaningLists.set(query._id, nearest(vectors.embed(query.text), 100, () => true));
    useVectors = true;
    fused.set(query._id, (await index.rank(query.text, { limit: 100 })).map((note) => note.path));
  }
  await index.dispose();

  const score = evaluate as Evaluate;
  const rows: Array<[string, Evaluation]> = [
    ["words (BM25F, the plugin's index)", score(mapLists(wordLists), qrels, idOfPath)],
    ["meaning (SIF word vectors, cosine)", score(mapLists(meaningLists), qrels, idOfPath)],
    ["fusion as NoteIndex runs it (see SEARCH.md)", score(fused, qrels, idOfPath)],
    ["reciprocal rank fusion, k = 60, equal weights", score(new Map([...wordLists].map(([id, words]) => [id, fuseRankings([words, meaningLists.get(id) ?? []], 100).map((hit) => hit.path)])), qrels, idOfPath)],
  ];
  for (const weight of [0.5, 0.3, 0.15]) {
    const weighted = new Map([...wordLists].map(([id, words]) => [id, fuseRankings([words, meaningLists.get(id) ?? []], 100, RRF_K, [1, weight]).map((hit) => hit.path)]));
    rows.push([`weighted fusion, meaning counts ${weight} of words`, score(weighted, qrels, idOfPath)]);
  }
  for (const weight of [0.7, 0.5, 0.3, 0.15]) {
    const blended = new Map([...wordLists].map(([id, words]) => [id, blendRankings(words, meaningLists.get(id) ?? [], 100, weight).map((hit) => hit.path)]));
    rows.push([`blend ${(1 - weight).toFixed(2)} × words + ${weight} × meaning (min-max)`, score(blended, qrels, idOfPath)]);
  }
  process.stdout.write(`SciFact (5,183 notes, 300 queries); sentence vectors for every note in ${(embedMs / 1000).toFixed(1)} s\n`);
  process.stdout.write(`  ${"ranking".padEnd(58)} nDCG@10  R@100\n`);
  for (const [name, figures] of rows) process.stdout.write(`  ${name.padEnd(58)} ${figures.ndcgAt10.toFixed(4)}   ${figures.recallAt100.toFixed(4)}\n`);
}

function mapLists(lists: Map<string, Array<{ path: string }>>): Map<string, string[]> {
  return new Map([...lists].map(([id, list]) => [id, list.map((item) => item.path)]));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
