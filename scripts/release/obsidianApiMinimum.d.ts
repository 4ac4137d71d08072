import type { Metafile } from "esbuild";

export interface VersionedApi {
  /** "SecretStorage.getSecret", or a top-level name. */
  name: string;
  /** The `@since` version of obsidian.d.ts. */
  since: string;
  /** The first file using it. */
  file: string;
}

/** -1, 0 or 1 as version a is older than, equal to or newer than b. */
export function compareVersions(a: string, b: string): number;
/** The versioned Obsidian APIs the files use as values, newest first. */
export function obsidianApisUsed(files: string[], tsconfigPath: string): VersionedApi[];
/** The src/ files a build's main.js holds, as absolute paths. */
export function sourceFilesInBundle(metafile: Metafile, repoRoot: string): string[];
