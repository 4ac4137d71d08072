// The agent benchmark (`npm run bench -- agent`): (a) the agent's own time per tool step with ten
// tools bound, against a model server that answers at once; (b) the share of prompt bytes that
// repeat the previous request's prompt from its first byte (what providers cache) over a scripted
// ten-turn conversation with attached notes. Prints the figures and writes
// .bench-data/agent-results.json. Bundled and run by bench/run.mjs.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isMainThread, workerData } from "node:worker_threads";
import { measureOverhead } from "./overhead";
import { serveOverheadModel } from "./overheadServer";
import { measurePrefixShare } from "./prefixShare";

const percent = (share: number) => `${(share * 100).toFixed(1)} %`;

async function main(): Promise<void> {
  const overhead = await measureOverhead(__filename);
  process.stdout.write(
    [
      `agent overhead per tool step (10 tools bound, ${overhead.toolSteps} steps a run, ${overhead.runs} runs, model answers at once):`,
      `  median ${overhead.medianMs.toFixed(2)} ms, p90 ${overhead.p90Ms.toFixed(2)} ms`,
      `  first step ${overhead.firstStepMedianMs.toFixed(2)} ms, tenth step ${overhead.lastStepMedianMs.toFixed(2)} ms (last request ${overhead.lastRequestBytes} bytes)`,
      "",
    ].join("\n"),
  );
  const prefix = await measurePrefixShare();
  process.stdout.write(
    [
      `cacheable prefix over ${prefix.turns} turns with attached notes (${prefix.requests} requests, ${prefix.promptBytes} prompt bytes):`,
      `  all requests: ${percent(prefix.share)} of prompt bytes repeat the previous request's prefix`,
      `  first request of each turn: ${percent(prefix.firstRequestShare)}`,
      `  for comparison, first request of each turn: every note re-sent before each question ${percent(prefix.resendAllNotesShare)}, notes kept in the history ${percent(prefix.notesInHistoryShare)}`,
      "",
    ].join("\n"),
  );
  const folder = join(process.cwd(), ".bench-data");
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, "agent-results.json"), `${JSON.stringify({ overhead, prefix }, null, 2)}\n`);
}

if (isMainThread) {
  main().catch((error: unknown) => {
    process.stderr.write(`bench/agent: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
} else if ((workerData as { role?: string } | undefined)?.role === "overhead-server") {
  void serveOverheadModel();
}
