import type { z } from "zod";
import { errorMessage, toolFailureOf, type ToolFailure } from "../errorMessage";
import { abortReason, clearTimer, setTimer } from "../ports/timers";
import type { RunApprovals } from "../ports/approval";
import { defaultFormatForModel, type AnySimpleTool, type ToolCallContext } from "./SimpleTool";

export type ToolRunStatus = "ok" | "invalid-arguments" | "error" | "timeout" | "aborted";

export interface ToolRunResult {
  status: ToolRunStatus;
  /** The tool's structured output (for the UI); present only when status is "ok". */
  output?: unknown;
  /** What the model reads: the formatted output, or an error it can act on. */
  text: string;
  /** True when `text` was cut to the size limit. */
  truncated: boolean;
  /** A failure's kind and values, for the view to word in its language; absent when the call succeeded or the failure has no kind. */
  failure?: ToolFailure;
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
  /** The run's approvals (the chat that started it), handed to the tool as `context.approvals`. */
  approvals?: RunApprovals;
  /** The run's named web addresses, handed to the tool as `context.isNamedUrl`. */
  isNamedUrl?: (url: string) => boolean;
  now?: () => number;
}

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
  const finish = (status: ToolRunStatus, text: string, output?: unknown, failure?: ToolFailure): ToolRunResult => {
    const cut = truncateForModel(text, options.maxOutputChars);
    return { status, output, text: cut.text, truncated: cut.truncated, durationMs: now() - started, ...(failure ? { failure } : {}) };
  };
  const stoppedFailure: ToolFailure = { kind: "stopped", values: {} };

  const parsedArguments = parseArguments(tool, rawArguments);
  if (!parsedArguments.ok) return finish("invalid-arguments", parsedArguments.message, undefined, parsedArguments.failure);

  if (options.signal?.aborted) return finish("aborted", `Tool "${tool.name}" was not run: the run was stopped.`, undefined, stoppedFailure);

  const timeoutMs = tool.timeoutMs ?? options.defaultTimeoutMs;
  const controller = new AbortController();
  let outcome: "timeout" | "aborted" | undefined;
  // After the tool commits (a write began) the call runs to its end and reports what the tool returns.
  let committed = false;
  let cutOff: (reason: Error) => void = () => undefined;
  const stopped = new Promise<never>((_, reject) => (cutOff = reject));
  // The race settles the call even if a tool ignores its signal; its late result is dropped.
  stopped.catch(() => undefined);
  const stop = (why: "timeout" | "aborted", reason: unknown) => {
    outcome ??= why;
    controller.abort(reason);
    if (!committed) cutOff(abortReason(controller.signal));
  };
  const onAbort = () => stop("aborted", options.signal?.reason);
  options.signal?.addEventListener("abort", onAbort, { once: true });
  const limit = new TimeLimit(timeoutMs, () => stop("timeout", new Error("timeout")));
  limit.start();

  let waiting = 0;
  const context: ToolCallContext = {
    signal: controller.signal,
    toolCallId: options.toolCallId,
    runId: runIdOf(options.signal),
    ...(options.approvals ? { approvals: options.approvals } : {}),
    ...(options.isNamedUrl ? { isNamedUrl: options.isNamedUrl } : {}),
    untimed: async <T>(wait: () => Promise<T>): Promise<T> => {
      if (waiting++ === 0) limit.pause();
      try {
        return await wait();
      } finally {
        if (--waiting === 0 && !committed && !controller.signal.aborted) limit.start();
      }
    },
    commit: () => {
      // Too late once the call was cut off: its result has been reported already.
      controller.signal.throwIfAborted();
      committed = true;
      limit.pause();
    },
  };

  try {
    const output: unknown = await Promise.race([tool.func(parsedArguments.value, context), stopped]);
    if (outcome === "aborted" && !committed) return finish("aborted", `Tool "${tool.name}" was stopped before it finished.`, undefined, stoppedFailure);
    const text = tool.formatForModel ? tool.formatForModel(output) : defaultFormatForModel(output);
    const reported = tool.failureOf?.(output);
    return reported ? finish("error", text, undefined, reported) : finish("ok", text, output);
  } catch (error) {
    if (!committed && outcome === "timeout") {
      const seconds = Math.round(timeoutMs / 1000);
      return finish("timeout", `Tool "${tool.name}" did not finish within ${seconds} s and was stopped.`, undefined, { kind: "timeout", values: { count: seconds } });
    }
    if (!committed && outcome === "aborted") return finish("aborted", `Tool "${tool.name}" was stopped before it finished.`, undefined, stoppedFailure);
    return finish("error", `Tool "${tool.name}" failed: ${errorMessage(error)}`, undefined, toolFailureOf(error));
  } finally {
    limit.pause();
    options.signal?.removeEventListener("abort", onAbort);
    if (!controller.signal.aborted) controller.abort(new Error("tool call finished"));
  }
}

/** A time limit that can be paused (while the user is asked) and started again with what is left. */
class TimeLimit {
  private timer: number | undefined;
  private startedAt = 0;

  constructor(
    private remainingMs: number,
    private readonly onExpired: () => void,
  ) {}

  start(): void {
    if (this.timer !== undefined) return;
    this.startedAt = Date.now();
    this.timer = setTimer(() => {
      this.timer = undefined;
      this.onExpired();
    }, Math.max(0, this.remainingMs));
  }

  pause(): void {
    if (this.timer === undefined) return;
    clearTimer(this.timer);
    this.timer = undefined;
    this.remainingMs -= Date.now() - this.startedAt;
  }
}

const runIds = new WeakMap<AbortSignal, string>();
let runCount = 0;

/** A run is known by its signal: the runner hands the same one to every call of one run. */
function runIdOf(signal: AbortSignal | undefined): string | undefined {
  if (!signal) return undefined;
  let id = runIds.get(signal);
  if (id === undefined) {
    id = `run-${Date.now().toString(36)}-${(runCount++).toString(36)}`;
    runIds.set(signal, id);
  }
  return id;
}

/** Arguments the tool can use, or why not: the sentence for the model, and its kind with the fields at fault for the view. */
type Parsed = { ok: true; value: unknown } | { ok: false; message: string; failure: ToolFailure };

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
          failure: { kind: "arguments-not-json", values: {} },
        };
      }
    }
  }
  if (candidate === null || candidate === undefined) candidate = {};
  const result = tool.schema.safeParse(candidate);
  if (result.success) return { ok: true, value: result.data };
  const fields = [...new Set(result.error.issues.map((issue) => (issue.path.length > 0 ? issue.path.map(String).join(".") : "(arguments)")))];
  return { ok: false, message: describeSchemaError(tool.name, result.error), failure: { kind: "invalid-arguments", values: { fields: fields.join(", ") } } };
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
