#!/usr/bin/env node
// Builds the plugin and installs it into a vault: main.js, manifest.json and styles.css are copied
// to <vault>/<configDir>/plugins/vault-copilot/ and the plugin is switched on in
// community-plugins.json. With no --vault, installs into the demo vault in this repository.
//
// usage: npm run install-plugin [-- --vault PATH] [--config-dir .obsidian] [--no-build]
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(name);
  if (index === -1) return fallback;
  const value = args[index + 1];
  if (!value || value.startsWith("--")) {
    console.error(`install-plugin: ${name} needs a value`);
    process.exit(2);
  }
  return value;
};
const vault = resolve(option("--vault", join(repo, "demo-vault")));
const configDir = option("--config-dir", ".obsidian");

if (!existsSync(vault) || !statSync(vault).isDirectory()) {
  console.error(`install-plugin: no folder at ${vault}`);
  process.exit(2);
}
if (!args.includes("--no-build")) {
  execFileSync(process.execPath, [join(repo, "esbuild.config.mjs"), "production"], { cwd: repo, stdio: "inherit" });
}

const manifest = JSON.parse(readFileSync(join(repo, "manifest.json"), "utf8"));
const target = join(vault, configDir, "plugins", manifest.id);
mkdirSync(target, { recursive: true });
for (const file of ["main.js", "manifest.json", "styles.css"]) copyFileSync(join(repo, file), join(target, file));

const enabledFile = join(vault, configDir, "community-plugins.json");
let enabled = [];
if (existsSync(enabledFile)) {
  try {
    enabled = JSON.parse(readFileSync(enabledFile, "utf8"));
    if (!Array.isArray(enabled)) enabled = [];
  } catch {
    console.warn(`install-plugin: ${enabledFile} was not valid JSON; it is replaced`);
  }
}
if (!enabled.includes(manifest.id)) enabled.push(manifest.id);
writeFileSync(enabledFile, `${JSON.stringify(enabled, null, 2)}\n`);

const size = (statSync(join(target, "main.js")).size / 1024).toFixed(0);
console.log(`Installed ${manifest.name} ${manifest.version} (main.js ${size} KiB) into ${target}`);
console.log(`Open ${vault} as a vault in Obsidian; community plugins must be allowed (Settings → Community plugins).`);
