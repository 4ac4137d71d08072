import type { BuildOptions } from "esbuild";

/** The plugin's main.js; `production` minifies and drops the source map. */
export function pluginBuildOptions(production: boolean): BuildOptions;
/** The headless CLI, dist/cli.js. */
export function cliBuildOptions(): BuildOptions;
/** Modules Obsidian provides at run time. */
export const obsidianExternals: readonly string[];
/** Issue 10's budget for main.js (release build, runners wired in): 1.5 MiB in bytes. */
export const MAIN_JS_BUDGET_BYTES: number;
