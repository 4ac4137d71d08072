#!/usr/bin/env node
// The note-search benchmark: quality on BEIR SciFact through the CLI's `search --queries` batch
// (the plugin's own ranking code), then speed and scale side by side with MiniSearch's default
// setup (SciFact, and a generated vault of 50,000 notes). Prints the figures and writes them to
// .bench-data/search-results.json. Before them, known-note recall per language (knownNotes/;
// `--known-notes-only` stops after it, `--misses` lists its misses), then the build of one 50 MB
// note of distinct words in a child process, its time and peak memory (`--big-note-only` stops
// after it). Runs on its own
// (`node bench/search/run.mjs [--notes N] [--known-notes-only] [--big-note-only] [--misses]`) or
// from bench/run.mjs. Generated data goes under .bench-data/ (git-ignored) and is reused.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import esbuild from "esbuild";
import { evaluate, parseRankings, readPaths, readQrels } from "./evaluate.mjs";
import { ensureSyntheticVault, random } from "./syntheticVault.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const data = join(repo, ".bench-data");
const shared = join(repo, "..", "shared", "bench");
const scifactData = join(shared, "scifact");
const notesArgument = process.argv.indexOf("--notes");
const syntheticCount = notesArgument > 0 ? Number(process.argv[notesArgument + 1]) : 50_000;

function step(text) {
  process.stderr.write(`\n== ${text}\n`);
}

function run(args, options = {}) {
  const began = performance.now();
  const result = spawnSync(process.execPath, args, { encoding: "utf8", maxBuffer: 1 << 30, ...options });
  if (result.status !== 0) throw new Error(`${args.join(" ")} failed (${result.status}): ${result.stderr}`);
  return { stdout: result.stdout, ms: performance.now() - began };
}

async function bundle(entry, outfile) {
  await esbuild.build({ entryPoints: [join(repo, entry)], bundle: true, format: "cjs", platform: "node", target: "node20", outfile, logLevel: "warning" });
  return outfile;
}

const loadAtStart = loadavg()[0];
mkdirSync(data, { recursive: true });
step("building the CLI and the speed benchmark");
const cli = await bundle("src/cli/bin.ts", join(data, "bench-cli.js"));
const speed = await bundle("bench/search/speed.ts", join(data, "bench-speed.js"));
const knownNotes = await bundle("bench/search/knownNotes/run.ts", join(data, "bench-known-notes.js"));
const bigNote = await bundle("bench/search/bigNote.ts", join(data, "bench-big-note.js"));

step("known-note recall per language (bench/search/knownNotes)");
const knownNotesRun = run([knownNotes, ...(process.argv.includes("--misses") ? ["--misses"] : [])], { cwd: repo });
process.stdout.write(knownNotesRun.stdout.trim().split("\n").slice(0, -1).join("\n") + "\n");
const knownNotesFigures = JSON.parse(knownNotesRun.stdout.trim().split("\n").pop());
if (process.argv.includes("--known-notes-only")) process.exit(0);

step("one 50 MB note of distinct words: build from the folder, in a child process of its own");
// The old-space limit is far above the goal (1 GB), so the peak is what the build needs, not
// what a tight limit would squeeze it into.
const bigNoteRun = run(["--max-old-space-size=4096", bigNote, join(data, "big-note"), "50"]);
const bigNoteFigures = JSON.parse(bigNoteRun.stdout.trim().split("\n").pop());
const gb = (bytes) => (bytes / 1e9).toFixed(2);
console.log(
  `One note of 50 MB, ${bigNoteFigures.terms} distinct terms: build ${(bigNoteFigures.buildMs / 1000).toFixed(1)} s ` +
    `(CPU ${(bigNoteFigures.buildCpuMs / 1000).toFixed(1)} s), peak memory ${gb(bigNoteFigures.buildPeakBytes)} GB; ` +
    `save ${(bigNoteFigures.saveMs / 1000).toFixed(1)} s, peak through the save and a reload ${gb(bigNoteFigures.peakBytes)} GB (load average ${loadavg()[0].toFixed(1)})`,
);
if (process.argv.includes("--big-note-only")) process.exit(0);

step("SciFact vault");
const scifact = join(data, "scifact");
if (!existsSync(join(scifact, "paths.tsv"))) run([join(shared, "make-scifact-vault.mjs"), scifact]);
const scifactVault = join(scifact, "vault");
const queriesFile = join(scifactData, "queries.test.jsonl");
const qrels = readQrels(join(scifactData, "qrels.test.tsv"));
const idOfPath = readPaths(join(scifact, "paths.tsv"));

step("quality: vault-copilot search --queries (first run builds the index, the second reuses it)");
rmSync(join(scifactVault, ".obsidian"), { recursive: true, force: true });
const batch = ["search", "--vault", scifactVault, "--queries", queriesFile, "--limit", "100"];
const firstRun = run([cli, ...batch]);
const secondRun = run([cli, ...batch]);
if (firstRun.stdout !== secondRun.stdout) throw new Error("the second run (reused index) ranked differently from the first");
const quality = evaluate(parseRankings(firstRun.stdout), qrels, idOfPath);

step(`generated vault of ${syntheticCount} notes`);
const syntheticRoot = join(data, `synthetic-${syntheticCount}`);
const generateBegan = performance.now();
const synthetic = ensureSyntheticVault(syntheticRoot, syntheticCount);
process.stderr.write(`  ${synthetic.generated ? "written" : "reused"} in ${((performance.now() - generateBegan) / 1000).toFixed(1)} s\n`);
// Queries like a person's: one to four words of middling frequency, now and then a common word.
const next = random(7);
const pick = () => synthetic.words[Math.floor(Math.exp(Math.log(30) + next() * (Math.log(30_000) - Math.log(30))))];
const syntheticQueries = Array.from({ length: 300 }, () => {
  const words = Array.from({ length: 1 + Math.floor(next() * 4) }, pick);
  if (next() < 0.3) words.push(synthetic.words[Math.floor(next() * 30)]);
  return words.join(" ");
});

