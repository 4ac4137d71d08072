import type { BaseMessage } from "@langchain/core/messages";

/** Said for an earlier answer that was empty: Anthropic and Gemini refuse an empty turn. */
export const EMPTY_ANSWER = "(no answer)";

/** A tool call of an assistant message, as the runners put it there. */
export interface MessageToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/** The text of a message, whether its content is a string or content parts. */
export function messageText(message: BaseMessage): string {
  const content: unknown = message.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: unknown) => {
      const typed = part as { type?: unknown; text?: unknown };
      return typed.type === "text" && typeof typed.text === "string" ? typed.text : "";
    })
    .join("");
}

/** The tool calls an assistant message made (none for other messages). */
export function toolCallsOf(message: BaseMessage): MessageToolCall[] {
  const calls = (message as { tool_calls?: Array<{ id?: string; name: string; args: Record<string, unknown> }> }).tool_calls ?? [];
  return calls.map((call, index) => ({ id: call.id ?? `call_${index}`, name: call.name, args: call.args ?? {} }));
}
