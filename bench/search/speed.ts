// Speed and scale of the note index, side by side with MiniSearch's default setup over the same
// notes, in one process. Bundled and run by bench/search/run.mjs (node --expose-gc); prints a
// JSON object with every figure as its last line, and progress on stderr.
import { promises as fs, writeFileSync } from "node:fs";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setImmediate } from "node:timers";
import MiniSearch from "minisearch";
import { loadIndex } from "../../src/search/indexStore";
import { InvertedIndex } from "../../src/search/InvertedIndex";
import { NoteIndex } from "../../src/search/NoteIndex";
import { extractFieldTerms, noteTitle } from "../../src/search/noteFields";
import { TimeSlicer } from "../../src/search/TimeSlicer";
import { Tokenizer } from "../../src/search/tokenizer";
import { dailyNoteDayKey } from "../../src/search/timeRange";
import { FsDataStore } from "../../src/vault/fsDataStore";
import { FsVault } from "../../src/vault/FsVault";

interface CorpusConfig {
  name: string;
  vault: string;
  /** Where this run keeps its index files (never the vault's own plugin folder). */
  work: string;
  queries: string[];
  /** When set, MiniSearch's rankings for `queries` (with these ids) are written here as JSON lines. */
  rankingsOut?: { file: string; ids: string[]; limit: number };
}

const NO_EXCLUSIONS = { excludedFolders: [], excludedPatterns: [] };
const yieldNow = () => new Promise<void>((resolve) => setImmediate(resolve));
const log = (text: string) => process.stderr.write(`  ${text}\n`);

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
  (globalThis as { gc?: () => void }).gc?.();
}

function memory(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/** CPU time of this process since `since` (main thread, plus the pool and the collector). */
function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
}

async function timeQueries(queries: string[], run: (query: string) => unknown) {
  for (const query of queries.slice(0, 20)) await run(query);
  const times: number[] = [];
  for (const query of queries) {
    const began = performance.now();
    await run(query);
    times.push(performance.now() - began);
  }
  return { p50Ms: percentile(times, 0.5), p95Ms: percentile(times, 0.95), queries: times.length };
}

async function readAll(vault: FsVault): Promise<{ path: string; text: string; mtime: number; size: number }[]> {
  const paths = await vault.listNotes();
  const notes: { path: string; text: string; mtime: number; size: number }[] = [];
  for (let start = 0; start < paths.length; start += 64) {
    const batch = paths.slice(start, start + 64);
    const read = await Promise.all(batch.map(async (path) => ({ path, text: await vault.read(path), stat: await vault.stat(path) })));
    for (const note of read) notes.push({ path: note.path, text: note.text, mtime: note.stat?.mtime ?? 0, size: note.stat?.size ?? 0 });
  }
  return notes;
}

/** Ours as the plugin runs it: built from the folder, saved, queried, updated, loaded again. */
async function oursFromFolder(config: CorpusConfig) {
  const vault = new FsVault(config.vault);
  const storeFolder = join(config.work, "ours");
  await fs.rm(storeFolder, { recursive: true, force: true });
  const store = new FsDataStore(storeFolder);
  const open = () => new NoteIndex({ vault, store, getSettings: () => NO_EXCLUSIONS, yieldNow, saveDelayMs: 3_600_000 });

  // Build from the folder, as the plugin's first start does: list, stat, read, index.
  const lag = monitorEventLoopDelay({ resolution: 5 });
  lag.enable();
  const index = open();
  const began = performance.now();
  const diskCpu = process.cpuUsage();
  const report = await index.start();
  const buildFromDiskMs = performance.now() - began;
  const buildFromDiskCpuMs = cpuMs(diskCpu);
  lag.disable();
  log(`ours: built ${report.indexed} notes from disk in ${buildFromDiskMs.toFixed(0)} ms`);

  const saveBegan = performance.now();
  await index.save();
  const saveMs = performance.now() - saveBegan;
  let fileBytes = 0;
  for (const name of await fs.readdir(storeFolder)) fileBytes += (await fs.stat(join(storeFolder, name))).size;

  const query = await timeQueries(config.queries, (text) => index.rank(text, { limit: 10 }));
  log(`ours: queries p50 ${query.p50Ms.toFixed(2)} ms, p95 ${query.p95Ms.toFixed(2)} ms`);

  // One-note update, end to end: an edit through the vault, then the index applies it (stat, read, re-index).
  const updateTimes: number[] = [];
  const paths = await vault.listNotes();
  for (let n = 0; n < 40; n++) {
    const path = paths[(n * 7919) % paths.length] ?? "";
    const original = await vault.read(path);
    await vault.process(path, (text) => `${text}\nEdited ${n} for the benchmark.`);
    const updateBegan = performance.now();
    await index.flush();
    updateTimes.push(performance.now() - updateBegan);
    // Put the note back, so the benchmark vaults stay as they were made.
    await vault.process(path, () => original);
    await index.flush();
  }
  await index.dispose();

  // Load from disk on the next start: decode the file, then check every note's stat (none changed but the edited).
  const loadLag = monitorEventLoopDelay({ resolution: 5 });
  loadLag.enable();
  const reopened = open();
  const loadBegan = performance.now();
  const loadReport = await reopened.start();
  const loadAndReconcileMs = performance.now() - loadBegan;
  loadLag.disable();
  await reopened.dispose();
  const slicer = new TimeSlicer({ yieldNow });
  const decodeBegan = performance.now();
  const loaded = await loadIndex(store, slicer);
  const loadOnlyMs = performance.now() - decodeBegan;
  if (!loaded.loaded) throw new Error(`benchmark: the saved index did not load (${loaded.reason})`);

  return {
    notes: report.indexed,
    terms: index.termCount,
    buildFromDiskMs,
    buildFromDiskCpuMs,
    longestSliceMs: report.longestSliceMs,
    eventLoopMaxDelayMs: lag.max / 1e6,
    saveMs,
    fileBytes,
    loadOnlyMs,
    loadAndReconcileMs,
    loadRereadNotes: loadReport.indexed,
    loadLongestSliceMs: loadReport.longestSliceMs,
    loadEventLoopMaxDelayMs: loadLag.max / 1e6,
    queryP50Ms: query.p50Ms,
    queryP95Ms: query.p95Ms,
    updateEndToEndMedianMs: percentile(updateTimes, 0.5),
    updateEndToEndP95Ms: percentile(updateTimes, 0.95),
  };
}


