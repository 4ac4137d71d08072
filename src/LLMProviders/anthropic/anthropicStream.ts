import { AIMessageChunk } from "@langchain/core/messages";
import { HttpStatusError, MalformedEventError, StreamCutError } from "../../net/httpStatusError";
import type { SseEvent } from "../../net/sseEvents";
import { count, toUsageMetadata, type WireUsage } from "../wire/usageMetadata";

/** Anthropic's stop reasons in the chat-completions words the runners know. */
const FINISH_REASONS: Readonly<Record<string, string>> = { end_turn: "stop", stop_sequence: "stop", tool_use: "tool_calls", max_tokens: "length" };

/** The HTTP status an error type stands for, so a mid-stream error is classified like a refused request. */
export const ANTHROPIC_ERROR_STATUS: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

interface StreamData {
  type?: string;
  index?: number;
  message?: { usage?: Record<string, unknown> };
  content_block?: { type?: string; id?: string; name?: string };
  delta?: { type?: string; text?: string; partial_json?: string; stop_reason?: string };
  usage?: Record<string, unknown>;
  error?: { type?: string; message?: string };
}

/**
 * Turns the Messages API's stream into message chunks: `text_delta` into content,
 * `content_block_start` of a `tool_use` and its `input_json_delta`s into tool-call chunks (one
 * index per content block), and `message_delta` into the finish reason and the usage (input and
 * cache counts from `message_start`, the output count from `message_delta`). An `error` event
 * throws as the HTTP error it stands for; a stream without `message_stop` throws StreamCutError.
 */
export async function* anthropicChunks(events: AsyncIterable<SseEvent>): AsyncGenerator<AIMessageChunk> {
  const usage: WireUsage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  for await (const event of events) {
    let data: StreamData;
    try {
      data = JSON.parse(event.data) as StreamData;
    } catch {
      throw new MalformedEventError(event.data);
    }
    switch (data.type) {
      case "message_start": {
        const start = data.message?.usage ?? {};
        usage.cacheRead = count(start.cache_read_input_tokens);
        usage.cacheWrite = count(start.cache_creation_input_tokens);
        usage.input = count(start.input_tokens) + usage.cacheRead + usage.cacheWrite;
        usage.output = count(start.output_tokens);
        break;
      }
      case "content_block_start":
        if (data.content_block?.type === "tool_use") {
          yield new AIMessageChunk({
            content: "",
            tool_call_chunks: [{ type: "tool_call_chunk", index: data.index, id: data.content_block.id, name: data.content_block.name, args: "" }],
          });
        }
        break;
      case "content_block_delta":
        if (data.delta?.type === "text_delta" && data.delta.text) yield new AIMessageChunk({ content: data.delta.text });
        else if (data.delta?.type === "input_json_delta" && data.delta.partial_json) {
          yield new AIMessageChunk({ content: "", tool_call_chunks: [{ type: "tool_call_chunk", index: data.index, args: data.delta.partial_json }] });
        }
        break;
      case "message_delta": {
        if (data.usage && "output_tokens" in data.usage) usage.output = count(data.usage.output_tokens);
        const reason = data.delta?.stop_reason;
        yield new AIMessageChunk({
          content: "",
          usage_metadata: toUsageMetadata(usage),
          response_metadata: reason ? { finish_reason: FINISH_REASONS[reason] ?? reason } : {},
        });
        break;
      }
      case "message_stop":
        return;
      case "error": {
        const type = data.error?.type ?? "api_error";
        throw new HttpStatusError(ANTHROPIC_ERROR_STATUS[type] ?? 500, new Headers(), data.error?.message ?? type, type);
      }
      default:
        // ping, content_block_stop, thinking deltas: nothing to hand on.
        break;
    }
  }
  throw new StreamCutError("the message_stop event");
}
