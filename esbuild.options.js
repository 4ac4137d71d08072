// The esbuild options of the two bundles, shared by esbuild.config.mjs (the build) and
// test/bundle/mainBundle.test.ts (which builds main.js the same way and loads it as mobile would).
// CommonJS, so jest can require it as it is.
const { builtinModules } = require("node:module");
const { replaceUnusedModules } = require("./scripts/bundle/replaceUnusedModules.js");
const { packTranslations } = require("./scripts/bundle/packTranslations.js");

/** Externals Obsidian provides at run time (as in the official sample plugin). */
const obsidianExternals = [
  "obsidian",
  "electron",
  "@codemirror/autocomplete",
  "@codemirror/collab",
  "@codemirror/commands",
  "@codemirror/language",
  "@codemirror/lint",
  "@codemirror/search",
  "@codemirror/state",
  "@codemirror/view",
  "@lezer/common",
  "@lezer/highlight",
  "@lezer/lr",
];

/** The plugin's main.js: the browser platform, what Obsidian desktop and mobile load. */
exports.pluginBuildOptions = function pluginBuildOptions(production) {
  return {
    entryPoints: ["src/main.ts"],
    bundle: true,
    // Node built-ins stay external so a stray import fails loudly at load time on mobile
    // instead of being silently shimmed; test/bundle/mainBundle.test.ts guards against it.
    external: [...obsidianExternals, ...builtinModules, ...builtinModules.map((m) => `node:${m}`)],
    format: "cjs",
    platform: "browser",
    target: "es2022",
    logLevel: "info",
    sourcemap: production ? false : "inline",
    treeShaking: true,
    minify: production,
    outfile: "main.js",
    define: { "process.env.NODE_ENV": production ? '"production"' : '"development"' },
    // Text outside ASCII (the interface in ten languages, the scripts our tests and tokenizers
    // name) is written as UTF-8, not as \uXXXX escapes: a Chinese or Russian character takes 2-3
    // bytes instead of 6. Obsidian reads main.js as UTF-8.
    charset: "utf8",
    // The notices the bundled packages mark as legal (React's, JSON-Patch's, …) stay inside
    // main.js, the file Obsidian installs (it downloads only main.js, manifest.json and
    // styles.css); every package's full licence goes to THIRD_PARTY_LICENSES.txt beside it, which
    // the footer names (designdocs/ARCHITECTURE.md, "What main.js carries").
    legalComments: "eof",
    footer: { js: "/*! Licences of the bundled packages: THIRD_PARTY_LICENSES.txt, beside main.js in every release. */" },
    // Dependencies' modules the plugin never runs, swapped for small stand-ins (issue 10's budget);
    // the language tables carried as their messages in English's key order (packTranslations.js).
    plugins: [replaceUnusedModules(), packTranslations()],
  };
};

/** The headless CLI, dist/cli.js, for Node. */
exports.cliBuildOptions = function cliBuildOptions() {
  return {
    entryPoints: ["src/cli/bin.ts"],
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    logLevel: "info",
    sourcemap: false,
    minify: false,
    outfile: "dist/cli.js",
    banner: { js: "#!/usr/bin/env node" },
  };
};

exports.obsidianExternals = obsidianExternals;

/**
 * The budget for main.js (release build): 2.25 MiB. Issue 10 set 1.5 MiB for the engine, the chat
 * view and the runners; the interface in ten languages (about 430 KiB of text), documents, web pages
 * and images, inline completion, projects and the phone layout took it past that (ARCHITECTURE.md,
 * "What main.js carries"). The headroom is smaller than any library pulled in by mistake (defuddle
 * alone would have added 323 KiB). The nine tables besides English's are packed
 * (scripts/bundle/packTranslations.js): 2,274,135 -> 2,117,267 bytes when that landed. Measured since
 * the core's cases were worded in every language and completion's related passages came: 2,214,948
 * bytes, 144,348 under.
 */
exports.MAIN_JS_BUDGET_BYTES = 2.25 * 1024 * 1024;
