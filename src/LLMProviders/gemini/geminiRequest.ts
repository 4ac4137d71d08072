import type { BaseMessage } from "@langchain/core/messages";
import type { OpenAIToolDefinition } from "../chainRunner/agentTools";
import { EMPTY_ANSWER, messageParts, messageText, toolCallsOf } from "../wire/messageParts";

export type GeminiPart =
  | { text: string }
  // The REST API's own spelling in its image examples; it reads camelCase too.
  | { inline_data: { mime_type: string; data: string } }
  | { functionCall: { name: string; args: Record<string, unknown>; id?: string }; thoughtSignature?: string }
  | { functionResponse: { name: string; response: { result: string }; id?: string } };

export interface GeminiContent {
  role: "user" | "model";
  parts: GeminiPart[];
}

export interface GeminiRequestBody {
  contents: GeminiContent[];
  systemInstruction?: { parts: Array<{ text: string }> };
  tools?: Array<{ functionDeclarations: Array<{ name: string; description: string; parametersJsonSchema: Record<string, unknown> }> }>;
  toolConfig?: { functionCallingConfig: { mode: "AUTO" | "NONE" } };
  generationConfig: { maxOutputTokens: number; temperature?: number };
}

/** What the model learnt of a call it streamed: the server's own id and the thought signature to send back. */
export interface GeminiCallRecord {
  serverId?: string;
  thoughtSignature?: string;
}

export interface GeminiRequestOptions {
  maxTokens: number;
  temperature?: number;
  tools?: readonly OpenAIToolDefinition[];
  toolChoice?: "auto" | "none";
  /** Calls this model streamed earlier in the run, by the id the runner knows them by. */
  calls: ReadonlyMap<string, GeminiCallRecord>;
}

/**
 * The `generateContent` body for a conversation. Tool results answer their call by name (Gemini
 * matches them so) and by the server's id when it gave one; a call goes back with the thought
 * signature it came with, which Gemini's thinking models require. Tool schemas go as
 * `parametersJsonSchema`, plain JSON Schema, so nothing is lost converting them.
 */
export function buildGeminiRequest(messages: readonly BaseMessage[], options: GeminiRequestOptions): GeminiRequestBody {
  const system: string[] = [];
  const contents: GeminiContent[] = [];
  const names = new Map<string, string>();
  const push = (role: GeminiContent["role"], parts: GeminiPart[]) => {
    if (parts.length === 0) return;
    const last = contents[contents.length - 1];
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };
  for (const message of messages) {
    const text = messageText(message);
    const type = message.type;
    if (type === "system") {
      if (text) system.push(text);
    } else if (type === "ai") {
      const parts: GeminiPart[] = text ? [{ text }] : [];
      for (const call of toolCallsOf(message)) {
        names.set(call.id, call.name);
        const record = options.calls.get(call.id);
        parts.push({
          functionCall: { name: call.name, args: call.args, ...(record?.serverId ? { id: record.serverId } : {}) },
          ...(record?.thoughtSignature ? { thoughtSignature: record.thoughtSignature } : {}),
        });
      }
      push("model", parts.length > 0 ? parts : [{ text: EMPTY_ANSWER }]);
    } else if (type === "tool") {
      const id = (message as { tool_call_id?: string }).tool_call_id ?? "";
      const serverId = options.calls.get(id)?.serverId;
      push("user", [{ functionResponse: { name: names.get(id) ?? "unknown", response: { result: text }, ...(serverId ? { id: serverId } : {}) } }]);
    } else {
      push("user", messageParts(message).map((part): GeminiPart => (part.type === "text" ? { text: part.text } : { inline_data: { mime_type: part.mimeType, data: part.data } })));
    }
  }
  const declarations = (options.tools ?? []).map((tool) => ({
    name: tool.function.name,
    description: tool.function.description,
    parametersJsonSchema: tool.function.parameters,
  }));
  return {
    contents,
    ...(system.length > 0 ? { systemInstruction: { parts: [{ text: system.join("\n\n") }] } } : {}),
    ...(declarations.length > 0
      ? { tools: [{ functionDeclarations: declarations }], toolConfig: { functionCallingConfig: { mode: options.toolChoice === "none" ? "NONE" : "AUTO" } } }
      : {}),
    generationConfig: { maxOutputTokens: options.maxTokens, ...(options.temperature !== undefined ? { temperature: options.temperature } : {}) },
  };
}
