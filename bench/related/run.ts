// How long inline completion's related passages take to find (the settings' "Related notes"): the
// search benchmark's generated vault of 50,000 notes (`--notes N` for another size) through FsVault
// and the note index, as the editor asks it: for 300 notes, the title and the last 600 characters
// of their first 1,500 as the text being written, words only, three passages read from disk.
// Each lookup runs three times, the fastest kept. Prints p50, p95 and the largest, and how many
// would miss the editor's 150 ms budget (a completion then goes without passages).
import { join } from "node:path";
import { setImmediate } from "node:timers";
import { RELATED_PASSAGES_BUDGET_MS } from "../../src/editor/completer";
import { completionContext } from "../../src/editor/completionContext";
import { relatedPassages } from "../../src/editor/relatedPassages";
import { NoteIndex } from "../../src/search/NoteIndex";
import { FsDataStore } from "../../src/vault/fsDataStore";
import { FsVault } from "../../src/vault/FsVault";
// @ts-expect-error -- a plain .mjs helper shared with the search benchmark
import { ensureSyntheticVault, random } from "../search/syntheticVault.mjs";

const notesArgument = process.argv.indexOf("--notes");
const count = notesArgument > 0 ? Number(process.argv[notesArgument + 1]) : 50_000;
const LOOKUPS = 300;
const REPEATS = 3;
const root = join(process.cwd(), ".bench-data", `synthetic-${count}`);
const yieldNow = () => new Promise<void>((resolve) => setImmediate(resolve));

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
}

async function main(): Promise<void> {
  const generated = (ensureSyntheticVault as (root: string, count: number) => { vault: string; paths: string[] })(root, count);
  const vault = new FsVault(generated.vault);
  const index = new NoteIndex({
    vault,
    store: new FsDataStore(join(root, "related-bench-index")),
    getSettings: () => ({ excludedFolders: [], excludedPatterns: [] }),
    yieldNow,
    saveDelayMs: 3_600_000,
  });
  const building = performance.now();
  await index.start();
  const startMs = performance.now() - building;
  const next = (random as (seed: number) => () => number)(11);
  const times: number[] = [];
  let passages = 0;
  const signal = new AbortController().signal;
  for (let lookup = 0; lookup < LOOKUPS; lookup++) {
    const path = generated.paths[Math.floor(next() * generated.paths.length)] as string;
    const text = (await vault.read(path)).slice(0, 1_500);
    const context = completionContext(path, text, text.length);
    let fastest = Infinity;
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      const began = performance.now();
      const found = await relatedPassages(index, context, signal);
      fastest = Math.min(fastest, performance.now() - began);
      if (repeat === 0) passages += found.length;
    }
    times.push(fastest);
  }
  await index.dispose();
  const over = times.filter((time) => time > RELATED_PASSAGES_BUDGET_MS).length;
  const round = (ms: number) => ms.toFixed(1);
  process.stdout.write(
    [
      `related passages over ${count} notes (index start ${(startMs / 1000).toFixed(1)} s), ${LOOKUPS} lookups, the fastest of ${REPEATS} each, ${(passages / LOOKUPS).toFixed(2)} passages a lookup`,
      `  p50 ${round(percentile(times, 0.5))} ms, p95 ${round(percentile(times, 0.95))} ms, largest ${round(Math.max(...times))} ms`,
      `  past the editor's ${RELATED_PASSAGES_BUDGET_MS} ms budget: ${over} of ${LOOKUPS}`,
    ].join("\n") + "\n",
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
