import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { cliBuildOptions } from "../../esbuild.options";

/** Builds the CLI into `folder`/cli.js with the options `npm run build` uses, so a test needs no earlier build. */
export async function buildCliBundle(folder: string): Promise<string> {
  const esbuild = await import("esbuild");
  const bundle = join(folder, "cli.js");
  await esbuild.build({ ...cliBuildOptions(), absWorkingDir: resolve(__dirname, "../.."), outfile: bundle, logLevel: "silent" });
  return bundle;
}

/**
 * The CLI built once for the `describe` (or file) it is called in, into a temporary folder removed
 * after it: `path` is the bundle's, once the suite's beforeAll has run.
 */
export function useCliBundle(): { readonly path: string; readonly folder: string } {
  let folder: string | undefined;
  let bundle: string | undefined;
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "vault-copilot-cli-bundle-"));
    bundle = await buildCliBundle(folder);
  });
  afterAll(() => {
    if (folder) rmSync(folder, { recursive: true, force: true });
  });
  const built = () => {
    if (bundle === undefined || folder === undefined) throw new Error("The CLI bundle is not built yet: useCliBundle's beforeAll runs before the suite's tests");
    return { bundle, folder };
  };
  return {
    get path() {
      return built().bundle;
    },
    /** The temporary folder the bundle is in (removed with it), for a file a test writes beside it. */
    get folder() {
      return built().folder;
    },
  };
}

/**
 * Runs the built CLI (`node cli.js ARGS`) in a child process and resolves once it exits, with what
 * it printed (decoded as UTF-8 by stream, so no character is split across chunks). Asynchronous on
 * purpose: a scripted server the CLI talks to answers from the test's own process.
 */
export function runBundle(bundle: string, args: readonly string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bundle, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.once("close", (status) => resolve({ status, stdout, stderr })));
}
