// What a project's scope adds to localSearch: the search benchmark's generated vault of 50,000
// notes (`--notes N` for another size) through FsVault and the note index, searched as the
// agent's localSearch searches (`NoteIndex.search`, 10 hits, passages read from disk), once over
// the whole vault and once inside a project that holds half the folders (scopedNoteSearcher: the
// index ranks only the project's notes, the hits are checked again and their links out masked).
// Each query runs both ways five times, interleaved, the fastest of each kept; prints p50 and p95
// of each and of the time the scope added per query (paired), for the ranking alone and for the
// whole search. The vault and the index live under .bench-data/.
import { join } from "node:path";
import { setImmediate } from "node:timers";
import { ProjectScope } from "../../src/projects/ProjectScope";
import type { ProjectDefinition } from "../../src/projects/projectNote";
import { scopedNoteSearcher } from "../../src/projects/scopedSearch";
import { ScopedVault } from "../../src/projects/ScopedVault";
import { NoteIndex } from "../../src/search/NoteIndex";
import { FsDataStore } from "../../src/vault/fsDataStore";
import { FsVault } from "../../src/vault/FsVault";
// @ts-expect-error -- a plain .mjs helper shared with the search benchmark
import { ensureSyntheticVault, random } from "../search/syntheticVault.mjs";

const notesArgument = process.argv.indexOf("--notes");
const count = notesArgument > 0 ? Number(process.argv[notesArgument + 1]) : 50_000;
const QUERIES = 300;
const REPEATS = 5;
const repo = process.cwd();
const root = join(repo, ".bench-data", `synthetic-${count}`);
const yieldNow = () => new Promise<void>((resolve) => setImmediate(resolve));

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
}

async function main(): Promise<void> {
  const generated = (ensureSyntheticVault as (root: string, count: number) => { vault: string; paths: string[]; words: string[] })(root, count);
  const vault = new FsVault(generated.vault);
  const index = new NoteIndex({
    vault,
    store: new FsDataStore(join(root, "projects-bench-index")),
    getSettings: () => ({ excludedFolders: [], excludedPatterns: [] }),
    yieldNow,
    saveDelayMs: 3_600_000,
  });
  await index.start();
  const areas = [...new Set(generated.paths.map((path) => path.slice(0, path.indexOf("/"))))].sort();
  const next = (random as (seed: number) => () => number)(7);
  const words = generated.words.slice(30, 3_000);
  const queries = Array.from({ length: QUERIES }, () => Array.from({ length: 1 + Math.floor(next() * 3) }, () => words[Math.floor(next() * words.length)]).join(" "));
  const lines = [`localSearch over ${count} notes, ${QUERIES} queries of 1-3 words, 10 hits each, each way ${REPEATS} times interleaved (the fastest kept)`];
  // Every folder: the same hits as the whole vault, so the difference is the scope's own cost.
  lines.push(...(await measureProject(index, vault, queries, areas, `a project of all ${areas.length} folders (the same hits: the scope's own cost)`)));
  lines.push(...(await measureProject(index, vault, queries, areas.filter((_area, position) => position % 2 === 0), `a project of ${Math.ceil(areas.length / 2)} of ${areas.length} folders`)));
  await index.dispose();
  process.stdout.write(`${lines.join("\n")}\n`);
}

async function measureProject(index: NoteIndex, vault: FsVault, queries: readonly string[], folders: string[], title: string): Promise<string[]> {
  const project: ProjectDefinition = { name: "Bench", path: "copilot/projects/Bench.md", folders, tags: [], notes: [], urls: [], mcp: [], instructions: "" };
  const scope = new ProjectScope(vault, project, ["copilot/projects", "copilot/chats"]);
  const preparing = performance.now();
  await scope.prepare();
  const prepareMs = performance.now() - preparing;
  const scoped = scopedNoteSearcher(index, scope, new ScopedVault(vault, scope));
  const acceptPath = (path: string) => scope.has(path);
  // Per query, each way REPEATS times, interleaved; the fastest of each is kept, so a pause of the
  // machine (other work, the collector) does not count as the scope's.
  const measure = async (plain: () => Promise<unknown>, withScope: () => Promise<unknown>) => {
    const plainTimes: number[] = [];
    const scopedTimes: number[] = [];
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      for (const [run, times] of repeat % 2 === 0 ? ([[plain, plainTimes], [withScope, scopedTimes]] as const) : ([[withScope, scopedTimes], [plain, plainTimes]] as const)) {
        const began = performance.now();
        await run();
        times.push(performance.now() - began);
      }
    }
    return { plain: Math.min(...plainTimes), scoped: Math.min(...scopedTimes) };
  };
  const ranking = { whole: [] as number[], project: [] as number[], added: [] as number[] };
  const searching = { whole: [] as number[], project: [] as number[], added: [] as number[] };
  let inside = 0;
  let hits = 0;
  for (const query of queries) {
    const ranked = await measure(
      () => index.rank(query, { limit: 10 }),
      () => index.rank(query, { limit: 10, acceptPath }),
    );
    ranking.whole.push(ranked.plain);
    ranking.project.push(ranked.scoped);
    ranking.added.push(ranked.scoped - ranked.plain);
    const searched = await measure(
      () => index.search(query, { limit: 10 }),
      async () => {
        const results = await scoped.search(query, { limit: 10 });
        hits += results.length;
        inside += results.filter((result) => scope.has(result.path)).length;
      },
    );
    searching.whole.push(searched.plain);
    searching.project.push(searched.scoped);
    searching.added.push(searched.scoped - searched.plain);
  }
  scope.dispose();
  if (inside !== hits) throw new Error("a hit outside the project came back");
  const line = (name: string, values: readonly number[]) => `    ${name.padEnd(26)} p50 ${percentile(values, 0.5).toFixed(2).padStart(7)} ms   p95 ${percentile(values, 0.95).toFixed(2).padStart(7)} ms`;
  return [
    `${title}: ${scope.memberPaths().length} notes, worked out once in ${prepareMs.toFixed(0)} ms`,
    "  ranking (NoteIndex.rank, the filter alone):",
    line("whole vault", ranking.whole),
    line("inside the project", ranking.project),
    line("added by the scope", ranking.added),
    "  localSearch (ranking, passages read from disk, links out masked):",
    line("whole vault", searching.whole),
    line("inside the project", searching.project),
    line("added by the scope", searching.added),
  ];
}

main().catch((error: unknown) => {
  process.stderr.write(`bench/projects: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
