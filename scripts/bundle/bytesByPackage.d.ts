import type { Metafile } from "esbuild";

export interface PackageBytes {
  /** The package (`a > b` for a copy nested under a), `src/`, or another top folder. */
  name: string;
  bytes: number;
  files: number;
}

/** Output bytes by source package, largest first. */
export function bytesByPackage(metafile: Metafile): PackageBytes[];
/** The package an input path of the metafile belongs to. */
export function packageOf(inputPath: string): string;
