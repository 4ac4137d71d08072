#!/usr/bin/env node
// `npm run release:check [-- --dir DIR]`: what must hold before a release. The three versions
// agree (package.json, manifest.json, versions.json) and CHANGELOG.md has the version's section;
// the manifest passes the community directory's rules; minAppVersion is the oldest Obsidian with
// every API main.js's code uses (from obsidian.d.ts's @since tags); isDesktopOnly is false and
// main.js loads no Node module on mobile. --dir reads the three files and CHANGELOG.md from
// another folder (the tests' temporary copies); the code checked is always this repository's.
// Exits 0 when everything holds, 1 listing the problems, 2 on bad arguments.
import esbuild from "esbuild";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const { pluginBuildOptions } = require("../esbuild.options.js");
const { checkDesktopOnly, checkManifest, checkMinAppVersion, checkVersions } = require("./release/releaseChecks.js");
const { obsidianApisUsed, sourceFilesInBundle } = require("./release/obsidianApiMinimum.js");

const args = process.argv.slice(2);
let dir = repo;
if (args.length > 0) {
  if (args[0] !== "--dir" || !args[1] || args.length > 2) {
    process.stderr.write("usage: npm run release:check [-- --dir DIR]\n");
    process.exit(2);
  }
  dir = resolve(args[1]);
}

function readJson(name) {
  const path = join(dir, name);
  let text;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    fail([`${name} cannot be read at ${path}: ${error.message}`]);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    fail([`${name} is not valid JSON: ${error.message}`]);
  }
}

function fail(problems) {
  process.stdout.write(`release:check: ${problems.length} problem${problems.length === 1 ? "" : "s"}\n`);
  for (const problem of problems) process.stdout.write(`- ${problem}\n`);
  process.exit(1);
}

const packageJson = readJson("package.json");
const manifest = readJson("manifest.json");
const versions = readJson("versions.json");
let changelog;
try {
  changelog = readFileSync(join(dir, "CHANGELOG.md"), "utf8");
} catch {
  changelog = "";
}

const build = await esbuild.build({ ...pluginBuildOptions(true), absWorkingDir: repo, write: false, metafile: true, logLevel: "silent" });
const apis = obsidianApisUsed(sourceFilesInBundle(build.metafile, repo), join(repo, "tsconfig.json"));

const problems = [
  ...checkVersions({ packageJson, manifest, versions, changelog }),
  ...checkManifest(manifest),
  ...checkMinAppVersion(manifest, apis),
  ...checkDesktopOnly(manifest, build.metafile),
];
if (problems.length > 0) fail(problems);

const newest = apis.filter((api) => api.since === apis[0]?.since).map((api) => api.name);
process.stdout.write(
  `release:check: ${manifest.id} ${manifest.version} is ready to release\n` +
    `- versions agree: package.json, manifest.json, versions.json (${manifest.version} -> ${manifest.minAppVersion}), CHANGELOG.md\n` +
    `- manifest.json passes the directory's rules (description ${[...manifest.description].length} characters)\n` +
    `- minAppVersion ${manifest.minAppVersion}: the newest APIs the code uses are ${newest.join(", ")}\n` +
    "- isDesktopOnly false: main.js loads no Node module until a desktop-only dynamic import\n",
);
