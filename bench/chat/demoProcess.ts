/**
 * The browser demo (`scripts/demo.mjs`, as `npm run demo` runs it) started for the benchmark on a
 * free port. test/e2e/demoHarness.ts finds the script from its own folder, which a bundled bench
 * no longer has; the bench runs from the repository root (bench/run.mjs), so it starts from there.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";

export interface DemoProcess {
  url: string;
  stop(): Promise<void>;
}

/** `more`: further demo arguments (e.g. `--completion-model NAME`). */
export function startDemoProcess(vault: string, baseUrl: string, model: string, more: readonly string[] = []): Promise<DemoProcess> {
  const repo = process.cwd();
  const child = spawn(process.execPath, [join(repo, "scripts/demo.mjs"), "--vault", vault, "--base-url", baseUrl, "--model", model, "--port", "0", ...more], { cwd: repo, stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  let output = "";
  return new Promise<DemoProcess>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const match = /Serving (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output);
      if (match) resolve({ url: match[1]!, stop });
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => reject(new Error(`The demo exited (code ${code}) before serving:\n${output}`)));
    child.once("error", reject);
  });
}
