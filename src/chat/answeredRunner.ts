import type { TokenUsage } from "../LLMProviders/tokenUsage";
import type { ChatRunner } from "./ChatController";

/**
 * A runner that asks no model: it hands back an answer that already arrived elsewhere (the quick
 * question at the cursor, continued in the sidebar), as one text delta and its final event, and
 * records the turn, so the chat shows, saves and continues the exchange as if it had run here.
 */
export function answeredRunner(answer: string, usage: TokenUsage): ChatRunner {
  return {
    run(input) {
      if (input.signal.aborted) {
        input.onEvent?.({ type: "error", kind: "aborted", message: "Stopped.", partialText: "" });
        return Promise.resolve({ status: "aborted", text: "", steps: 0, toolCalls: [], usage });
      }
      input.onEvent?.({ type: "text-delta", step: 1, text: answer });
      input.conversation.recordTurn({ userMessage: input.userMessage, attachments: input.attachments ?? [], assistantMessage: answer });
      input.onEvent?.({ type: "final", text: answer, stopReason: "answer", steps: 1, usage });
      return Promise.resolve({ status: "completed", text: answer, stopReason: "answer", steps: 1, toolCalls: [], usage });
    },
  };
}
