// Related notes (`npm run bench -- similar`): the plugin's `similar` (NoteIndex.similar: cosine
// between the notes' tf-idf vectors over the index, see src/search/noteVectors.ts) beside a plain
// tf-idf cosine baseline over whole notes (log tf × idf over lower-cased words, unit vectors), on
// two vaults:
// - SciFact: two abstracts are related when the SciFact test judgments cite both as evidence for
//   the same claim (23 claims cite two or more; every such abstract is a query, its co-cited
//   abstracts the answers): recall@10 and MRR;
// - the documentation of npm, fastify and undici as shipped in their npm packages (docsVault.ts;
//   fetched at run time, never committed), links turned into plain text: the share of each page's
//   5 related pages that sit in its own section (project/section folder), P@5.
// Then the time per note at 5,000 notes (SciFact) and at 50,000 (bench/search's generated vault).
// `node bench-similar.js [--notes N]` (N: the large vault's size, 50,000 by default).
import { existsSync, readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { NoteIndex } from "../../src/search/NoteIndex";
import { FsDataStore } from "../../src/vault/fsDataStore";
import { FsVault } from "../../src/vault/FsVault";
// @ts-expect-error -- a plain .mjs helper shared with the search benchmark
import { ensureSyntheticVault } from "../search/syntheticVault.mjs";
import { ensureDocsVault } from "./docsVault";

// bench/run.mjs runs each benchmark from the repository root.
const repo = process.cwd();
const data = join(repo, ".bench-data");
const shared = join(repo, "..", "shared", "bench");
const scifact = join(data, "scifact");
const notesArgument = process.argv.indexOf("--notes");
const largeCount = notesArgument > 0 ? Number(process.argv[notesArgument + 1]) : 50_000;
const NO_EXCLUSIONS = { excludedFolders: [], excludedPatterns: [] };

async function openIndex(vaultFolder: string, storeName: string): Promise<{ index: NoteIndex; vault: FsVault }> {
  const vault = new FsVault(vaultFolder);
  const index = new NoteIndex({ vault, store: new FsDataStore(join(data, storeName)), getSettings: () => NO_EXCLUSIONS });
  await index.start();
  return { index, vault };
}

async function relatedLists(index: NoteIndex, paths: Iterable<string>, limit: number): Promise<{ lists: Map<string, string[]>; times: number[] }> {
  const lists = new Map<string, string[]>();
  const times: number[] = [];
  for (const path of paths) {
    const began = performance.now();
    lists.set(path, (await index.similar(path, { limit })).map((note) => note.path));
    times.push(performance.now() - began);
  }
  return { lists, times: times.sort((a, b) => a - b) };
}

const percentile = (sorted: number[], fraction: number) => sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;

async function sciFact(): Promise<string[]> {
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

  const { index, vault } = await openIndex(join(scifact, "vault"), "similar-index");
  const texts = new Map(await Promise.all([...pathOfId.values()].map(async (path) => [path, await vault.read(path)] as const)));
  const baseline = tfidfBaseline(texts);
  const ours = await relatedLists(index, related.keys(), 10);
  // Time per note over a spread of notes, not only the co-cited ones.
  const timed = await relatedLists(index, [...pathOfId.values()].filter((_, position) => position % 50 === 0), 10);
  await index.dispose();
  const figures = (listOf: (path: string) => string[]) => {
    let recall = 0;
    let reciprocal = 0;
    for (const [path, wanted] of related) {
      const list = listOf(path);
      recall += list.filter((other) => wanted.has(other)).length / wanted.size;
      const first = list.findIndex((other) => wanted.has(other));
      reciprocal += first >= 0 ? 1 / (first + 1) : 0;
    }
    return `recall@10 ${(recall / related.size).toFixed(3)}, MRR ${(reciprocal / related.size).toFixed(3)}`;
  };
  return [
    `SciFact (5,183 abstracts; ${related.size} co-cited with others for one claim):`,
    `  similar (NoteIndex.similar):             ${figures((path) => ours.lists.get(path) ?? [])}`,
    `  tf-idf cosine baseline (whole notes):    ${figures((path) => baseline(path, 10))}`,
    `  time a note at 5,183 notes: median ${percentile(timed.times, 0.5).toFixed(1)} ms, p95 ${percentile(timed.times, 0.95).toFixed(1)} ms (${timed.times.length} notes)`,
  ];
}

async function documentation(): Promise<string[]> {
  const docs = ensureDocsVault(join(data, "docs-vault"));
  const { index, vault } = await openIndex(docs.vault, "similar-docs-index");
  const texts = new Map(await Promise.all([...docs.sectionOf.keys()].map(async (path) => [path, await vault.read(path)] as const)));
  const baseline = tfidfBaseline(texts);
  const ours = await relatedLists(index, docs.sectionOf.keys(), 5);
  await index.dispose();
  const precision = (listOf: (path: string) => string[]) => {
    let sum = 0;
    for (const [path, section] of docs.sectionOf) sum += listOf(path).filter((other) => docs.sectionOf.get(other) === section).length / 5;
    return (sum / docs.sectionOf.size).toFixed(3);
  };
  const sections = new Set(docs.sectionOf.values()).size;
  return [
    `Documentation of npm, fastify and undici (${docs.sectionOf.size} pages in ${sections} sections, links as plain text), same-section P@5:`,
    `  similar (NoteIndex.similar):             ${precision((path) => ours.lists.get(path) ?? [])}`,
    `  tf-idf cosine baseline (whole notes):    ${precision((path) => baseline(path, 5))}`,
  ];
}

async function large(): Promise<string[]> {
  const synthetic = (ensureSyntheticVault as (root: string, count: number) => { vault: string })(join(data, `synthetic-${largeCount}`), largeCount);
  const began = performance.now();
  const { index, vault } = await openIndex(synthetic.vault, `similar-synthetic-${largeCount}`);
  const openMs = performance.now() - began;
  const paths = (await vault.listNotes()).filter((_, position) => position % Math.max(1, Math.floor(largeCount / 60)) === 0);
  // The first call also measures each note's vector length (one pass over the postings), kept until the index changes.
  const first = performance.now();
  await index.similar(paths[0]!, { limit: 10 });
  const firstMs = performance.now() - first;
  const timed = await relatedLists(index, paths.slice(1), 10);
  await index.dispose();
  return [
    `Generated vault of ${largeCount} notes (index opened in ${(openMs / 1000).toFixed(1)} s): time a note median ${percentile(timed.times, 0.5).toFixed(1)} ms, ` +
      `p95 ${percentile(timed.times, 0.95).toFixed(1)} ms (${timed.times.length} notes); the first after a change ${firstMs.toFixed(0)} ms (vector lengths made again)`,
  ];
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

async function main(): Promise<void> {
  const lines = ["Related notes", ...(await sciFact()), ...(await documentation()), ...(await large()), ""];
  process.stdout.write(lines.join("\n"));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
