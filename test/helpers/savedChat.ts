import type { ChatRecord } from "../../src/history/chatRecord";

/** A saved chat of one exchange (question, then "Answer to <question>"), all at `updated`. */
export function savedChat(id: string, question: string, updated: string, model = "test-model"): ChatRecord {
  return {
    id,
    mode: "chat",
    model,
    created: updated,
    updated,
    tags: ["copilot-chat"],
    extraFrontmatter: "",
    preamble: "",
    messages: [
      { role: "user", time: updated, text: question, context: [] },
      { role: "assistant", time: updated, mode: "chat", model, status: "done", parts: [{ type: "text", text: `Answer to ${question}` }], earlier: [] },
    ],
  };
}
