import { ContextManager } from "../context/ContextManager";
import type { ChainEvent, ChainRunInput, ChainRunResult } from "../LLMProviders/chainRunner/ChainEvents";
import type { CliIo } from "./io";

/**
 * How a run shows in the terminal. Plain: the answer streams to stdout as it arrives, tool calls
 * and retries go to stderr (so `> answer.md` keeps only the answer). `--json`: every event as one
 * JSON line on stdout, for scripts and benchmarks.
 */
export function chainEventPrinter(io: CliIo, json: boolean): (event: ChainEvent) => void {
  if (json) return jsonEventPrinter(io);
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
      case "notice":
        io.stderr(`vault-copilot: ${event.message}\n`);
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

/**
 * `--json`: one line per event. Text deltas are joined up to a word boundary before they are
 * printed, so a word — an API key the model echoes — is never split across two lines, where the
 * output filter could not see it whole and redact it. Any other event prints what is held first.
 */
function jsonEventPrinter(io: CliIo): (event: ChainEvent) => void {
  let held: { step: number; text: string } | null = null;
  const print = (event: ChainEvent) => io.stdout(`${JSON.stringify(event)}\n`);
  const flush = () => {
    if (held?.text) print({ type: "text-delta", step: held.step, text: held.text });
    held = null;
  };
  return (event) => {
    if (event.type !== "text-delta") {
      flush();
      print(event);
      return;
    }
    if (held && held.step !== event.step) flush();
    const text = (held?.text ?? "") + event.text;
    const cut = Math.max(text.lastIndexOf(" "), text.lastIndexOf("\n"), text.lastIndexOf("\t")) + 1;
    if (cut > 0) print({ type: "text-delta", step: event.step, text: text.slice(0, cut) });
    held = { step: event.step, text: text.slice(cut) };
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
