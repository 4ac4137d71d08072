// One huge note: a vault holding a single 50 MB note of distinct words (none repeats), indexed the
// way the plugin's first start does (NoteIndex.start: list, stat, read, index), then saved. Prints
// the build and save times and the process's peak resident memory as a JSON line. Bundled by
// bench/search/run.mjs and run in a child process of its own (with --max-old-space-size high
// enough that the collector does not hide the peak), so the peak is this note's alone.
// `node bench-big-note.js FOLDER [MEGABYTES]`; the vault is written once under FOLDER and reused.
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setImmediate } from "node:timers";
import { NoteIndex } from "../../src/search/NoteIndex";
import { FsDataStore } from "../../src/vault/fsDataStore";
import { FsVault } from "../../src/vault/FsVault";

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** The n-th distinct word: n written in base 26 with letters, after a fixed prefix letter so that no word is a stop word. */
function word(n: number): string {
  let text = "";
  let rest = n;
  do {
    text = LETTERS[rest % 26] + text;
    rest = Math.floor(rest / 26);
  } while (rest > 0);
  return `q${text}`;
}

function writeNote(file: string, bytes: number): number {
  const lines: string[] = [];
  let size = 0;
  let count = 0;
  while (size < bytes) {
    const line: string[] = [];
    for (let n = 0; n < 12; n++) line.push(word(count++));
    const text = line.join(" ");
    lines.push(text);
    size += text.length + 1;
  }
  writeFileSync(file, `# A note of distinct words\n\n${lines.join("\n")}\n`);
  return count;
}

async function main(): Promise<void> {
  const folder = process.argv[2];
  if (!folder) throw new Error("usage: bench-big-note.js FOLDER [MEGABYTES]");
  const megabytes = Number(process.argv[3] ?? 50);
  const vaultFolder = join(folder, `vault-${megabytes}mb`);
  const note = join(vaultFolder, "distinct words.md");
  if (!existsSync(note)) {
    mkdirSync(vaultFolder, { recursive: true });
    writeNote(note, megabytes * 1e6);
  }
  const storeFolder = join(folder, "index");
  rmSync(storeFolder, { recursive: true, force: true });
  const index = new NoteIndex({
    vault: new FsVault(vaultFolder),
    store: new FsDataStore(storeFolder),
    getSettings: () => ({ excludedFolders: [], excludedPatterns: [] }),
    yieldNow: () => new Promise<void>((resolve) => setImmediate(resolve)),
    saveDelayMs: 3_600_000,
  });
  const began = performance.now();
  const cpu = process.cpuUsage();
  const report = await index.start();
  const buildMs = performance.now() - began;
  const buildCpu = process.cpuUsage(cpu);
  const buildCpuMs = (buildCpu.user + buildCpu.system) / 1000;
  const buildPeakBytes = process.resourceUsage().maxRSS * 1024;
  const terms = index.termCount;
  const saveBegan = performance.now();
  await index.dispose();
  const saveMs = performance.now() - saveBegan;
  const hits = await (async () => {
    const reopened = new NoteIndex({ vault: new FsVault(vaultFolder), store: new FsDataStore(storeFolder), getSettings: () => ({ excludedFolders: [], excludedPatterns: [] }) });
    const found = await reopened.rank(word(123_456), { limit: 1 });
    await reopened.dispose();
    return found.length;
  })();
  if (report.indexed !== 1 || hits !== 1) throw new Error(`benchmark: the note was not indexed and found (indexed ${report.indexed}, hits ${hits})`);
  process.stdout.write(`${JSON.stringify({ megabytes, terms, buildMs, buildCpuMs, buildPeakBytes, saveMs, peakBytes: process.resourceUsage().maxRSS * 1024 })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
