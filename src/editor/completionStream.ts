import type { AIMessageChunk } from "@langchain/core/messages";
import { anthropicChunks } from "../LLMProviders/anthropic/anthropicStream";
import { geminiChunks } from "../LLMProviders/gemini/geminiStream";
import { addUsage, emptyUsage, usageFromMetadata, type TokenUsage } from "../LLMProviders/tokenUsage";
import { count } from "../LLMProviders/wire/usageMetadata";
import { MalformedEventError } from "../net/httpStatusError";
import type { SseEvent } from "../net/sseEvents";
import type { CompletionRequest } from "./completionRequest";

/** A piece of a streamed completion: text, or the usage the server reported. */
export type CompletionPiece = { text: string } | { usage: TokenUsage };

interface OpenAIChunk {
  choices?: Array<{ delta?: { content?: unknown }; text?: unknown }>;
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown; prompt_tokens_details?: { cached_tokens?: unknown } } | null;
  error?: { message?: unknown };
}

/**
 * The text and usage of a completion's event stream, whatever the provider: chat completions'
 * `delta.content` and legacy completions' `text` (fill-in-the-middle) from OpenAI-compatible
 * servers, and the Anthropic and Gemini streams read by the same readers the chat models use
 * (their errors and cut streams throw the same way).
 */
export async function* completionPieces(request: Pick<CompletionRequest, "wire">, events: AsyncIterable<SseEvent>): AsyncGenerator<CompletionPiece> {
  if (request.wire === "anthropic") {
    yield* fromMessageChunks(anthropicChunks(events));
    return;
  }
  if (request.wire === "gemini") {
    // A completion binds no tools, so no call is ever recorded.
    yield* fromMessageChunks(geminiChunks(events, { recordCall: () => "unused" }));
    return;
  }
  for await (const event of events) {
    if (event.data === "[DONE]") return;
    let data: OpenAIChunk;
    try {
      data = JSON.parse(event.data) as OpenAIChunk;
    } catch {
      throw new MalformedEventError(event.data);
    }
    if (data.error) throw new Error(`The model server sent an error: ${typeof data.error.message === "string" ? data.error.message : "no message"}`);
    const choice = data.choices?.[0];
    const text = choice?.delta?.content ?? choice?.text;
    if (typeof text === "string" && text) yield { text };
    if (data.usage) {
      const cached = count(data.usage.prompt_tokens_details?.cached_tokens);
      yield { usage: addUsage(emptyUsage(), { inputTokens: count(data.usage.prompt_tokens), outputTokens: count(data.usage.completion_tokens), cacheReadTokens: cached }) };
    }
  }
}

async function* fromMessageChunks(chunks: AsyncGenerator<AIMessageChunk>): AsyncGenerator<CompletionPiece> {
  for await (const chunk of chunks) {
    if (typeof chunk.content === "string" && chunk.content) yield { text: chunk.content };
    if (chunk.usage_metadata) yield { usage: usageFromMetadata(chunk.usage_metadata) };
  }
}
