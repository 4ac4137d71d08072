/** The constant of reciprocal rank fusion: how much the first places count over the later ones. */
export const RRF_K = 60;

/**
 * Reciprocal rank fusion: each list votes 1 / (k + rank) for each of its paths (rank from 1), and
 * the paths are ordered by their summed votes. It needs no common scale between the lists (word
 * scores are BM25F, vector scores cosines), and a path both lists rank high beats one that only
 * one list has. Ties keep the first list's order.
 */
export function fuseRankings(lists: ReadonlyArray<ReadonlyArray<{ path: string }>>, limit: number, k = RRF_K): Array<{ path: string; score: number }> {
  const scores = new Map<string, number>();
  const firstSeen = new Map<string, number>();
  let order = 0;
  for (const list of lists) {
    list.forEach((item, index) => {
      scores.set(item.path, (scores.get(item.path) ?? 0) + 1 / (k + index + 1));
      if (!firstSeen.has(item.path)) firstSeen.set(item.path, order++);
    });
  }
  return [...scores]
    .map(([path, score]) => ({ path, score }))
    .sort((a, b) => b.score - a.score || (firstSeen.get(a.path) ?? 0) - (firstSeen.get(b.path) ?? 0))
    .slice(0, limit);
}
