import { ContextManager } from "../context/ContextManager";
import type { ChainEvent, ChainRunInput, ChainRunResult } from "../LLMProviders/chainRunner/ChainEvents";
import type { CliIo } from "./io";

/**
 * How a run shows in the terminal. Plain: the answer streams to stdout as it arrives, tool calls
 * and retries go to stderr (so `> answer.md` keeps only the answer). `--json`: every event as one
 * JSON line on stdout, for scripts and benchmarks.
 */
export function chainEventPrinter(io: CliIo, json: boolean): (event: ChainEvent) => void {
  if (json) return (event) => io.stdout(`${JSON.stringify(event)}\n`);
  let endsWithNewline = true;
  return (event) => {
    switch (event.type) {
      case "text-delta":
        io.stdout(event.text);
        endsWithNewline = event.text.endsWith("\n");
        break;
      case "tool-call-start":
        io.stderr(`→ ${event.toolName} ${typeof event.args === "string" ? event.args : JSON.stringify(event.args)}\n`);
        break;
      case "tool-call-end": {
        const detail = event.status === "ok" ? "" : `: ${event.resultText.split("\n")[0] ?? ""}`;
        io.stderr(`← ${event.toolName} ${event.status} (${Math.round(event.durationMs)} ms)${detail}\n`);
        break;
      }
      case "retry":
        io.stderr(`vault-copilot: ${event.message} Trying again in ${(event.delayMs / 1000).toFixed(1)} s (try ${event.attempt}).\n`);
        break;
      case "step-end":
        // A step's text ends its line before the tool lines of the next one.
        if (!endsWithNewline) io.stdout("\n");
        endsWithNewline = true;
        break;
      case "final":
      case "sources":
      case "error":
        break;
    }
  };
}

/** The exit status of a run, with its one-line error on stderr when it did not complete. */
export function exitStatusOf(result: ChainRunResult, io: CliIo): number {
  if (result.status === "completed") return 0;
  const message = result.error?.message ?? "the run did not complete";
  io.stderr(`vault-copilot: ${message.split("\n")[0] ?? message}\n`);
  return 1;
}

/** Runs one turn of a fresh conversation, printing its events; resolves with the exit status. */
export async function runOneTurn(runner: { run(input: ChainRunInput): Promise<ChainRunResult> }, prompt: string, io: CliIo, json: boolean): Promise<number> {
  const result = await runner.run({ userMessage: prompt, conversation: new ContextManager(), signal: io.signal, onEvent: chainEventPrinter(io, json) });
  return exitStatusOf(result, io);
}
