import type { BaseMessage } from "@langchain/core/messages";
import { WireChatModel, type WireCallOptions, type WireRequest } from "../wire/WireChatModel";
import type { ServerError } from "../../net/httpStatusError";
import type { SseEvent } from "../../net/sseEvents";
import { buildGeminiRequest, type GeminiCallRecord } from "./geminiRequest";
import { geminiChunks } from "./geminiStream";

/**
 * Gemini through Google's Generative Language API (`POST {baseUrl}/models/{model}:streamGenerateContent?alt=sse`).
 * A model object lives for one run, and remembers the calls it streamed (the server's ids and
 * thought signatures) so that they go back with the tool results.
 */
export class GeminiChatModel extends WireChatModel {
  private readonly calls = new Map<string, GeminiCallRecord>();

  override _llmType(): string {
    return "gemini";
  }

  protected buildRequest(messages: BaseMessage[], options: WireCallOptions): WireRequest {
    const model = this.fields.model.replace(/^models\//, "");
    return {
      url: `${this.fields.baseUrl}/models/${encodeURIComponent(model)}:streamGenerateContent?alt=sse`,
      headers: { "x-goog-api-key": this.fields.apiKey },
      body: buildGeminiRequest(messages, {
        maxTokens: this.fields.maxTokens,
        temperature: this.fields.temperature,
        tools: options.tools,
        toolChoice: options.tool_choice,
        calls: this.calls,
      }),
    };
  }

  protected readChunks(events: AsyncIterable<SseEvent>) {
    return geminiChunks(events, {
      recordCall: (record) => {
        const id = record.serverId ?? `gemini_call_${this.calls.size + 1}`;
        this.calls.set(id, record);
        return id;
      },
    });
  }

  /** Google's `{ error: { code, message, status, details } }`; a refused key comes as 400 and is made a 401. */
  protected errorOf(body: unknown): ServerError {
    const error = (body as { error?: { message?: unknown; status?: unknown; details?: unknown } } | null)?.error;
    const message = typeof error?.message === "string" ? error.message : "";
    const details = Array.isArray(error?.details) ? (error.details as Array<Record<string, unknown>>) : [];
    const badKey = details.some((detail) => detail.reason === "API_KEY_INVALID") || /API key not valid/i.test(message);
    const delay = details.map((detail) => detail.retryDelay).find((value): value is string => typeof value === "string");
    const seconds = delay ? Number.parseFloat(delay) : Number.NaN;
    return {
      message,
      ...(typeof error?.status === "string" ? { type: error.status } : {}),
      ...(badKey ? { status: 401 } : {}),
      ...(Number.isFinite(seconds) ? { retryAfterSeconds: Math.ceil(seconds) } : {}),
    };
  }
}
