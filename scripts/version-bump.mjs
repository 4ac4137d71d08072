#!/usr/bin/env node
// The `version` script: `npm version patch|minor|major|X.Y.Z` has just written the new version to
// package.json; this writes it to manifest.json and adds it to versions.json (plugin version ->
// the manifest's minAppVersion, the map Obsidian reads to offer an older app the newest release it
// can run). The `version` script then stages both files, so npm's version commit holds all three.
// Runs in the current folder (npm runs scripts from the package's root).
import { readFileSync, writeFileSync } from "node:fs";

function fail(message) {
  process.stderr.write(`version-bump: ${message}\n`);
  process.exit(1);
}

function readJson(name) {
  try {
    return JSON.parse(readFileSync(name, "utf8"));
  } catch (error) {
    fail(`cannot read ${name}: ${error.message}`);
  }
}

const version = readJson("package.json").version;
if (!/^\d+\.\d+\.\d+$/.test(String(version))) {
  fail(`package.json's version "${version}" is not x.y.z; Obsidian reads only plain versions (no "v", no pre-release).`);
}
const manifest = readJson("manifest.json");
const versions = readJson("versions.json");
if (typeof manifest.minAppVersion !== "string" || !/^\d+\.\d+\.\d+$/.test(manifest.minAppVersion)) {
  fail(`manifest.json's minAppVersion "${manifest.minAppVersion}" is not x.y.z; fix it before bumping.`);
}

// Both are read before either is written: a bad file stops the bump with nothing half-changed.
manifest.version = version;
versions[version] = manifest.minAppVersion;
writeFileSync("manifest.json", `${JSON.stringify(manifest, null, 2)}\n`);
writeFileSync("versions.json", `${JSON.stringify(versions, null, 2)}\n`);
process.stdout.write(`version-bump: manifest.json and versions.json now at ${version} (minAppVersion ${manifest.minAppVersion})\n`);
