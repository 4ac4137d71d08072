import type { BuildOptions } from "esbuild";

/** The plugin's main.js; `production` minifies and drops the source map. */
export function pluginBuildOptions(production: boolean): BuildOptions;
/** The headless CLI, dist/cli.js. */
export function cliBuildOptions(): BuildOptions;
/** Modules Obsidian provides at run time. */
export const obsidianExternals: readonly string[];
/** The budget for main.js (release build): 2.25 MiB in bytes (esbuild.options.js says why). */
export const MAIN_JS_BUDGET_BYTES: number;
