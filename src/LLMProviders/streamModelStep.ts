import type { AIMessageChunk, BaseMessage } from "@langchain/core/messages";
import { abortReason, delay } from "../ports/timers";
import { classifyModelError, ModelError, type ModelErrorContext } from "../net/modelErrors";
import { retryDelayMs, type RetryPolicy } from "../net/retryPolicy";
import { MODEL_IDLE_TIMEOUT_MS, SilenceWatch, silenceError } from "../net/silenceWatch";
import { LongestAnswerGuard } from "./longestAnswer";
import { usageFromMetadata, type TokenUsage } from "./tokenUsage";
import { ToolCallAssembler, type AssembledToolCall } from "./toolCallAssembler";
import { messageText } from "./wire/messageParts";

/** What streams: a chat model, or one with tools bound (both are LangChain runnables). */
export interface StreamingModel {
  stream(input: BaseMessage[], options: { signal: AbortSignal }): Promise<AsyncIterable<AIMessageChunk>>;
}

/** One model response, streamed to its end. */
export interface ModelStep {
  text: string;
  toolCalls: AssembledToolCall[];
  /** "stop", "tool_calls", "length", … as the server said; undefined when it said nothing. */
  finishReason?: string;
  usage?: TokenUsage;
}

export interface RetryNotice {
  /** The try about to be made (2 for the first retry). */
  attempt: number;
  delayMs: number;
  error: ModelError;
}

export { MODEL_IDLE_TIMEOUT_MS };

export interface StreamModelStepOptions {
  signal: AbortSignal;
  /** Overrides MODEL_IDLE_TIMEOUT_MS (tests use a short one). */
  idleTimeoutMs?: number;
  /** The longest-answer setting: a response that passes it is stopped (see LongestAnswerGuard). */
  maxOutputTokens?: number;
  errorContext: Omit<ModelErrorContext, "receivedAnything">;
  retryPolicy: RetryPolicy;
  /** An id for a tool call the server sent without one. */
  fallbackToolCallId: (position: number) => string;
  onTextDelta?: (text: string) => void;
  onRetry?: (notice: RetryNotice) => void;
}

/**
 * Streams one response: text deltas are handed on as they arrive, tool-call deltas assembled.
 * A failure before anything arrived is retried per the policy (429, 5xx, a reset connection);
 * once text or a tool call has been handed on, a failure ends the step with a ModelError
 * ("interrupted"), since the text already shown cannot be asked for again. A request silent for
 * longer than the idle timeout (before its first byte or mid-stream) ends with "timeout"; one that
 * passes the longest-answer setting is stopped there with "answer-too-long", its text kept (a
 * server that ignores `max_tokens` and streams for good must not fill a note without end).
 * Always throws a ModelError, "aborted" when the signal fired.
 */
export async function streamModelStep(model: StreamingModel, messages: BaseMessage[], options: StreamModelStepOptions): Promise<ModelStep> {
  const { signal } = options;
  for (let failures = 0; ; ) {
    let emitted = false;
    const assembler = new ToolCallAssembler(options.fallbackToolCallId);
    let text = "";
    let finishReason: string | undefined;
    let usage: TokenUsage | undefined;
    // Each try gets its own signal, linked to the run's: LangChain and the HTTP client add abort
    // listeners per request and leave them, and a run's signal must not collect one per step.
    const attempt = new AbortController();
    const forward = () => attempt.abort(signal.reason);
    signal.addEventListener("abort", forward, { once: true });
    const silence = new SilenceWatch(options.idleTimeoutMs ?? MODEL_IDLE_TIMEOUT_MS, () => attempt.abort(new Error("idle timeout")));
    const longest = options.maxOutputTokens === undefined ? null : new LongestAnswerGuard(options.maxOutputTokens);
    try {
      if (signal.aborted) throw abortReason(signal);
      silence.activity();
      const stream = await model.stream(messages, { signal: attempt.signal });
      for await (const chunk of stream) {
        silence.activity();
        const delta = messageText(chunk);
        if (delta) {
          emitted = true;
          text += delta;
          options.onTextDelta?.(delta);
        }
        for (const piece of chunk.tool_call_chunks ?? []) {
          emitted = true;
          assembler.add({ index: piece.index, id: piece.id, name: piece.name, args: piece.args });
          longest?.argumentsArrived(piece.args ?? "");
        }
        const reason = (chunk.response_metadata as { finish_reason?: unknown } | undefined)?.finish_reason;
        if (typeof reason === "string") finishReason = reason;
        if (chunk.usage_metadata) usage = usageFromMetadata(chunk.usage_metadata);
        // Usage that comes with or after the finish reason describes an answer already whole:
        // nothing is left to stop (and it counts tool-call arguments too).
        longest?.arrived(delta, finishReason === undefined ? usage?.outputTokens : undefined);
        if (longest?.passed) {
          attempt.abort(new Error("longest answer passed"));
          throw longest.error(emitted);
        }
      }
      // LangChain ends an aborted stream quietly in some paths; an aborted step is not an answer.
      if (signal.aborted) throw abortReason(signal);
      if (silence.timedOut) throw silenceError("The model server", silence.idleMs, emitted);
      return { text, toolCalls: assembler.result(), finishReason, usage };
    } catch (error) {
      // The timer aborted the request: what the client threw is an abort, but the cause is silence.
      const modelError =
        silence.timedOut && !signal.aborted
          ? silenceError("The model server", silence.idleMs, emitted)
          : classifyModelError(error, { ...options.errorContext, receivedAnything: emitted }, signal);
      if (emitted || modelError.kind === "aborted" || modelError.kind === "answer-too-long") throw modelError;
      failures++;
      const wait = retryDelayMs(options.retryPolicy, failures, modelError);
      if (wait === null) throw modelError;
      options.onRetry?.({ attempt: failures + 1, delayMs: wait, error: modelError });
      try {
        await delay(wait, signal);
      } catch (abortError) {
        throw classifyModelError(abortError, { ...options.errorContext, receivedAnything: false }, signal);
      }
    } finally {
      silence.stop();
      signal.removeEventListener("abort", forward);
    }
  }
}
