import type { Plugin } from "esbuild";

/** A dependency's module that main.js carries as a small stand-in. */
export interface ModuleReplacement {
  name: string;
  /** The file inside node_modules, written with "/" ("langsmith/index.mjs"). */
  module: string;
  /** esbuild's filter for that file: matches it with either separator. */
  path: RegExp;
  contents(): string;
}

export const replacements: readonly ModuleReplacement[];
/** The esbuild plugin that swaps each of `replacements` in. */
export function replaceUnusedModules(): Plugin;
/** The filter matching `modulePath` (written with "/") resolved with "/" or "\\". */
export function moduleFilter(modulePath: string): RegExp;
/** The folder of a path written with either separator. */
export function folderOf(filePath: string): string;
