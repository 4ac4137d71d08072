// Two bundles: the plugin's main.js (browser platform, what Obsidian desktop and mobile load)
// and the headless CLI dist/cli.js (Node). `node esbuild.config.mjs` watches the plugin;
// `node esbuild.config.mjs production` builds both once, minified.
import esbuild from "esbuild";
import { builtinModules } from "node:module";

const production = process.argv[2] === "production";

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

const plugin = {
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
};

const cli = {
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

if (production) {
  await esbuild.build(plugin);
  await esbuild.build(cli);
} else {
  const context = await esbuild.context(plugin);
  await context.watch();
}
