import type { Metafile } from "esbuild";
import type { VersionedApi } from "./obsidianApiMinimum";

type Json = Record<string, unknown>;

/** The three versions agree, versions.json holds the current one, CHANGELOG.md has its section. */
export function checkVersions(files: { packageJson: Json; manifest: Json; versions: Json; changelog?: string }): string[];
/** The community directory's rules for manifest.json. */
export function checkManifest(manifest: Json): string[];
/** minAppVersion equals the newest `@since` among the APIs used. */
export function checkMinAppVersion(manifest: Json, apis: VersionedApi[]): string[];
/** isDesktopOnly is false and no Node module is loaded from the entry without a dynamic import. */
export function checkDesktopOnly(manifest: Json, metafile: Metafile, entry?: string): string[];
