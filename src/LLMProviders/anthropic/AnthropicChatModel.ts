import type { BaseMessage } from "@langchain/core/messages";
import { WireChatModel, type WireCallOptions, type WireRequest } from "../wire/WireChatModel";
import type { SseEvent } from "../../net/sseEvents";
import { buildAnthropicRequest } from "./anthropicRequest";
import { anthropicChunks } from "./anthropicStream";

/** The Messages API version the request and stream formats here follow. */
export const ANTHROPIC_VERSION = "2023-06-01";

/**
 * Claude through Anthropic's Messages API (`POST {baseUrl}/messages`, streamed), with prompt
 * caching breakpoints placed by buildAnthropicRequest. Written against the wire format rather
 * than through Anthropic's SDK: the SDK would add more to main.js than the budget has left.
 */
export class AnthropicChatModel extends WireChatModel {
  override _llmType(): string {
    return "anthropic";
  }

  protected buildRequest(messages: BaseMessage[], options: WireCallOptions): WireRequest {
    return {
      url: `${this.fields.baseUrl}/messages`,
      headers: { "x-api-key": this.fields.apiKey, "anthropic-version": ANTHROPIC_VERSION },
      body: buildAnthropicRequest(messages, {
        model: this.fields.model,
        maxTokens: this.fields.maxTokens,
        temperature: this.fields.temperature,
        tools: options.tools,
        toolChoice: options.tool_choice,
      }),
    };
  }

  protected readChunks(events: AsyncIterable<SseEvent>) {
    return anthropicChunks(events);
  }

  protected errorOf(body: unknown) {
    const error = (body as { error?: { message?: unknown; type?: unknown } } | null)?.error;
    return {
      message: typeof error?.message === "string" ? error.message : "",
      ...(typeof error?.type === "string" ? { type: error.type } : {}),
    };
  }
}
