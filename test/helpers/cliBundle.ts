import { join, resolve } from "node:path";
import { cliBuildOptions } from "../../esbuild.options";

/** Builds the CLI into `folder`/cli.js with the options `npm run build` uses, so a test needs no earlier build. */
export async function buildCliBundle(folder: string): Promise<string> {
  const esbuild = await import("esbuild");
  const bundle = join(folder, "cli.js");
  await esbuild.build({ ...cliBuildOptions(), absWorkingDir: resolve(__dirname, "../.."), outfile: bundle, logLevel: "silent" });
  return bundle;
}
