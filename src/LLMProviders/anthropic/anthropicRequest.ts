import type { BaseMessage } from "@langchain/core/messages";
import { CONTEXT_LIBRARY_HEADING } from "../../context/renderContextArtifacts";
import type { OpenAIToolDefinition } from "../chainRunner/agentTools";
import { EMPTY_ANSWER, messageParts, messageText, toolCallsOf } from "../wire/messageParts";

/** Most `cache_control` breakpoints one request may carry (the Messages API refuses a fifth). */
export const MAX_CACHE_BREAKPOINTS = 4;

type CacheControl = { type: "ephemeral" };

export type AnthropicBlock =
  | { type: "text"; text: string; cache_control?: CacheControl }
  | { type: "image"; source: { type: "base64"; media_type: string; data: string }; cache_control?: CacheControl }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown>; cache_control?: CacheControl }
  | { type: "tool_result"; tool_use_id: string; content: string; cache_control?: CacheControl };

export interface AnthropicMessage {
  role: "user" | "assistant";
  content: AnthropicBlock[];
}

export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

export interface AnthropicRequestBody {
  model: string;
  max_tokens: number;
  temperature?: number;
  system?: Array<{ type: "text"; text: string; cache_control?: CacheControl }>;
  messages: AnthropicMessage[];
  tools?: AnthropicTool[];
  tool_choice?: { type: "auto" | "none" };
  stream: true;
}

export interface AnthropicRequestOptions {
  model: string;
  maxTokens: number;
  temperature?: number;
  tools?: readonly OpenAIToolDefinition[];
  toolChoice?: "auto" | "none";
}


/**
 * The Messages API body for a conversation. System messages become `system`; tool results become
 * `tool_result` blocks of a user message, answering their `tool_use` by id; messages of the same
 * role in a row are joined (the API wants user and assistant to alternate).
 *
 * Prompt caching: the runners only ever append to a request, so each request begins with the
 * previous one. Breakpoints go where that prefix is stable (see cacheBreakpoints); the server then
 * reads everything up to the latest breakpoint it has seen from its cache and writes the rest.
 */
export function buildAnthropicRequest(messages: readonly BaseMessage[], options: AnthropicRequestOptions): AnthropicRequestBody {
  const systemText = messages
    .filter((message) => message.type === "system")
    .map((message) => messageText(message))
    .filter((text) => text.length > 0)
    .join("\n\n");
  const turns: AnthropicMessage[] = [];
  const push = (role: AnthropicMessage["role"], blocks: AnthropicBlock[]) => {
    if (blocks.length === 0) return;
    const last = turns[turns.length - 1];
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };
  for (const message of messages) {
    const text = messageText(message);
    switch (message.type) {
      case "system":
        break;
      case "human":
        push(
          "user",
          messageParts(message).map((part): AnthropicBlock => (part.type === "text" ? part : { type: "image", source: { type: "base64", media_type: part.mimeType, data: part.data } })),
        );
        break;
      case "ai": {
        const calls = toolCallsOf(message);
        const blocks: AnthropicBlock[] = text ? [{ type: "text", text }] : calls.length > 0 ? [] : [{ type: "text", text: EMPTY_ANSWER }];
        for (const call of calls) blocks.push({ type: "tool_use", id: call.id, name: call.name, input: call.args });
        push("assistant", blocks);
        break;
      }
      case "tool": {
        const id = (message as { tool_call_id?: string }).tool_call_id ?? "";
        push("user", [{ type: "tool_result", tool_use_id: id, content: text || "(empty result)" }]);
        break;
      }
      default:
        push("user", text ? [{ type: "text", text }] : []);
    }
  }

  const system = systemText ? systemBlocks(systemText) : undefined;
  const tools = (options.tools ?? []).map((tool) => ({
    name: tool.function.name,
    description: tool.function.description,
    input_schema: tool.function.parameters,
  }));
  for (const block of cacheBreakpoints(system, turns)) block.cache_control = { type: "ephemeral" };

  return {
    model: options.model,
    max_tokens: options.maxTokens,
    ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    ...(system ? { system } : {}),
    messages: turns,
    ...(tools.length > 0 ? { tools, tool_choice: { type: options.toolChoice ?? "auto" } } : {}),
    stream: true,
  };
}

/**
 * The system prompt as two blocks, L1 (instructions and tool guidance: the same all chat long)
 * and L2 (the context library: grows when a turn attaches a note), split where the library's
 * heading begins. The API reads the blocks as one text, so the model sees the same words; the
 * cache gets a boundary that survives a new attachment.
 */
function systemBlocks(text: string): Array<{ type: "text"; text: string; cache_control?: CacheControl }> {
  const library = text.indexOf(`\n\n${CONTEXT_LIBRARY_HEADING}`);
  if (library <= 0) return [{ type: "text", text }];
  return [
    { type: "text", text: text.slice(0, library) },
    { type: "text", text: text.slice(library) },
  ];
}

/**
 * The blocks that get a breakpoint, at most four, each the last block of, in this order of
 * priority:
 * 1. L1 (with the tools before it: stable for the whole chat, so a new turn whose library grew
 *    still reads it);
 * 2. L2, the context library, when there is one;
 * 3. the conversation so far (the last earlier answer: L4 ends there);
 * 4. the request itself (this turn's question, or the latest tool results): written now, read
 *    by the next request;
 * 5. the previous agent step (the message before this turn's latest tool call), when there is
 *    room: a step whose calls add more than the API's 20-block look-back still finds it.
 */
export function cacheBreakpoints(system: AnthropicBlock[] | undefined, turns: readonly AnthropicMessage[]): AnthropicBlock[] {
  const chosen: AnthropicBlock[] = [];
  const add = (block: AnthropicBlock | undefined) => {
    if (block && !chosen.includes(block) && chosen.length < MAX_CACHE_BREAKPOINTS) chosen.push(block);
  };
  const lastBlock = (message: AnthropicMessage | undefined) => message?.content[message.content.length - 1];
  for (const block of system ?? []) add(block);

  const isToolStep = (message: AnthropicMessage) => message.role === "assistant" && message.content.some((block) => block.type === "tool_use");
  let lastAnswer = -1;
  let lastStep = -1;
  turns.forEach((message, index) => {
    if (message.role !== "assistant") return;
    if (isToolStep(message)) lastStep = index;
    else lastAnswer = index;
  });
  add(lastBlock(turns[lastAnswer]));
  add(lastBlock(turns[turns.length - 1]));
  if (lastStep > lastAnswer) add(lastBlock(turns[lastStep - 1]));
  return chosen;
}
