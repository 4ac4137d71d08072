// Scoring rankings against BEIR relevance judgments, as ../shared/bench/README.md describes:
// nDCG@10 with graded gains, a log2 discount and the ideal DCG from the judged documents of the
// query; recall@100 as the share of a query's relevant documents in its first 100 results;
// both averaged over every judged query (a query with no results scores 0).
import { readFileSync } from "node:fs";

/** query id -> (corpus id -> gain) */
export function readQrels(file) {
  const qrels = new Map();
  for (const line of readFileSync(file, "utf8").trim().split("\n").slice(1)) {
    const [query, doc, score] = line.split("\t");
    if (!qrels.has(query)) qrels.set(query, new Map());
    qrels.get(query).set(doc, Number(score));
  }
  return qrels;
}

/** vault-relative path -> corpus id, from make-scifact-vault.mjs's paths.tsv */
export function readPaths(file) {
  return new Map(readFileSync(file, "utf8").trim().split("\n").slice(1).map((line) => line.split("\t")));
}

/** `rankings`: query id -> ranked note paths. */
export function evaluate(rankings, qrels, idOfPath) {
  let ndcg = 0;
  let recall = 0;
  for (const [query, judged] of qrels) {
    const ranked = (rankings.get(query) ?? []).map((path) => idOfPath.get(path) ?? path);
    let dcg = 0;
    ranked.slice(0, 10).forEach((doc, rank) => {
      dcg += (judged.get(doc) ?? 0) / Math.log2(rank + 2);
    });
    const ideal = [...judged.values()]
      .filter((gain) => gain > 0)
      .sort((a, b) => b - a)
      .slice(0, 10)
      .reduce((sum, gain, rank) => sum + gain / Math.log2(rank + 2), 0);
    ndcg += ideal > 0 ? dcg / ideal : 0;
    const relevant = [...judged].filter(([, gain]) => gain > 0).map(([doc]) => doc);
    const found = new Set(ranked.slice(0, 100));
    recall += relevant.length > 0 ? relevant.filter((doc) => found.has(doc)).length / relevant.length : 0;
  }
  return { ndcgAt10: ndcg / qrels.size, recallAt100: recall / qrels.size, queries: qrels.size };
}

/** Rankings from JSON lines `{"id","results":[{"path","score"}]}` (the CLI's --queries output). */
export function parseRankings(text) {
  const rankings = new Map();
  for (const line of text.trim().split("\n")) {
    if (!line) continue;
    const { id, results } = JSON.parse(line);
    rankings.set(String(id), results.map((hit) => hit.path));
  }
  return rankings;
}
