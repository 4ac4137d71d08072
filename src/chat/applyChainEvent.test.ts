import { applyChainEvent } from "./applyChainEvent";
import { finalAnswerText, type AssistantMessage } from "./chatTypes";

const streaming: AssistantMessage = { id: "a", role: "assistant", parts: [], status: "streaming", mode: "agent", model: "m", startedAt: 0 };
const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };

describe("applyChainEvent", () => {
  it("an answer the runner made up itself (no text after the last tool call) is shown as its last text", () => {
    let message = applyChainEvent(streaming, { type: "text-delta", step: 1, text: "Looking." }, 0);
    message = applyChainEvent(message, { type: "tool-call-start", step: 1, toolCallId: "c1", toolName: "localSearch", args: {} }, 0);
    message = applyChainEvent(message, { type: "final", text: "I stopped after 8 tool steps.", stopReason: "iteration-limit", steps: 9, usage }, 0);
    expect(message.parts.map((part) => part.type)).toEqual(["text", "tool-call", "text"]);
    expect(finalAnswerText(message)).toBe("I stopped after 8 tool steps.");
  });

  it("a streamed final answer is not repeated", () => {
    let message = applyChainEvent(streaming, { type: "text-delta", step: 1, text: "Done " }, 0);
    message = applyChainEvent(message, { type: "text-delta", step: 1, text: "here." }, 0);
    message = applyChainEvent(message, { type: "final", text: "Done here.", stopReason: "answer", steps: 1, usage }, 0);
    expect(message.parts).toEqual([{ type: "text", id: "text-1", text: "Done here." }]);
    expect(message.status).toBe("done");
  });
});