async function oursInMemory(notes: Awaited<ReturnType<typeof readAll>>) {
  // For comparison with MiniSearch, which never reads files: index the same texts in memory.
  // Run after the folder benchmark has returned, so nothing else of ours is alive: the heap
  // figure is the index's own (with its tokenizer's cache).
  gc();
  const before = memory();
  const tokenizer = new Tokenizer();
  const memoryBegan = performance.now();
  const memoryCpu = process.cpuUsage();
  const inMemory = new InvertedIndex();
  for (const note of notes) {
    inMemory.add({ path: note.path, mtime: note.mtime, size: note.size, dayKey: dailyNoteDayKey(note.path) }, extractFieldTerms(note.path, note.text, tokenizer));
  }
  const compactSlicer = new TimeSlicer({ yieldNow });
  await inMemory.compact(compactSlicer);
  const buildInMemoryMs = performance.now() - memoryBegan;
  const buildInMemoryCpuMs = cpuMs(memoryCpu);
  gc();
  const heapBytes = memory() - before;
  const memoryUpdates: number[] = [];
  for (let n = 0; n < 200; n++) {
    const note = notes[(n * 104_729) % notes.length];
    if (!note) continue;
    const updateBegan = performance.now();
    inMemory.add({ path: note.path, mtime: note.mtime + 1, size: note.size, dayKey: 0 }, extractFieldTerms(note.path, `${note.text}\nEdited.`, tokenizer));
    memoryUpdates.push(performance.now() - updateBegan);
  }

  return {
    buildInMemoryMs,
    buildInMemoryCpuMs,
    updateInMemoryMedianMs: percentile(memoryUpdates, 0.5),
    updateInMemoryP95Ms: percentile(memoryUpdates, 0.95),
    heapBytes,
  };
}

async function miniSearch(config: CorpusConfig, notes: Awaited<ReturnType<typeof readAll>>) {
  // MiniSearch's default setup: the fields to index are the only required option.
  const options = { fields: ["title", "text"] };
  const documents = notes.map((note) => ({ id: note.path, title: noteTitle(note.path), text: note.text }));
  gc();
  const before = memory();
  const began = performance.now();
  const cpu = process.cpuUsage();
  const index = new MiniSearch(options);
  index.addAll(documents);
  const buildInMemoryMs = performance.now() - began;
  const buildInMemoryCpuMs = cpuMs(cpu);
  gc();
  const heapBytes = memory() - before;
  log(`MiniSearch: built ${index.documentCount} notes in memory in ${buildInMemoryMs.toFixed(0)} ms`);

  const query = await timeQueries(config.queries, (text) => index.search(text).slice(0, 10));
  log(`MiniSearch: queries p50 ${query.p50Ms.toFixed(2)} ms, p95 ${query.p95Ms.toFixed(2)} ms`);

  const updateTimes: number[] = [];
  for (let n = 0; n < 200; n++) {
    const document = documents[(n * 104_729) % documents.length];
    if (!document) continue;
    const updateBegan = performance.now();
    index.replace({ ...document, text: `${document.text}\nEdited.` });
    updateTimes.push(performance.now() - updateBegan);
  }

  const file = join(config.work, "minisearch.json");
  const saveBegan = performance.now();
  await fs.writeFile(file, JSON.stringify(index));
  const saveMs = performance.now() - saveBegan;
  const loadBegan = performance.now();
  const loaded = MiniSearch.loadJSON(await fs.readFile(file, "utf8"), options);
  const loadMs = performance.now() - loadBegan;

  if (config.rankingsOut) {
    const { file: out, ids, limit } = config.rankingsOut;
    const lines = config.queries.map((text, n) => JSON.stringify({ id: ids[n], results: loaded.search(text).slice(0, limit).map((hit) => ({ path: hit.id as string, score: hit.score })) }));
    writeFileSync(out, `${lines.join("\n")}\n`);
  }
  return {
    notes: index.documentCount,
    buildInMemoryMs,
    buildInMemoryCpuMs,
    saveMs,
    fileBytes: (await fs.stat(file)).size,
    loadMs,
    queryP50Ms: query.p50Ms,
    queryP95Ms: query.p95Ms,
    updateInMemoryMedianMs: percentile(updateTimes, 0.5),
    updateInMemoryP95Ms: percentile(updateTimes, 0.95),
    heapBytes,
  };
}

async function main(): Promise<void> {
  const configs = JSON.parse(await fs.readFile(process.argv[2] ?? "", "utf8")) as CorpusConfig[];
  const results: Record<string, unknown> = {};
  for (const config of configs) {
    process.stderr.write(`${config.name}\n`);
    await fs.mkdir(config.work, { recursive: true });
    // The folder benchmark runs first, before the notes are held in memory for the others.
    const fromFolder = await oursFromFolder(config);
    const notes = await readAll(new FsVault(config.vault));
    gc();
    const ours = { ...fromFolder, ...(await oursInMemory(notes)) };
    gc();
    results[config.name] = { ours, miniSearch: await miniSearch(config, notes) };
    gc();
  }
  process.stdout.write(`${JSON.stringify(results)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
