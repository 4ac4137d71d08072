import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import { BaseChatModel, type BaseChatModelCallOptions } from "@langchain/core/language_models/chat_models";
import { AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import { ChatGenerationChunk, type ChatResult } from "@langchain/core/outputs";
import type { FetchLike } from "../../ports/FetchLike";
import type { OpenAIToolDefinition } from "../chainRunner/agentTools";
import { StreamCutError, throwIfFailed, type ServerError } from "../../net/httpStatusError";
import { readSseEvents, type SseEvent } from "../../net/sseEvents";
import { requireEventStream, watchedEventStream } from "./unexpectedBody";

export interface WireCallOptions extends BaseChatModelCallOptions {
  tools?: OpenAIToolDefinition[];
  tool_choice?: "auto" | "none";
}

/** One HTTP request to a model server's streaming endpoint. */
export interface WireRequest {
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface WireModelFields {
  model: string;
  maxTokens: number;
  /** Left out of the request when undefined (the server's default). */
  temperature?: number;
  baseUrl: string;
  apiKey: string;
  fetch: FetchLike;
}

/**
 * A chat model that speaks one provider's own wire format over the fetch it is given. Tools bind
 * the LangChain way (`bindTools` → call options), in the OpenAI tool format the runners build;
 * each subclass turns messages and tools into its request and its SSE events into message chunks
 * (text, tool-call chunks by index, the finish reason and usage with cache counts), so the
 * runners stream every provider the same way. A failed response throws an HttpStatusError for
 * classifyModelError; a successful answer that is no event stream, or one that ends without any
 * event, throws an UnexpectedBodyError saying what arrived.
 */
export abstract class WireChatModel extends BaseChatModel<WireCallOptions, AIMessageChunk> {
  protected readonly fields: WireModelFields;

  constructor(fields: WireModelFields) {
    super({});
    this.fields = { ...fields, baseUrl: fields.baseUrl.replace(/\/+$/, "") };
  }

  protected abstract buildRequest(messages: BaseMessage[], options: WireCallOptions): WireRequest;

  protected abstract readChunks(events: AsyncIterable<SseEvent>): AsyncGenerator<AIMessageChunk>;

  /** The provider's error body as a message (and a corrected status where its codes mislead). */
  protected abstract errorOf(body: unknown): ServerError;

  override bindTools(tools: OpenAIToolDefinition[], kwargs?: Partial<WireCallOptions>) {
    return this.withConfig({ tools, ...kwargs });
  }

  override async *_streamResponseChunks(messages: BaseMessage[], options: this["ParsedCallOptions"], runManager?: CallbackManagerForLLMRun): AsyncGenerator<ChatGenerationChunk> {
    const request = this.buildRequest(messages, options);
    const response = await this.fields.fetch(request.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream", ...request.headers },
      body: JSON.stringify(request.body),
      signal: options.signal,
    });
    await throwIfFailed(response, (body) => this.errorOf(body));
    await requireEventStream(response);
    const stream = watchedEventStream(response, false);
    try {
      for await (const message of this.readChunks(readSseEvents(stream.body))) {
        const text = typeof message.content === "string" ? message.content : "";
        if (text) await runManager?.handleLLMNewToken(text);
        yield new ChatGenerationChunk({ text, message });
      }
    } catch (error) {
      // A stream without a single event was never an answer cut short.
      if (error instanceof StreamCutError && !stream.hadEvents()) throw stream.emptyError();
      throw error;
    }
  }

  override async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"], runManager?: CallbackManagerForLLMRun): Promise<ChatResult> {
    let whole: ChatGenerationChunk | undefined;
    for await (const chunk of this._streamResponseChunks(messages, options, runManager)) whole = whole ? whole.concat(chunk) : chunk;
    const message = whole?.message ?? new AIMessageChunk({ content: "" });
    return { generations: [{ text: whole?.text ?? "", message }] };
  }
}
