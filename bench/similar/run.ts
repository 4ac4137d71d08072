// Related notes (`npm run bench -- similar`): the plugin's `similar` (more like this over the note
// index, NoteIndex.similar) beside a plain tf-idf cosine baseline over the same notes, on the
// SciFact vault. Relatedness: two abstracts are related when the SciFact test judgments cite both
// as evidence for the same claim (23 claims cite two or more; every such abstract is a query, its
// co-cited abstracts the answers). Prints recall@10 and MRR for both, and the time per query.
import { existsSync, readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { NoteIndex } from "../../src/search/NoteIndex";
import { FsDataStore } from "../../src/vault/fsDataStore";
import { FsVault } from "../../src/vault/FsVault";

// bench/run.mjs runs each benchmark from the repository root.
const repo = process.cwd();
const data = join(repo, ".bench-data");
const shared = join(repo, "..", "shared", "bench");
const scifact = join(data, "scifact");

async function main(): Promise<void> {
  if (!existsSync(join(scifact, "paths.tsv"))) {
    const made = spawnSync(process.execPath, [join(shared, "make-scifact-vault.mjs"), scifact], { stdio: "inherit" });
    if (made.status !== 0) throw new Error("make-scifact-vault failed");
  }
  const pathOfId = new Map(
    readFileSync(join(scifact, "paths.tsv"), "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => line.split("\t"))
      .map(([path, id]) => [id!, path!]),
  );
  const cited = new Map<string, string[]>();
  for (const line of readFileSync(join(shared, "scifact", "qrels.test.tsv"), "utf8").trim().split("\n").slice(1)) {
    const [claim, doc] = line.split("\t");
    const path = pathOfId.get(doc!);
    if (path) cited.set(claim!, [...(cited.get(claim!) ?? []), path]);
  }
  const related = new Map<string, Set<string>>();
  for (const group of cited.values()) {
    if (group.length < 2) continue;
    for (const path of group) for (const other of group) if (other !== path) related.set(path, new Set([...(related.get(path) ?? []), other]));
  }

  const vault = new FsVault(join(scifact, "vault"));
  const index = new NoteIndex({ vault, store: new FsDataStore(join(data, "similar-index")), getSettings: () => ({ excludedFolders: [], excludedPatterns: [] }) });
  await index.start();
  const paths = [...pathOfId.values()];
  const texts = new Map(await Promise.all(paths.map(async (path) => [path, await vault.read(path)] as const)));
  const baseline = tfidfBaseline(texts);

  const ours: string[][] = [];
  const theirs: string[][] = [];
  const times: number[] = [];
  for (const path of related.keys()) {
    const began = performance.now();
    ours.push((await index.similar(path, { limit: 10 })).map((note) => note.path));
    times.push(performance.now() - began);
    theirs.push(baseline(path, 10));
  }
  await index.dispose();
  const queries = [...related.entries()];
  const figures = (lists: string[][]) => {
    let recall = 0;
    let reciprocal = 0;
    lists.forEach((list, position) => {
      const wanted = queries[position]![1];
      recall += list.filter((path) => wanted.has(path)).length / wanted.size;
      const first = list.findIndex((path) => wanted.has(path));
      reciprocal += first >= 0 ? 1 / (first + 1) : 0;
    });
    return `recall@10 ${(recall / lists.length).toFixed(3)}, MRR ${(reciprocal / lists.length).toFixed(3)}`;
  };
  times.sort((a, b) => a - b);
  process.stdout.write(
    [
      `related notes on SciFact (5,183 abstracts; ${queries.length} abstracts co-cited with others for one claim):`,
      `  similar (more like this, NoteIndex.similar): ${figures(ours)}; median ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms a note`,
      `  tf-idf cosine baseline (whole vocabulary):    ${figures(theirs)}`,
      "",
    ].join("\n"),
  );
}

/** Plain tf-idf (log tf, idf ln(N/df)) vectors over lower-cased words, compared by cosine. */
function tfidfBaseline(texts: Map<string, string>): (path: string, limit: number) => string[] {
  const termCounts = new Map<string, Map<string, number>>();
  const documentFrequency = new Map<string, number>();
  for (const [path, text] of texts) {
    const counts = new Map<string, number>();
    for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
    termCounts.set(path, counts);
    for (const word of counts.keys()) documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
  }
  const total = texts.size;
  const vectors = new Map<string, Map<string, number>>();
  for (const [path, counts] of termCounts) {
    const vector = new Map<string, number>();
    let norm = 0;
    for (const [word, count] of counts) {
      const weight = (1 + Math.log(count)) * Math.log(total / (documentFrequency.get(word) ?? 1));
      vector.set(word, weight);
      norm += weight * weight;
    }
    norm = Math.sqrt(norm) || 1;
    for (const [word, weight] of vector) vector.set(word, weight / norm);
    vectors.set(path, vector);
  }
  return (path, limit) => {
    const query = vectors.get(path)!;
    const scores: Array<[string, number]> = [];
    for (const [other, vector] of vectors) {
      if (other === path) continue;
      let dot = 0;
      for (const [word, weight] of query) dot += weight * (vector.get(word) ?? 0);
      if (dot > 0) scores.push([other, dot]);
    }
    return scores.sort((a, b) => b[1] - a[1]).slice(0, limit).map(([other]) => other);
  };
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
