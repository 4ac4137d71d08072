import type { ToolFailure } from "../../errorMessage";
import type { RunApprovals } from "../../ports/approval";
import type { ToolDefinition } from "../../tools/SimpleTool";
import { runTool, type ToolRunResult } from "../../tools/runTool";
import type { AssembledToolCall } from "../toolCallAssembler";
import type { ToolCallStatus } from "./ChainEvents";

export interface ToolCallOutcome {
  call: AssembledToolCall;
  definition?: ToolDefinition;
  status: ToolCallStatus;
  /** What the model reads. */
  text: string;
  output?: unknown;
  /** The failure's kind, for the view (see ToolRunResult.failure). */
  failure?: ToolFailure;
  durationMs: number;
}

export interface ExecuteToolCallsOptions {
  /** The bound tools: a call naming anything else gets an error result listing these. */
  definitions: readonly ToolDefinition[];
  signal: AbortSignal;
  /** The run's approvals, handed to every call (see ToolCallContext.approvals). */
  approvals?: RunApprovals;
  /** The run's named web addresses (see ToolCallContext.isNamedUrl). */
  isNamedUrl?: (url: string) => boolean;
  defaultTimeoutMs: number;
  maxOutputChars: number;
  onStart: (call: AssembledToolCall, definition: ToolDefinition | undefined) => void;
  onEnd: (outcome: ToolCallOutcome) => void;
}

/**
 * Runs one step's tool calls and returns their outcomes in the order the model made them.
 * Consecutive calls of read-only tools run side by side; a call of a tool that may change
 * something runs alone, after everything before it finished and before anything after it starts
 * (an edit must not race a read of the same note). Never throws for what a call did: an unknown
 * tool, bad arguments, a failure, a timeout or the user's stop all become outcomes.
 */
export async function executeToolCalls(calls: readonly AssembledToolCall[], options: ExecuteToolCallsOptions): Promise<ToolCallOutcome[]> {
  const outcomes: ToolCallOutcome[] = [];
  let batch: Array<{ call: AssembledToolCall; definition: ToolDefinition }> = [];
  const flush = async (): Promise<void> => {
    const running = batch;
    batch = [];
    outcomes.push(...(await Promise.all(running.map(({ call, definition }) => runOne(call, definition, options)))));
  };
  for (const call of calls) {
    const definition = options.definitions.find((candidate) => candidate.tool.name === call.name);
    if (!definition) {
      await flush();
      options.onStart(call, undefined);
      const outcome = unknownTool(call, options.definitions);
      options.onEnd(outcome);
      outcomes.push(outcome);
    } else if (definition.tool.isReadOnly === true) {
      batch.push({ call, definition });
    } else {
      await flush();
      outcomes.push(await runOne(call, definition, options));
    }
  }
  await flush();
  return outcomes;
}

async function runOne(call: AssembledToolCall, definition: ToolDefinition, options: ExecuteToolCallsOptions): Promise<ToolCallOutcome> {
  options.onStart(call, definition);
  const result: ToolRunResult = await runTool(definition.tool, call.argumentsText, {
    toolCallId: call.id,
    defaultTimeoutMs: options.defaultTimeoutMs,
    maxOutputChars: options.maxOutputChars,
    signal: options.signal,
    ...(options.approvals ? { approvals: options.approvals } : {}),
    ...(options.isNamedUrl ? { isNamedUrl: options.isNamedUrl } : {}),
  });
  const outcome: ToolCallOutcome = {
    call,
    definition,
    status: result.status,
    text: result.text,
    ...(result.status === "ok" ? { output: result.output } : {}),
    ...(result.failure ? { failure: result.failure } : {}),
    durationMs: result.durationMs,
  };
  options.onEnd(outcome);
  return outcome;
}

function unknownTool(call: AssembledToolCall, definitions: readonly ToolDefinition[]): ToolCallOutcome {
  const available = definitions.map((definition) => definition.tool.name);
  const name = call.name || "(no name)";
  const list = available.length > 0 ? available.join(", ") : "none";
  return {
    call,
    status: "unknown-tool",
    text: `Tool "${name}" is not available. Available tools: ${list}. Call one of these by its exact name, or answer without a tool.`,
    failure: { kind: "unknown-tool", values: { tool: name } },
    durationMs: 0,
  };
}
