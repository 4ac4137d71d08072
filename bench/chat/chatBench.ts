/**
 * What the chat view's benchmark and its profiler run on: a vault folder with one note, the
 * scripted model server, the browser demo over both, and headless Chromium; `close` ends them all
 * and removes the folder.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { launchChromium } from "../../test/e2e/demoHarness";
import { startDemoProcess, type DemoProcess } from "./demoProcess";
import { startBenchModelServer, type BenchModelServer } from "./modelServer";

export const BENCH_MODEL = "bench-model";

export interface ChatBench {
  server: BenchModelServer;
  demo: DemoProcess;
  browser: Browser;
  close: () => Promise<void>;
}

export async function startChatBench(): Promise<ChatBench> {
  const vault = mkdtempSync(join(tmpdir(), "vault-copilot-bench-chat-"));
  writeFileSync(join(vault, "Welcome.md"), "# Welcome\n\nA note for the chat benchmark.\n");
  const server = await startBenchModelServer(BENCH_MODEL);
  const demo = await startDemoProcess(vault, server.baseUrl, BENCH_MODEL);
  const browser = await launchChromium();
  return {
    server,
    demo,
    browser,
    close: async () => {
      await browser.close();
      await demo.stop();
      await server.close();
      rmSync(vault, { recursive: true, force: true });
    },
  };
}

/** Runs a benchmark's main and reports its failure the one way: a line on stderr, exit code 1. */
export function runBench(name: string, main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    process.stderr.write(`${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
