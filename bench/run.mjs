#!/usr/bin/env node
// `npm run bench [-- NAME ...]`: runs every benchmark folder's entry, bench/<name>/run.mjs (or
// run.ts, bundled with esbuild first), one after the other, in name order; with names, only those.
// Each benchmark prints its own figures. Exits non-zero if any of them failed.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import esbuild from "esbuild";

const benchDir = dirname(fileURLToPath(import.meta.url));
const repo = resolve(benchDir, "..");
const wanted = new Set(process.argv.slice(2));

const entries = readdirSync(benchDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && (wanted.size === 0 || wanted.has(entry.name)))
  .map((entry) => ({ name: entry.name, file: ["run.mjs", "run.ts"].map((file) => join(benchDir, entry.name, file)).find(existsSync) }))
  .filter((entry) => entry.file)
  .sort((left, right) => left.name.localeCompare(right.name));

for (const name of wanted) {
  if (!entries.some((entry) => entry.name === name)) {
    process.stderr.write(`bench: no bench/${name}/run.mjs or run.ts\n`);
    process.exit(2);
  }
}

const failed = [];
for (const { name, file } of entries) {
  process.stdout.write(`\n#### bench/${name}\n`);
  let script = file;
  if (file.endsWith(".ts")) {
    mkdirSync(join(repo, ".bench-data"), { recursive: true });
    script = join(repo, ".bench-data", `bench-${name}.js`);
    // playwright-core stays a require of node_modules: it reads its own files next to it at run time.
    await esbuild.build({ entryPoints: [file], bundle: true, format: "cjs", platform: "node", target: "node20", outfile: script, external: ["playwright-core"], logLevel: "warning" });
  }
  const result = spawnSync(process.execPath, [script], { cwd: repo, stdio: "inherit" });
  if (result.status !== 0) failed.push(`${name} (exit ${result.status ?? result.signal})`);
}
if (failed.length > 0) {
  process.stderr.write(`\nbench: failed: ${failed.join(", ")}\n`);
  process.exit(1);
}
