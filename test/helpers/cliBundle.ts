import { spawn } from "node:child_process";
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
