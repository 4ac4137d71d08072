import type { Metafile } from "esbuild";

export interface BundledPackage {
  name: string;
  version: string;
  /** The SPDX id its package.json declares. */
  license: string;
  author: string;
  /** Its folder, relative to the repository (as the metafile names it). */
  directory: string;
  /** Its LICENSE / COPYING / NOTICE files, word for word. */
  files: { name: string; text: string }[];
}

/** The file the release build writes beside main.js. */
export const THIRD_PARTY_LICENSES_FILE: string;
/** Licences main.js may bundle. */
export const ACCEPTED_LICENSES: readonly string[];
/** Every package with bytes in the bundle; throws when one's licence is not accepted. */
export function bundledPackages(metafile: Metafile, repoRoot: string): BundledPackage[];
/** THIRD_PARTY_LICENSES.txt for those packages. */
export function thirdPartyLicensesText(packages: BundledPackage[]): string;
