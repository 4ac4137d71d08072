import type { BaseMessage } from "@langchain/core/messages";
import { parseImageDataUrl } from "../../context/imageInput";

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

/** A piece of a user message for the wire: text, or an image's bytes. */
export type MessagePart = { type: "text"; text: string } | { type: "image"; mimeType: string; data: string };

/**
 * A message's text and images in order (the runners put images as OpenAI-style `image_url`
 * parts with a data URL, see LayerToMessagesConverter). Parts that are neither are left out.
 */
export function messageParts(message: BaseMessage): MessagePart[] {
  const content: unknown = message.content;
  if (typeof content === "string") return content ? [{ type: "text", text: content }] : [];
  if (!Array.isArray(content)) return [];
  const parts: MessagePart[] = [];
  for (const part of content as unknown[]) {
    const typed = part as { type?: unknown; text?: unknown; image_url?: unknown };
    if (typed.type === "text" && typeof typed.text === "string" && typed.text) parts.push({ type: "text", text: typed.text });
    if (typed.type === "image_url") {
      const url = typeof typed.image_url === "string" ? typed.image_url : (typed.image_url as { url?: unknown } | undefined)?.url;
      const image = typeof url === "string" ? parseImageDataUrl(url) : null;
      if (image) parts.push({ type: "image", ...image });
    }
  }
  return parts;
}
