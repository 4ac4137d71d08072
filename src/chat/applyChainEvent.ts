import type { ChainEvent } from "../LLMProviders/chainRunner/ChainEvents";
import { answerText, type AssistantMessage, type AssistantPart, type ToolCallPart } from "./chatTypes";

/**
 * Folds one runner event into the answer it belongs to and returns the new answer (the old one is
 * left as it was). Text arriving after a tool call starts a new text part, so an agent's answer
 * reads in order: what it said, the tools it used, what it said next.
 */
export function applyChainEvent(message: AssistantMessage, event: ChainEvent, now: number): AssistantMessage {
  switch (event.type) {
    case "text-delta":
      return { ...message, retryNotice: undefined, parts: appendText(message.parts, event.text) };
    case "retry":
      return { ...message, retryNotice: event.message };
    case "notice":
      return { ...message, notices: [...(message.notices ?? []), { text: event.message, ...(event.case ? { case: event.case } : {}) }] };
    case "sources":
      return { ...message, sources: event.results };
    case "tool-call-start": {
      const part: ToolCallPart = {
        type: "tool-call",
        id: event.toolCallId,
        toolName: event.toolName,
        ...(event.toolId ? { toolId: event.toolId } : {}),
        args: event.args,
        status: "running",
        startedAt: now,
      };
      return { ...message, parts: [...message.parts, part] };
    }
    case "tool-call-end":
      return {
        ...message,
        parts: message.parts.map((part) =>
          part.type === "tool-call" && part.id === event.toolCallId
            ? { ...part, status: event.status, durationMs: event.durationMs, resultText: event.resultText, output: event.output, ...(event.failure ? { failure: event.failure } : {}) }
            : part,
        ),
      };
    case "step-end":
      return message;
    case "final": {
      // An answer the runner made up itself (the step limit's note) is shown as its last text.
      const shown = answerText(message).trimEnd();
      const parts = event.text.trim() !== "" && !shown.endsWith(event.text.trimEnd()) ? appendText(message.parts, event.text) : message.parts;
      return { ...message, parts, status: "done", retryNotice: undefined, usage: event.usage };
    }
    case "error":
      return {
        ...message,
        status: event.kind === "aborted" ? "stopped" : "error",
        retryNotice: undefined,
        parts: finishRunningCalls(message.parts),
        ...(event.kind === "aborted" ? {} : { error: { kind: event.kind, message: event.message } }),
      };
  }
}

function appendText(parts: readonly AssistantPart[], text: string): AssistantPart[] {
  if (!text) return [...parts];
  const last = parts.at(-1);
  if (last?.type === "text") return [...parts.slice(0, -1), { ...last, text: last.text + text }];
  const textParts = parts.filter((part) => part.type === "text").length;
  return [...parts, { type: "text", id: `text-${textParts + 1}`, text }];
}

/** A run that ended leaves no banner spinning: calls that never reported an end count as stopped. */
function finishRunningCalls(parts: readonly AssistantPart[]): AssistantPart[] {
  return parts.map((part) => (part.type === "tool-call" && part.status === "running" ? { ...part, status: "aborted" } : part));
}
