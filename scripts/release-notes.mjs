#!/usr/bin/env node
// Prints the notes of a release draft (Markdown): the version and the Obsidian it needs, the size
// of the built main.js against its budget, and the version's section of CHANGELOG.md. Run after
// `npm run build` by .github/workflows/release.yml. Exits 1, saying why, when main.js is not built
// or CHANGELOG.md has no section for the version.
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const { MAIN_JS_BUDGET_BYTES } = require("../esbuild.options.js");

function fail(message) {
  process.stderr.write(`release-notes: ${message}\n`);
  process.exit(1);
}

const manifest = JSON.parse(readFileSync(join(repo, "manifest.json"), "utf8"));
let bytes;
try {
  bytes = statSync(join(repo, "main.js")).size;
} catch {
  fail("main.js is not built; run `npm run build` first.");
}

const changelog = readFileSync(join(repo, "CHANGELOG.md"), "utf8");
const heading = `## [${manifest.version}]`;
const start = changelog.indexOf(heading);
if (start === -1) fail(`CHANGELOG.md has no "${heading}" section.`);
const afterHeading = changelog.indexOf("\n", start) + 1;
const next = changelog.indexOf("\n## [", afterHeading);
const section = changelog.slice(afterHeading, next === -1 ? undefined : next).trim();

const thousands = (value) => value.toLocaleString("en-US");
const share = ((100 * bytes) / MAIN_JS_BUDGET_BYTES).toFixed(1);
process.stdout.write(
  `${manifest.name} ${manifest.version}, for Obsidian ${manifest.minAppVersion} or later, desktop and mobile.\n\n` +
    `main.js: ${thousands(bytes)} bytes (${(bytes / 1024).toFixed(1)} KiB), ${share} % of its ${thousands(MAIN_JS_BUDGET_BYTES)}-byte budget.\n\n` +
    `${section}\n`,
);