step("speed and scale, ours and MiniSearch, same notes, same process");
const scifactQueries = readFileSync(queriesFile, "utf8").trim().split("\n").map((line) => JSON.parse(line));
const miniSearchRankings = join(data, "minisearch-scifact.jsonl");
const configs = [
  {
    name: "scifact",
    vault: scifactVault,
    work: join(data, "work-scifact"),
    queries: scifactQueries.map((query) => query.text),
    rankingsOut: { file: miniSearchRankings, ids: scifactQueries.map((query) => query._id), limit: 100 },
  },
  { name: `synthetic${syntheticCount}`, vault: synthetic.vault, work: join(data, `work-synthetic-${syntheticCount}`), queries: syntheticQueries },
];
const configFile = join(data, "speed-config.json");
writeFileSync(configFile, JSON.stringify(configs));
const speedRun = run(["--expose-gc", "--max-old-space-size=4096", speed, configFile], { stdio: ["ignore", "pipe", "inherit"] });
const figures = JSON.parse(speedRun.stdout.trim().split("\n").pop());
const miniSearchQuality = evaluate(parseRankings(readFileSync(miniSearchRankings, "utf8")), qrels, idOfPath);

const results = {
  measuredAt: new Date().toISOString(),
  // Other work on the machine slows every timing; the 1-minute load average says how much there was.
  loadAverageAtStart: loadAtStart,
  loadAverageAtEnd: loadavg()[0],
  quality: {
    ours: quality,
    miniSearchDefault: miniSearchQuality,
    baselines: { anseriniBm25Flat: { ndcgAt10: 0.6789, recallAt100: 0.9253 } },
    cliFirstRunMs: firstRun.ms,
    cliSecondRunMs: secondRun.ms,
  },
  speed: figures,
  knownNotes: knownNotesFigures,
  bigNote: bigNoteFigures,
};
writeFileSync(join(data, "search-results.json"), `${JSON.stringify(results, null, 2)}\n`);

const ms = (value) => (value === undefined ? "-" : value < 10 ? value.toFixed(2) : value.toFixed(0));
const mb = (bytes) => (bytes / 1e6).toFixed(1);
console.log("\nNote search: quality on BEIR SciFact (300 test queries)");
console.log(`  ours (CLI --queries)   nDCG@10 ${quality.ndcgAt10.toFixed(4)}   R@100 ${quality.recallAt100.toFixed(4)}`);
console.log(`  MiniSearch default     nDCG@10 ${miniSearchQuality.ndcgAt10.toFixed(4)}   R@100 ${miniSearchQuality.recallAt100.toFixed(4)}`);
console.log("  Anserini BM25 flat     nDCG@10 0.6789   R@100 0.9253   (goal: nDCG@10 >= 0.69)");
console.log(`  CLI batch, first run (builds the index) ${ms(firstRun.ms)} ms; second run (reuses it) ${ms(secondRun.ms)} ms`);
for (const [name, { ours, miniSearch }] of Object.entries(figures)) {
  console.log(`\nSpeed: ${name} (${ours.notes} notes, ${ours.terms} terms)          ours        MiniSearch`);
  const row = (label, a, b) => console.log(`  ${label.padEnd(44)}${String(a).padStart(10)}  ${String(b).padStart(12)}`);
  row("build in memory, ms", ms(ours.buildInMemoryMs), ms(miniSearch.buildInMemoryMs));
  row("  the same, CPU time of the process, ms", ms(ours.buildInMemoryCpuMs), ms(miniSearch.buildInMemoryCpuMs));
  row("build from the folder (list, stat, read), ms", ms(ours.buildFromDiskMs), "-");
  row("  the same, CPU time of the process, ms", ms(ours.buildFromDiskCpuMs), "-");
  row("query p50, ms", ms(ours.queryP50Ms), ms(miniSearch.queryP50Ms));
  row("query p95, ms", ms(ours.queryP95Ms), ms(miniSearch.queryP95Ms));
  row("one-note update in memory, median ms", ms(ours.updateInMemoryMedianMs), ms(miniSearch.updateInMemoryMedianMs));
  row("one-note update in memory, p95 ms", ms(ours.updateInMemoryP95Ms), ms(miniSearch.updateInMemoryP95Ms));
  row("one-note update via the vault (read+index), ms", ms(ours.updateEndToEndMedianMs), "-");
  row("save, ms", ms(ours.saveMs), ms(miniSearch.saveMs));
  row("index file, MB", mb(ours.fileBytes), mb(miniSearch.fileBytes));
  row("load from disk, ms", ms(ours.loadOnlyMs), ms(miniSearch.loadMs));
  row("load + check every note's stat, ms", ms(ours.loadAndReconcileMs), "-");
  row("heap + array buffers, MB", mb(ours.heapBytes), mb(miniSearch.heapBytes));
  row("longest slice on the thread (build), ms", ms(ours.longestSliceMs), "-");
  row("longest slice on the thread (load), ms", ms(ours.loadLongestSliceMs), "-");
  row("event-loop max delay during build, ms", ms(ours.eventLoopMaxDelayMs), "-");
  row("event-loop max delay during load, ms", ms(ours.loadEventLoopMaxDelayMs), "-");
}
console.log(`\nLoad average (1 min) at start ${results.loadAverageAtStart.toFixed(2)}, at end ${results.loadAverageAtEnd.toFixed(2)}, on ${availableParallelism()} cores.`);
console.log(`Figures written to ${join(data, "search-results.json")}`);
