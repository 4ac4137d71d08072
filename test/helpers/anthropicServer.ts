/**
 * A scripted server for Anthropic's Messages API on 127.0.0.1: `POST /v1/messages` answered as a
 * stream of `message_start`, `content_block_start` / `content_block_delta` (`text_delta`,
 * `input_json_delta`) / `content_block_stop`, `message_delta` and `message_stop` events, or an
 * error status with Anthropic's error body; `GET /v1/models` lists `knownModels`.
 *
 * Prompt caching is simulated as the API documents it: a request's prefix up to each
 * `cache_control` breakpoint is written to the cache; a later request reads the longest cached
 * prefix that ends at or up to 20 blocks before one of its breakpoints. Tokens are counted as
 * characters / 4 of each block's JSON, so the reads and writes the usage reports are real
 * consequences of where the client put its breakpoints. More than 4 breakpoints answer 400.
 */
import { imageProblem } from "./imageWireChecks";
import { pieces, sendJson, startRecordingServer, writeSse, type RecordedRequest, type StreamControl } from "./recordingServer";

export interface AnthropicScriptedAnswer extends StreamControl {
  text?: string;
  toolCalls?: Array<{ id?: string; name: string; arguments: string }>;
  stopReason?: string;
  /** An `error` event instead of the rest of the stream, after this many events. */
  errorAfterEvents?: number;
  errorType?: string;
}

export interface AnthropicScriptedStatus {
  status: number;
  type?: string;
  message?: string;
  headers?: Record<string, string>;
}

export type AnthropicScripted = AnthropicScriptedAnswer | AnthropicScriptedStatus;

export interface AnthropicBody {
  model: string;
  max_tokens: number;
  system?: Array<{ type: string; text: string; cache_control?: unknown }>;
  messages: Array<{ role: string; content: Array<Record<string, unknown>> }>;
  tools?: Array<{ name: string; description: string; input_schema: unknown }>;
  tool_choice?: { type: string };
  stream?: boolean;
  [key: string]: unknown;
}

export interface AnthropicUsage {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  output_tokens: number;
}

export interface AnthropicServer {
  /** "http://127.0.0.1:PORT/v1" */
  baseUrl: string;
  requests: Array<RecordedRequest<AnthropicBody>>;
  /** The usage reported for each request, in order. */
  usages: AnthropicUsage[];
  close(): Promise<void>;
}

export async function startAnthropicServer(
  script: AnthropicScripted[] | ((request: RecordedRequest<AnthropicBody>) => AnthropicScripted),
  options: { knownModels?: string[] } = {},
): Promise<AnthropicServer> {
  let position = 0;
  const cache = new Set<string>();
  const usages: AnthropicUsage[] = [];
  const server = await startRecordingServer<AnthropicBody>({
    get: (path) => (path.endsWith("/models") ? { status: 200, body: { data: (options.knownModels ?? []).map((id) => ({ type: "model", id, display_name: id })), has_more: false } } : undefined),
    post: async (request, outgoing) => {
      if (!request.url.endsWith("/v1/messages")) return sendJson(outgoing, 404, errorBody("not_found_error", `no route ${request.url}`));
      const scripted = typeof script === "function" ? script(request) : (script[position++] ?? { status: 500, type: "api_error", message: "anthropicServer: script exhausted" });
      if ("status" in scripted) return sendJson(outgoing, scripted.status, errorBody(scripted.type ?? "api_error", scripted.message ?? `status ${scripted.status}`), scripted.headers);
      if (options.knownModels && !options.knownModels.includes(request.body.model)) return sendJson(outgoing, 404, errorBody("not_found_error", `model: ${request.body.model}`));
      const badImage = anthropicImageProblem(request.body);
      if (badImage) return sendJson(outgoing, 400, errorBody("invalid_request_error", badImage));
      const usage = simulateCache(request.body, cache);
      if (usage === "too-many") return sendJson(outgoing, 400, errorBody("invalid_request_error", "A maximum of 4 blocks with cache_control may be provided."));
      usages.push({ ...usage, output_tokens: Math.ceil((scripted.text ?? "").length / 4) + 1 });
      await writeSse(outgoing, events(scripted, request.body.model, usages[usages.length - 1]!), scripted);
    },
  });
  return { baseUrl: `${server.origin}/v1`, requests: server.requests, usages, close: () => server.close() };
}

function errorBody(type: string, message: string) {
  return { type: "error", error: { type, message } };
}

