// The note tools at scale: one call of readNote (by name and by path), getBacklinks, and the note
// lookup replaceInFile makes, over the search benchmark's generated vault of 50,000 notes
// (`--notes N` for another size) through FsVault, as the CLI's agent runs them. Prints the median
// of a few calls after a first one, and how many times each call listed the vault. The vault is
// generated once under .bench-data/ (git-ignored) and reused.
import { join } from "node:path";
import { getBacklinks } from "../../src/tools/notes/getBacklinks";
import { NoteLookup } from "../../src/tools/notes/noteLookup";
import { readNote } from "../../src/tools/notes/readNote";
import { FsVault } from "../../src/vault/FsVault";
// @ts-expect-error -- a plain .mjs helper shared with the search benchmark
import { ensureSyntheticVault } from "../search/syntheticVault.mjs";

const notesArgument = process.argv.indexOf("--notes");
const count = notesArgument > 0 ? Number(process.argv[notesArgument + 1]) : 50_000;
// Run from the repository (bench/run.mjs does), so the data lands in its .bench-data/.
const repo = process.cwd();
const root = join(repo, ".bench-data", `synthetic-${count}`);
const CALLS = 5;

/** FsVault that counts its listings, to show which calls walk the whole vault. */
class CountingVault extends FsVault {
  listings = 0;
  override listFiles(): Promise<string[]> {
    this.listings++;
    return super.listFiles();
  }
}

async function measure(name: string, vault: CountingVault, call: () => Promise<unknown>): Promise<string> {
  await call();
  const times: number[] = [];
  const before = vault.listings;
  for (let index = 0; index < CALLS; index++) {
    const began = performance.now();
    await call();
    times.push(performance.now() - began);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] ?? 0;
  return `${name.padEnd(34)} ${median.toFixed(1).padStart(9)} ms   ${((vault.listings - before) / CALLS).toFixed(1)} listings per call`;
}

async function main(): Promise<void> {
  // The search benchmark's vault, left as it is (the tools only read it).
  const generated = (ensureSyntheticVault as (root: string, count: number) => { vault: string; paths: string[] })(root, count);
  const target = generated.paths[Math.floor(generated.paths.length / 2)] ?? "";
  const name = target.slice(target.lastIndexOf("/") + 1, -".md".length);
  const vault = new CountingVault(generated.vault);
  const signal = new AbortController().signal;
  const lines = [
    await measure("readNote by name", vault, () => readNote(vault, name, 0)),
    await measure("readNote by path", vault, () => readNote(vault, target, 0)),
    await measure("replaceInFile's note lookup", vault, async () => (await NoteLookup.of(vault)).resolve(target)),
    await measure("getBacklinks", vault, () => getBacklinks(vault, name, 50, signal)),
  ];
  process.stdout.write(`note tools over ${count} notes (FsVault, median of ${CALLS} calls after a first)\n${lines.join("\n")}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
