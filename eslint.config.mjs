import { defineConfig, globalIgnores } from "eslint/config";
import obsidianmd from "eslint-plugin-obsidianmd";
import { UI_ACRONYMS, UI_BRANDS, UI_IGNORE_REGEX } from "./scripts/ui/uiWords.mjs";

export default defineConfig([
  globalIgnores([
    "node_modules/",
    "main.js",
    "dist/",
    "coverage/",
    "demo-vault/",
    ".bench-data/",
    "bench/**/*.mjs",
    "scripts/",
    "jest.config.js",
    "esbuild.config.mjs",
    "esbuild.options.js",
    "esbuild.options.d.ts",
    "test/e2e/dist/",
    "test/**/*.js",
    ".scratch/",
  ]),
  ...obsidianmd.configs.recommended,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ["eslint.config.mjs"] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // TypeScript checks names itself; the core rule does not know its globals (typescript-eslint advice).
      "no-undef": "off",
      // UI text in sentence case (the directory's review rule), as an error so CI holds it. The
      // plugin's own names and the products it names keep their casing (scripts/ui/uiWords.mjs).
      "obsidianmd/ui/sentence-case": ["error", { brands: UI_BRANDS, acronyms: UI_ACRONYMS, ignoreRegex: UI_IGNORE_REGEX, enforceCamelCaseLower: true }],
    },
  },
  {
    // Node-only code: the headless CLI, the folder-backed vault and the stdio MCP transport.
    // None of it is reachable from src/main.ts (test/bundle/mainBundle.test.ts checks the bundle).
    files: ["src/cli/**", "src/vault/FsVault.ts", "src/vault/fsDataStore.ts", "src/vault/atomicWrite.ts", "src/vault/fileLock.ts", "src/mcp/node/**", "src/documents/node/**"],
    rules: {
      "obsidianmd/no-nodejs-modules": "off",
      "obsidianmd/hardcoded-config-path": "off",
      "obsidianmd/platform": "off",
      // requestUrl exists only inside Obsidian; Node code uses fetch.
      "no-restricted-globals": "off",
    },
  },
  {
    // The Obsidian test double implements createEl, requestUrl and trashing itself, on the DOM,
    // fetch and the in-memory vault underneath them: the rules that point plugins at those APIs
    // do not apply to it, nor to the browser demo's page (and the e2e code run in it), which
    // talks to its own server.
    files: ["test/obsidian/**", "test/demo/**", "test/e2e/**"],
    rules: {
      "obsidianmd/prefer-create-el": "off",
      "obsidianmd/prefer-file-manager-trash-file": "off",
      "no-restricted-globals": "off",
    },
  },
  {
    // Tests and benchmarks run under Node and drive real folders, servers and processes.
    files: ["test/**", "bench/**", "src/**/*.test.ts", "src/**/*.test.tsx"],
    rules: {
      "obsidianmd/no-nodejs-modules": "off",
      "obsidianmd/hardcoded-config-path": "off",
      "obsidianmd/prefer-window-timers": "off",
      "obsidianmd/no-global-this": "off",
      "obsidianmd/ui/sentence-case": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/require-await": "off",
    },
  },
]);