function events(scripted: AnthropicScriptedAnswer, model: string, usage: AnthropicUsage) {
  const out: Array<{ event: string; data: unknown }> = [];
  const add = (event: string, data: Record<string, unknown>) => out.push({ event, data: { type: event, ...data } });
  add("message_start", {
    message: { id: "msg_1", type: "message", role: "assistant", model, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } },
  });
  let index = 0;
  if (scripted.text) {
    add("content_block_start", { index, content_block: { type: "text", text: "" } });
    out.push({ event: "ping", data: { type: "ping" } });
    for (const piece of pieces(scripted.text, 4)) add("content_block_delta", { index, delta: { type: "text_delta", text: piece } });
    add("content_block_stop", { index });
    index++;
  }
  for (const [position, call] of (scripted.toolCalls ?? []).entries()) {
    add("content_block_start", { index, content_block: { type: "tool_use", id: call.id ?? `toolu_${position}`, name: call.name, input: {} } });
    for (const piece of pieces(call.arguments, 5)) add("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: piece } });
    add("content_block_stop", { index });
    index++;
  }
  const stop = scripted.stopReason ?? (scripted.toolCalls?.length ? "tool_use" : "end_turn");
  add("message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
  add("message_stop", {});
  if (scripted.errorAfterEvents !== undefined) {
    out.splice(scripted.errorAfterEvents);
    out.push({ event: "error", data: { type: "error", error: { type: scripted.errorType ?? "overloaded_error", message: "Overloaded" } } });
  }
  return out;
}

/**
 * A request as the cache sees it: its blocks in order (tools, system, then each message's content)
 * with the running prefix key and token count after each, and the positions of its breakpoints.
 */
export function promptBlocks(body: AnthropicBody): { keys: string[]; tokens: number[]; marked: number[] } {
  const blocks: unknown[] = [...(body.tools ?? []), ...(body.system ?? [])];
  const marked: number[] = [];
  (body.tools ?? []).forEach((tool, index) => "cache_control" in tool && marked.push(index));
  (body.system ?? []).forEach((block) => block.cache_control && marked.push(blocks.indexOf(block)));
  for (const [messageIndex, message] of body.messages.entries()) {
    for (const block of message.content) {
      if (block.cache_control) marked.push(blocks.length);
      blocks.push({ messageIndex, role: message.role, ...block });
    }
  }
  const keys: string[] = [];
  const tokens: number[] = [];
  let running = "";
  let total = 0;
  for (const block of blocks) {
    const text = JSON.stringify({ ...(block as object), cache_control: undefined });
    running += text;
    total += Math.ceil(text.length / 4);
    keys.push(running);
    tokens.push(total);
  }
  return { keys, tokens, marked };
}

/** The tokens two requests share from their first block (whole blocks only, as the cache counts). */
export function sharedPrefixTokens(left: AnthropicBody, right: AnthropicBody): number {
  const a = promptBlocks(left);
  const b = promptBlocks(right);
  let shared = 0;
  for (let index = 0; index < Math.min(a.keys.length, b.keys.length) && a.keys[index] === b.keys[index]; index++) shared = a.tokens[index]!;
  return shared;
}

/** The cache as the API describes it; see the file's comment. */
function simulateCache(body: AnthropicBody, cache: Set<string>): Omit<AnthropicUsage, "output_tokens"> | "too-many" {
  const { keys, tokens, marked } = promptBlocks(body);
  if (marked.length > 4) return "too-many";
  const total = tokens[tokens.length - 1] ?? 0;
  let read = 0;
  for (const point of marked) {
    for (let at = point; at >= Math.max(0, point - 20); at--) {
      if (cache.has(keys[at]!)) {
        read = Math.max(read, tokens[at]!);
        break;
      }
    }
  }
  const lastMark = marked.length > 0 ? Math.max(...marked) : -1;
  const cachedEnd = lastMark >= 0 ? tokens[lastMark]! : 0;
  for (const point of marked) cache.add(keys[point]!);
  const write = Math.max(0, cachedEnd - read);
  return { input_tokens: total - read - write, cache_read_input_tokens: read, cache_creation_input_tokens: write };
}

/** What the Messages API says of a request's image blocks: a base64 source of a type it takes, bytes of that type. */
function anthropicImageProblem(body: AnthropicBody): string | null {
  for (const [messageIndex, message] of (body.messages ?? []).entries()) {
    for (const [blockIndex, block] of message.content.entries()) {
      if (block.type !== "image") continue;
      const source = block.source as { type?: unknown; media_type?: unknown; data?: unknown } | undefined;
      const where = `messages.${messageIndex}.content.${blockIndex}.image.source`;
      if (source?.type !== "base64") return `${where}: only base64 sources are taken here`;
      const problem = imageProblem(source.media_type, source.data);
      if (problem) return `${where}.base64: ${problem}`;
    }
  }
  return null;
}
