import type { z } from "zod";
import { errorMessage } from "../errorMessage";
import { abortReason, clearTimer, setTimer } from "../ports/timers";
import { defaultFormatForModel, type AnySimpleTool } from "./SimpleTool";

export type ToolRunStatus = "ok" | "invalid-arguments" | "error" | "timeout" | "aborted";

export interface ToolRunResult {
  status: ToolRunStatus;
  /** The tool's structured output (for the UI); present only when status is "ok". */
  output?: unknown;
  /** What the model reads: the formatted output, or an error it can act on. */
  text: string;
  /** True when `text` was cut to the size limit. */
  truncated: boolean;
  durationMs: number;
}

export interface RunToolOptions {
  toolCallId: string;
  /** Time limit for this call unless the tool sets its own `timeoutMs`. */
  defaultTimeoutMs: number;
  /** Longest `text` handed to the model, in characters. */
  maxOutputChars: number;
  /** The run's signal: aborting it aborts the tool. */
  signal?: AbortSignal;
  now?: () => number;
}

export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_TOOL_OUTPUT_CHARS = 40_000;

/**
 * Runs one tool call: parses the model's arguments with the tool's schema, runs the tool under a
 * time limit and the run's abort signal, and formats what it returns. Never throws for anything
 * the model or the tool did: every failure becomes a result whose text tells the model what
 * went wrong, so the agent loop can go on.
 */
export async function runTool(
  tool: AnySimpleTool,
  rawArguments: unknown,
  options: RunToolOptions,
): Promise<ToolRunResult> {
  const now = options.now ?? Date.now;
  const started = now();
  const finish = (status: ToolRunStatus, text: string, output?: unknown): ToolRunResult => {
    const cut = truncateForModel(text, options.maxOutputChars);
    return { status, output, text: cut.text, truncated: cut.truncated, durationMs: now() - started };
  };

  const parsedArguments = parseArguments(tool, rawArguments);
  if (!parsedArguments.ok) return finish("invalid-arguments", parsedArguments.message);

  if (options.signal?.aborted) return finish("aborted", `Tool "${tool.name}" was not run: the run was stopped.`);

  const timeoutMs = tool.timeoutMs ?? options.defaultTimeoutMs;
  const controller = new AbortController();
  let outcome: "timeout" | "aborted" | undefined;
  const onAbort = () => {
    outcome ??= "aborted";
    controller.abort(options.signal?.reason);
  };
  options.signal?.addEventListener("abort", onAbort, { once: true });
  let timer: number | undefined;
  const stopped = new Promise<never>((_, reject) => {
    timer = setTimer(() => {
      outcome ??= "timeout";
      controller.abort(new Error("timeout"));
    }, timeoutMs);
    controller.signal.addEventListener("abort", () => reject(abortReason(controller.signal)), { once: true });
  });
  // The race settles the call even if a tool ignores its signal; its late result is dropped.
  stopped.catch(() => undefined);

  try {
    const output: unknown = await Promise.race([
      tool.func(parsedArguments.value, { signal: controller.signal, toolCallId: options.toolCallId }),
      stopped,
    ]);
    if (outcome === "aborted") return finish("aborted", `Tool "${tool.name}" was stopped before it finished.`);
    const text = tool.formatForModel ? tool.formatForModel(output) : defaultFormatForModel(output);
    return finish("ok", text, output);
  } catch (error) {
    if (outcome === "timeout") {
      return finish("timeout", `Tool "${tool.name}" did not finish within ${Math.round(timeoutMs / 1000)} s and was stopped.`);
    }
    if (outcome === "aborted") return finish("aborted", `Tool "${tool.name}" was stopped before it finished.`);
    return finish("error", `Tool "${tool.name}" failed: ${errorMessage(error)}`);
  } finally {
    clearTimer(timer);
    options.signal?.removeEventListener("abort", onAbort);
    if (!controller.signal.aborted) controller.abort(new Error("tool call finished"));
  }
}

type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

function parseArguments(tool: AnySimpleTool, rawArguments: unknown): Parsed {
  let candidate = rawArguments;
  if (typeof rawArguments === "string") {
    const trimmed = rawArguments.trim();
    if (trimmed.length === 0) candidate = {};
    else {
      try {
        candidate = JSON.parse(trimmed);
      } catch (error) {
        return {
          ok: false,
          message:
            `Invalid arguments for tool "${tool.name}": they are not valid JSON (${errorMessage(error)}). ` +
            `Call it again with a JSON object that matches its schema.`,
        };
      }
    }
  }
  if (candidate === null || candidate === undefined) candidate = {};
  const result = tool.schema.safeParse(candidate);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, message: describeSchemaError(tool.name, result.error) };
}

/** "Invalid arguments for tool "x": `notePath`: expected string, received number; ..." */
export function describeSchemaError(toolName: string, error: z.ZodError): string {
  const problems = error.issues.map((issue) => {
    const field = issue.path.length > 0 ? `\`${issue.path.map(String).join(".")}\`` : "(arguments)";
    return `${field}: ${issue.message}`;
  });
  return `Invalid arguments for tool "${toolName}": ${problems.join("; ")}. Fix these fields and call it again.`;
}

/** Cuts text to `maxChars`, saying so at the end, so the model knows it did not see everything. */
export function truncateForModel(text: string, maxChars: number): { text: string; truncated: boolean } {
  if (text.length <= maxChars) return { text, truncated: false };
  const note = `\n[Output cut: showing ${maxChars} of ${text.length} characters.]`;
  const keep = Math.max(0, maxChars - note.length);
  return { text: text.slice(0, keep) + note, truncated: true };
}
