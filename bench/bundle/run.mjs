#!/usr/bin/env node
// The plugin's main.js, built with the release options (minified), broken down by where its bytes
// come from: one row per node_modules package (nested copies apart, so a duplicate shows), one for
// src/, and the total against the budget of issue 10 (main.js <= 1.5 MB with the runners wired in).
// Nothing is written to disk: the build stays in memory.
import esbuild from "esbuild";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const require = createRequire(import.meta.url);
const { pluginBuildOptions, MAIN_JS_BUDGET_BYTES } = require("../../esbuild.options.js");
const { bytesByPackage } = require("../../scripts/bundle/bytesByPackage.js");

const result = await esbuild.build({ ...pluginBuildOptions(true), absWorkingDir: repo, write: false, metafile: true, logLevel: "warning" });
const mainJs = result.outputFiles.find((file) => file.path.endsWith("main.js"));
const total = mainJs.contents.byteLength;
const rows = bytesByPackage(result.metafile);
const attributed = rows.reduce((sum, row) => sum + row.bytes, 0);

const kb = (bytes) => (bytes / 1024).toFixed(1).padStart(8);
const share = (bytes) => `${((100 * bytes) / total).toFixed(1).padStart(5)} %`;
const width = Math.max(...rows.map((row) => row.name.length), 36);
process.stdout.write(`main.js by package (release build, minified; KiB = 1024 bytes)\n`);
process.stdout.write(`${"package".padEnd(width)}  ${"KiB".padStart(8)}   share  files\n`);
for (const row of rows) process.stdout.write(`${row.name.padEnd(width)}  ${kb(row.bytes)}  ${share(row.bytes)}  ${String(row.files).padStart(5)}\n`);
process.stdout.write(`${"(esbuild's runtime helpers, wrapper)".padEnd(width)}  ${kb(total - attributed)}  ${share(total - attributed)}\n`);
process.stdout.write(`${"total main.js".padEnd(width)}  ${kb(total)}  ${share(total)}  (${total} bytes)\n`);
const verdict = total <= MAIN_JS_BUDGET_BYTES ? "within" : "OVER";
process.stdout.write(`budget ${MAIN_JS_BUDGET_BYTES} bytes (2.25 MiB): ${verdict} by ${Math.abs(MAIN_JS_BUDGET_BYTES - total)} bytes\n`);
if (total > MAIN_JS_BUDGET_BYTES) process.exitCode = 1;

// What each provider's own wire format adds (the shared wire code is counted apart): the SDKs
// they replace would add far more than the budget has left.
const outputInputs = result.metafile.outputs[Object.keys(result.metafile.outputs).find((path) => path.endsWith("main.js"))].inputs;
const bytesUnder = (folder) => Object.entries(outputInputs).filter(([path]) => path.startsWith(folder)).reduce((sum, [, input]) => sum + input.bytesInOutput, 0);
process.stdout.write(`\nproviders (KiB in main.js)\n`);
for (const [name, folder] of [
  ["Anthropic Messages API", "src/LLMProviders/anthropic/"],
  ["Gemini generateContent", "src/LLMProviders/gemini/"],
  ["shared wire code (base model, merging)", "src/LLMProviders/wire/"],
  ["src/net (fetches, SSE, errors)", "src/net/"],
]) {
  process.stdout.write(`${name.padEnd(width)}  ${kb(bytesUnder(folder))}\n`);
}

// The language tables: main.js carries each but English's as its messages in English's key order
// (scripts/bundle/packTranslations.js) and unpacks all of them when it loads. What that costs: the
// i18n modules alone, built with main.js's options with and without the packer, each evaluated
// afresh (as a plugin load does) and then asked for one message (the first t() call).
const { packTranslations } = require("../../scripts/bundle/packTranslations.js");
const i18nEntry = { contents: 'export { LANGUAGES } from "./src/i18n/languages";\nexport { translate } from "./src/i18n/translate";\n', resolveDir: repo, loader: "ts" };
const buildI18n = async (plugins) =>
  (await esbuild.build({ ...pluginBuildOptions(true), entryPoints: undefined, outfile: undefined, stdin: i18nEntry, absWorkingDir: repo, write: false, logLevel: "warning", plugins })).outputFiles[0].text;
const { Script, createContext } = await import("node:vm");
const median = (values) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)];
async function timeLoad(label, code) {
  const script = new Script(`(function (module, exports) {${code}\n})`);
  const loads = [];
  const firstCalls = [];
  for (let run = 0; run < 60; run++) {
    const module = { exports: {} };
    // A context of its own for each run: nothing of the last run's objects or caches is reused.
    const evaluate = script.runInContext(createContext({ Intl }));
    const started = performance.now();
    evaluate(module, module.exports);
    const loaded = performance.now();
    const { LANGUAGES, translate } = module.exports;
    translate(LANGUAGES.find((language) => language.code === "ru"), "summary.notesFound", { count: 3 });
    loads.push(loaded - started);
    firstCalls.push(performance.now() - started);
  }
  process.stdout.write(`${label.padEnd(width)}  ${kb(Buffer.byteLength(code))} KiB  load p50 ${median(loads).toFixed(2)} ms  to the first t() p50 ${median(firstCalls).toFixed(2)} ms\n`);
}
process.stdout.write(`\nlanguage tables (the i18n modules alone, release options, 60 fresh loads)\n`);
await timeLoad("as written (key names in every table)", await buildI18n([]));
await timeLoad("packed (main.js)", await buildI18n([packTranslations()]));
