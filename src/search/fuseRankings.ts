/** The constant of reciprocal rank fusion: how much the first places count over the later ones. */
export const RRF_K = 60;

/**
 * Weighted reciprocal rank fusion: list i votes weights[i] / (k + rank) for each of its paths
 * (rank from 1; weight 1 when not given), and the paths are ordered by their summed votes. It
 * needs no common scale between the lists (word scores are BM25F, vector scores cosines), and a
 * path both lists rank high beats one that only one list has. Ties keep the first list's order.
 */
export function fuseRankings(lists: ReadonlyArray<ReadonlyArray<{ path: string }>>, limit: number, k = RRF_K, weights: readonly number[] = []): Array<{ path: string; score: number }> {
  const scores = new Map<string, number>();
  const firstSeen = new Map<string, number>();
  let order = 0;
  lists.forEach((list, position) => {
    const weight = weights[position] ?? 1;
    list.forEach((item, index) => {
      scores.set(item.path, (scores.get(item.path) ?? 0) + weight / (k + index + 1));
      if (!firstSeen.has(item.path)) firstSeen.set(item.path, order++);
    });
  });
  return [...scores]
    .map(([path, score]) => ({ path, score }))
    .sort((a, b) => b.score - a.score || (firstSeen.get(a.path) ?? 0) - (firstSeen.get(b.path) ?? 0))
    .slice(0, limit);
}

/**
 * How much meaning counts beside words in `blendRankings`. Chosen by measurement (SEARCH.md,
 * `npm run bench -- hybrid`): with a weak embedding model, anything that lets meaning reorder the
 * top word matches costs the word ranking's quality; at this weight it costs nothing, and notes
 * found by meaning alone still come in after the word matches.
 */
export const MEANING_WEIGHT = 0.15;

/**
 * Words and meaning blended: each list's scores scaled to 0..1 (min-max over the list), then
 * (1 − w) × words + w × meaning, a note missing from a list counting 0 there.
 */
export function blendRankings(
  words: ReadonlyArray<{ path: string; score: number }>,
  meaning: ReadonlyArray<{ path: string; score: number }>,
  limit: number,
  meaningWeight = MEANING_WEIGHT,
): Array<{ path: string; score: number }> {
  const scores = new Map<string, number>();
  const add = (list: ReadonlyArray<{ path: string; score: number }>, weight: number) => {
    if (list.length === 0) return;
    let max = -Infinity;
    let min = Infinity;
    for (const item of list) {
      max = Math.max(max, item.score);
      min = Math.min(min, item.score);
    }
    for (const item of list) scores.set(item.path, (scores.get(item.path) ?? 0) + weight * (max > min ? (item.score - min) / (max - min) : 1));
  };
  add(words, 1 - meaningWeight);
  add(meaning, meaningWeight);
  return [...scores]
    .map(([path, score]) => ({ path, score }))
    .sort((a, b) => b.score - a.score || a.path.localeCompare(b.path))
    .slice(0, limit);
}
