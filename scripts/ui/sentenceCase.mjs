#!/usr/bin/env node
// `node scripts/ui/sentenceCase.mjs [--name NAME]... < strings.json`: reads a JSON array of UI strings on stdin and prints, as JSON, those the linter's sentence-case
// rule (obsidianmd/ui/sentence-case) would refuse, each with the rule's suggestion. The rule sees
// only string literals in known calls (setName, new Notice, …); test/ui/uiSentenceCase.test.tsx
// hands it the text the settings tab and the chat view actually render, with the same words kept
// (uiWords.mjs) as eslint.config.mjs.
import { evaluateSentenceCase } from "eslint-plugin-obsidianmd/dist/lib/rules/ui/sentenceCaseUtil.js";
import { UI_ACRONYMS, UI_BRANDS, UI_IGNORE_REGEX } from "./uiWords.mjs";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const strings = JSON.parse(input);
if (!Array.isArray(strings)) {
  process.stderr.write("sentenceCase: stdin must be a JSON array of strings\n");
  process.exit(2);
}
// --name NAME: a name that other labels carry as it is (a tool's display name: "Use Read note").
const names = [];
const args = process.argv.slice(2);
for (let index = 0; index < args.length; index += 2) {
  if (args[index] !== "--name" || args[index + 1] === undefined) {
    process.stderr.write("usage: node scripts/ui/sentenceCase.mjs [--name NAME]... < strings.json\n");
    process.exit(2);
  }
  names.push(args[index + 1]);
}
const options = { brands: [...UI_BRANDS, ...names], acronyms: UI_ACRONYMS, ignoreRegex: UI_IGNORE_REGEX, enforceCamelCaseLower: true };
const refused = [];
for (const text of strings) {
  const verdict = evaluateSentenceCase(String(text), options);
  if (!verdict.ok) refused.push({ text, suggestion: verdict.suggestion });
}
process.stdout.write(`${JSON.stringify(refused, null, 1)}\n`);
