// Words UI text keeps as written, for the sentence-case rule (eslint.config.mjs) and the test that
// checks the rendered UI with the same rule (test/ui/uiSentenceCase.test.tsx, through sentenceCase.mjs): the rule's own lists
// of brands and acronyms, plus the names this plugin uses. Replacing the rule's lists instead of
// adding to them would let it lowercase "OpenAI" or "YouTube".
import { DEFAULT_ACRONYMS } from "eslint-plugin-obsidianmd/dist/lib/rules/ui/acronyms.js";
import { DEFAULT_BRANDS } from "eslint-plugin-obsidianmd/dist/lib/rules/ui/brands.js";

/**
 * Brands whose names are also plain words here: the rule matches brands in any case, so it would
 * write "Insert at Cursor" (the editor) for the text cursor, or "X" for a letter.
 */
const PLAIN_WORDS = new Set(["Cursor", "X"]);

/** The plugin's name and its modes, and the services and programs it names. */
export const UI_BRANDS = [
  ...DEFAULT_BRANDS.filter((brand) => !PLAIN_WORDS.has(brand)),
  "Vault Copilot",
  "Copilot",
  "Vault QA",
  "Ollama",
  "LM Studio",
  "OpenRouter",
  "SearXNG",
  "Brave Search",
  "Tavily",
];

/** Model Context Protocol, and the acronyms of the rule. */
export const UI_ACRONYMS = [...DEFAULT_ACRONYMS, "MCP"];

/**
 * Whole strings that are not sentences: a placeholder showing a folder or a time zone id
 * ("copilot/chats", "Europe/Berlin") is a value to type, written as it must be typed; a figure
 * ("161 ms", "7,085 in · 15 out") starts with its number, and the rule would capitalise the unit
 * (one with a capital after the number, "2 Notes found", is still checked).
 */
export const UI_IGNORE_REGEX = ["^[\\w.-]+(/[\\w.-]+)+/?$", "^[\\d.,]+\\s[^A-Z]*$"];
