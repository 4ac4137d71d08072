import { AIMessageChunk } from "@langchain/core/messages";
import { HttpStatusError, MalformedEventError, StreamCutError } from "../../net/httpStatusError";
import type { SseEvent } from "../../net/sseEvents";
import { count, toUsageMetadata } from "../wire/usageMetadata";
import type { GeminiCallRecord } from "./geminiRequest";

interface GeminiChunk {
  candidates?: Array<{
    content?: { parts?: Array<{ text?: string; thought?: boolean; functionCall?: { name?: string; args?: unknown; id?: string }; thoughtSignature?: string }> };
    finishReason?: string;
  }>;
  usageMetadata?: Record<string, unknown>;
  error?: { code?: number; message?: string; status?: string };
}

export interface GeminiStreamContext {
  /** Gives each call an id the runner keeps (Gemini may send none) and records what goes back with it. */
  recordCall(record: GeminiCallRecord): string;
}

/**
 * Turns `streamGenerateContent?alt=sse` chunks into message chunks: text parts (thoughts left out)
 * into content, each `functionCall` part into one whole tool-call chunk, the finish reason and
 * `usageMetadata` (prompt tokens include the cached ones) into the last chunk. A chunk holding an
 * `error` throws as its HTTP status; a stream that ends without a finish reason was cut.
 */
export async function* geminiChunks(events: AsyncIterable<SseEvent>, context: GeminiStreamContext): AsyncGenerator<AIMessageChunk> {
  let finishReason: string | undefined;
  let usage: Record<string, unknown> | undefined;
  let callIndex = 0;
  for await (const event of events) {
    let data: GeminiChunk;
    try {
      data = JSON.parse(event.data) as GeminiChunk;
    } catch {
      throw new MalformedEventError(event.data);
    }
    if (data.error) throw new HttpStatusError(data.error.code ?? 500, new Headers(), data.error.message ?? data.error.status ?? "error", data.error.status);
    if (data.usageMetadata) usage = data.usageMetadata;
    const candidate = data.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) {
      if (typeof part.text === "string" && part.text && !part.thought) yield new AIMessageChunk({ content: part.text });
      if (part.functionCall?.name) {
        const id = context.recordCall({
          ...(part.functionCall.id ? { serverId: part.functionCall.id } : {}),
          ...(part.thoughtSignature ? { thoughtSignature: part.thoughtSignature } : {}),
        });
        const args = JSON.stringify(part.functionCall.args ?? {});
        yield new AIMessageChunk({ content: "", tool_call_chunks: [{ type: "tool_call_chunk", index: callIndex++, id, name: part.functionCall.name, args }] });
      }
    }
    if (candidate?.finishReason) finishReason = candidate.finishReason;
  }
  if (!finishReason) throw new StreamCutError("a finish reason");
  const input = count(usage?.promptTokenCount);
  const cacheRead = count(usage?.cachedContentTokenCount);
  yield new AIMessageChunk({
    content: "",
    usage_metadata: toUsageMetadata({ input, output: count(usage?.candidatesTokenCount) + count(usage?.thoughtsTokenCount), cacheRead, cacheWrite: 0 }),
    response_metadata: { finish_reason: finishReasonOf(finishReason, callIndex > 0) },
  });
}

function finishReasonOf(reason: string, calledTools: boolean): string {
  if (reason === "STOP") return calledTools ? "tool_calls" : "stop";
  if (reason === "MAX_TOKENS") return "length";
  return reason.toLowerCase();
}
