import { join } from "node:path";

/** Builds the CLI (src/cli/bin.ts) into `folder`/cli.js with the options of esbuild.config.mjs, so a test needs no earlier build. */
export async function buildCliBundle(folder: string): Promise<string> {
  const esbuild = await import("esbuild");
  const bundle = join(folder, "cli.js");
  await esbuild.build({
    entryPoints: [join(__dirname, "../../src/cli/bin.ts")],
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    outfile: bundle,
    logLevel: "silent",
    banner: { js: "#!/usr/bin/env node" },
  });
  return bundle;
}
