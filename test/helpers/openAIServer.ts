/**
 * A real HTTP server on 127.0.0.1 (random port) that speaks the OpenAI chat-completions wire
 * format, scripted by the test. It answers `POST …/chat/completions` (any prefix, so both
 * `${server.baseUrl}` = "http://127.0.0.1:PORT/v1" and a bare origin work) and `GET …/models`.
 *
 *   const server = await startOpenAIServer([
 *     { text: "Hello there" },                                  // a text answer
 *     { toolCalls: [{ name: "readNote", arguments: '{"notePath":"a.md"}' }] },
 *     { status: 429, headers: { "retry-after": "0" } },         // an HTTP error
 *     { text: "partial answer", cutAfterChunks: 2 },            // socket destroyed mid-stream
 *     { text: "never ends", holdOpen: true },                   // stays open until the client goes
 *     { text: "held", pauseAfterChunks: 3, resumeWhen: gate },  // 3 chunks, then the rest once gate settles
 *     { text: "slow", chunkDelayMs: 50 },                       // a pause between chunks
 *   ]);
 *   // …or a function of the request: startOpenAIServer((request, index) => ({ text: "…" }))
 *   server.baseUrl;           // "http://127.0.0.1:PORT/v1", hand it to the client as its base URL
 *   server.requests;          // every chat-completions request: { body (parsed JSON), headers, … }
 *   server.requests[0].body.messages, .tools, .stream …
 *   await server.requests[0].closed;  // settles when that request's connection has closed
 *   await server.close();     // in afterAll: closes every connection, leaves no open handle
 *
 * Whether an answer is streamed follows the request's `stream` flag: SSE `data: {chunk}\n\n`
 * lines ending with `data: [DONE]`, or one JSON body. In a stream, text arrives in deltas of
 * `chunkSize` characters (default 4); each tool call's first delta carries `index`, `id`,
 * `type` and `function.name`, and its arguments follow in pieces of `argumentChunkSize`
 * (default 5) characters, call after call (or round-robin with `interleaveToolCalls`). The last
 * choice chunk carries `finish_reason` ("tool_calls" when there are calls, else "stop" or the
 * scripted one); usage follows in its own chunk when `stream_options.include_usage` is set.
 *
 * `POST …/completions` (the legacy endpoint fill-in-the-middle uses: `prompt` and `suffix`) is
 * answered from the same script and recorded among `requests`; its stream carries the text as
 * `choices[0].text`.
 *
 * `knownModels` makes requests for any other model answer 404 `model_not_found`, the way OpenAI
 * does. A script that runs out answers 500 with "openAIServer: script exhausted", so a test that
 * makes one call too many fails loudly instead of hanging.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
// Node's own, so the server also runs inside jsdom tests (jsdom has no setImmediate).
import { setImmediate } from "node:timers";
import { openAIImages } from "./imageWireChecks";

export interface ScriptedToolCall {
  /** Defaults to `call_<request>_<index>`. */
  id?: string;
  name: string;
  /** The raw JSON text of the arguments; may be malformed on purpose. */
  arguments: string;
}

export interface ScriptedCompletion {
  /** The assistant's text; with tool calls it comes before them. */
  text?: string;
  toolCalls?: ScriptedToolCall[];
  /** Overrides the natural finish reason ("stop" / "tool_calls"), e.g. "length". */
  finishReason?: string;
  /** Characters per text delta in a stream (default 4). */
  chunkSize?: number;
  /** Characters per tool-call arguments delta in a stream (default 5). */
  argumentChunkSize?: number;
  /** Send the tool calls' argument pieces round-robin instead of one call after another. */
  interleaveToolCalls?: boolean;
  /** Destroy the socket after this many SSE chunks (or, unstreamed, before any answer). */
  cutAfterChunks?: number;
  /** Send every chunk but never finish: the connection stays open until the client closes it. */
  holdOpen?: boolean;
  /**
   * Send this many SSE chunks, then wait for `resumeWhen` before sending the rest: a stream the
   * test holds visibly in progress (the first chunk is the role-only one, so text starts at 2).
   */
  pauseAfterChunks?: number;
  /** What a paused stream waits for; the rest is not sent if the client has gone by then. */
  resumeWhen?: Promise<void>;
  /** Milliseconds between SSE chunks (default 0: all at once), so a stream is seen growing. */
  chunkDelayMs?: number;
  /** Called once the last chunk that will be sent has been written (to abort at a known point). */
  onChunksSent?: () => void;
  /** Usage figures to report; defaults to rough estimates from the body sizes. */
  usage?: { prompt_tokens: number; completion_tokens: number; prompt_tokens_details?: { cached_tokens: number } };
}

export interface ScriptedStatus {
  /** An HTTP error status: 401, 404, 429, 500, … */
  status: number;
  /** The error message inside OpenAI's `{ error: { message, type, code } }` body. */
  message?: string;
  code?: string;
  headers?: Record<string, string>;
}

export type ScriptedResponse = ScriptedCompletion | ScriptedStatus;

/** The parts of a chat-completions request body that tests look at; the rest stays reachable. */
export interface ChatRequestBody {
  model: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  messages: Array<{ role: string; content: unknown; tool_calls?: unknown[]; tool_call_id?: string; [key: string]: unknown }>;
  tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: unknown } }>;
  [key: string]: unknown;
}

export interface RecordedChatRequest {
  /** Zero-based position among chat-completions requests. */
  index: number;
  url: string;
  headers: IncomingHttpHeaders;
  /** The raw body text, byte for byte as received. */
  rawBody: string;
  body: ChatRequestBody;
  /** Settles when the connection of this request closes (the client went away or the answer ended). */
  closed: Promise<void>;
}

export type Script = ScriptedResponse[] | ((request: RecordedChatRequest) => ScriptedResponse | Promise<ScriptedResponse>);

export interface OpenAIServerOptions {
  /** When set, any other model gets 404 `model_not_found`. */
  knownModels?: string[];
  /** The port to listen on (default: a free one); e.g. to bring up a server a client found unreachable. */
  port?: number;
  /** Models that take no images: a request with an image part for one answers 400, as OpenAI's text-only models do. */
  textOnlyModels?: string[];
  /**
   * Other things this server answers GET for (a web page a test attaches), by path: so one server
   * behind a proxy that forwards to the base URL only (the browser demo's) serves both.
   */
  pages?: (path: string) => { contentType: string; body: string | Uint8Array } | undefined;
}

export interface OpenAIServer {
  /** "http://127.0.0.1:PORT/v1" */
  baseUrl: string;
  /** "http://127.0.0.1:PORT" */
  origin: string;
  requests: RecordedChatRequest[];
  close(): Promise<void>;
}

export async function startOpenAIServer(script: Script, options: OpenAIServerOptions = {}): Promise<OpenAIServer> {
  const requests: RecordedChatRequest[] = [];
  let position = 0;
  const next = (request: RecordedChatRequest): ScriptedResponse | Promise<ScriptedResponse> => {
    if (typeof script === "function") return script(request);
    const scripted = script[position++];
    return scripted ?? { status: 500, message: "openAIServer: script exhausted" };
  };

  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const url = incoming.url ?? "/";
      const path = url.split("?")[0] ?? "/";
      const page = incoming.method === "GET" ? options.pages?.(path) : undefined;
      if (page) {
        outgoing.writeHead(200, { "Content-Type": page.contentType });
        outgoing.end(page.body);
        return;
      }
      if (incoming.method === "GET" && path.endsWith("/models")) {
        sendJson(outgoing, 200, { object: "list", data: (options.knownModels ?? []).map((id) => ({ id, object: "model", owned_by: "test" })) });
        return;
      }
      if (incoming.method !== "POST" || !path.endsWith("/completions")) {
        sendJson(outgoing, 404, errorBody(`openAIServer: no route ${incoming.method ?? "?"} ${path}`, "not_found"));
        return;
      }
      const rawBody = Buffer.concat(chunks).toString("utf8");
      let body: ChatRequestBody;
      try {
        body = JSON.parse(rawBody) as ChatRequestBody;
      } catch {
        sendJson(outgoing, 400, errorBody("openAIServer: the request body is not JSON", "invalid_json"));
        return;
      }
      const closed = new Promise<void>((resolve) => outgoing.once("close", () => resolve()));
      const request: RecordedChatRequest = { index: requests.length, url, headers: incoming.headers, rawBody, body, closed };
      requests.push(request);
      if (options.knownModels && !options.knownModels.includes(body.model)) {
        sendJson(outgoing, 404, errorBody(`The model \`${body.model}\` does not exist or you do not have access to it.`, "model_not_found"));
        return;
      }
      // Images are checked as OpenAI checks them: a model that takes none refuses them, a bad one is refused.
      const images = openAIImages(body.messages ?? []);
      if (images.length > 0 && options.textOnlyModels?.includes(body.model)) {
        sendJson(outgoing, 400, errorBody("Invalid content type. image_url is only supported by certain models.", null));
        return;
      }
      const badImage = images.find((image) => image.problem !== null);
      if (badImage) {
        sendJson(outgoing, 400, errorBody(`Invalid image: ${badImage.problem ?? ""}`, "invalid_image"));
        return;
      }
      Promise.resolve(next(request)).then(
        (scripted) => answer(outgoing, request, scripted),
        (error: unknown) => sendJson(outgoing, 500, errorBody(`openAIServer: the script threw: ${String(error)}`, "script_error")),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    baseUrl: `${origin}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function answer(outgoing: ServerResponse, request: RecordedChatRequest, scripted: ScriptedResponse): void {
  if ("status" in scripted) {
    sendJson(outgoing, scripted.status, errorBody(scripted.message ?? `scripted status ${scripted.status}`, scripted.code ?? null), scripted.headers);
    return;
  }
  if (request.body.stream) streamCompletion(outgoing, request, scripted);
  else if (scripted.cutAfterChunks !== undefined) outgoing.socket?.destroy();
  else sendJson(outgoing, 200, wholeCompletion(request, scripted));
}

const CREATED = 1_780_000_000;

function completionId(request: RecordedChatRequest): string {
  return `chatcmpl-test-${request.index}`;
}

function toolCallId(request: RecordedChatRequest, call: ScriptedToolCall, index: number): string {
  return call.id ?? `call_${request.index}_${index}`;
}

function finishReason(scripted: ScriptedCompletion): string {
  return scripted.finishReason ?? (scripted.toolCalls?.length ? "tool_calls" : "stop");
}

function usageOf(request: RecordedChatRequest, scripted: ScriptedCompletion): NonNullable<ScriptedCompletion["usage"]> & { total_tokens: number } {
  const completionChars = (scripted.text ?? "").length + (scripted.toolCalls ?? []).reduce((sum, call) => sum + call.name.length + call.arguments.length, 0);
  const usage = scripted.usage ?? { prompt_tokens: Math.ceil(request.rawBody.length / 4), completion_tokens: Math.ceil(completionChars / 4) };
  return { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
}

function wholeCompletion(request: RecordedChatRequest, scripted: ScriptedCompletion): unknown {
  const toolCalls = (scripted.toolCalls ?? []).map((call, index) => ({
    id: toolCallId(request, call, index),
    type: "function",
    function: { name: call.name, arguments: call.arguments },
  }));
  return {
    id: completionId(request),
    object: "chat.completion",
    created: CREATED,
    model: request.body.model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: scripted.text ?? (toolCalls.length ? null : ""), ...(toolCalls.length ? { tool_calls: toolCalls } : {}) },
        finish_reason: finishReason(scripted),
        logprobs: null,
      },
    ],
    usage: usageOf(request, scripted),
  };
}

function pieces(text: string, size: number): string[] {
  const step = Math.max(1, size);
  const result: string[] = [];
  for (let start = 0; start < text.length; start += step) result.push(text.slice(start, start + step));
  return result;
}

/** The SSE chunks of one streamed answer, as the objects that go after `data: `. */
export function streamChunks(request: RecordedChatRequest, scripted: ScriptedCompletion): unknown[] {
  const frame = (delta: unknown, finish: string | null = null): unknown => ({
    id: completionId(request),
    object: "chat.completion.chunk",
    created: CREATED,
    model: request.body.model,
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
  });
  if (!request.url.split("?")[0]!.endsWith("/chat/completions")) return legacyChunks(request, scripted);
  const chunks: unknown[] = [frame({ role: "assistant", content: "" })];
  for (const piece of pieces(scripted.text ?? "", scripted.chunkSize ?? 4)) chunks.push(frame({ content: piece }));

  const perCall = (scripted.toolCalls ?? []).map((call, index) => {
    const first = { index, id: toolCallId(request, call, index), type: "function", function: { name: call.name, arguments: "" } };
    const rest = pieces(call.arguments, scripted.argumentChunkSize ?? 5).map((argumentPiece) => ({ index, function: { arguments: argumentPiece } }));
    return [first, ...rest];
  });
  if (scripted.interleaveToolCalls) {
    const longest = Math.max(0, ...perCall.map((deltas) => deltas.length));
    for (let step = 0; step < longest; step++) {
      for (const deltas of perCall) {
        const delta = deltas[step];
        if (delta) chunks.push(frame({ tool_calls: [delta] }));
      }
    }
  } else {
    for (const deltas of perCall) for (const delta of deltas) chunks.push(frame({ tool_calls: [delta] }));
  }
  chunks.push(frame({}, finishReason(scripted)));
  if (request.body.stream_options?.include_usage) {
    chunks.push({ id: completionId(request), object: "chat.completion.chunk", created: CREATED, model: request.body.model, choices: [], usage: usageOf(request, scripted) });
  }
  return chunks;
}

/** A legacy `/completions` stream (fill in the middle): text as `choices[0].text`, then the usage. */
function legacyChunks(request: RecordedChatRequest, scripted: ScriptedCompletion): unknown[] {
  const frame = (text: string, finish: string | null = null): unknown => ({ id: `cmpl-test-${request.index}`, object: "text_completion", created: CREATED, model: request.body.model, choices: [{ index: 0, text, finish_reason: finish, logprobs: null }] });
  const chunks = pieces(scripted.text ?? "", scripted.chunkSize ?? 4).map((piece) => frame(piece));
  chunks.push(frame("", finishReason(scripted)));
  if (request.body.stream_options?.include_usage) chunks.push({ id: `cmpl-test-${request.index}`, object: "text_completion", created: CREATED, model: request.body.model, choices: [], usage: usageOf(request, scripted) });
  return chunks;
}

function streamCompletion(outgoing: ServerResponse, request: RecordedChatRequest, scripted: ScriptedCompletion): void {
  outgoing.writeHead(200, { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache", Connection: "keep-alive" });
  const chunks = streamChunks(request, scripted);
  const limit = scripted.cutAfterChunks ?? chunks.length;
  const finish = () => {
    scripted.onChunksSent?.();
    if (scripted.cutAfterChunks !== undefined) {
      // Let the written chunks leave before the reset, as a dropped connection would.
      setImmediate(() => outgoing.socket?.destroy());
      return;
    }
    if (scripted.holdOpen) return;
    outgoing.end("data: [DONE]\n\n");
  };
  const paced = scripted.pauseAfterChunks !== undefined || (scripted.chunkDelayMs ?? 0) > 0;
  if (!paced) {
    for (const chunk of chunks.slice(0, limit)) outgoing.write(`data: ${JSON.stringify(chunk)}\n\n`);
    finish();
    return;
  }
  void (async () => {
    for (const [index, chunk] of chunks.slice(0, limit).entries()) {
      if (index === scripted.pauseAfterChunks) await scripted.resumeWhen;
      else if (index > 0 && scripted.chunkDelayMs) await new Promise((resolve) => setTimeout(resolve, scripted.chunkDelayMs));
      // The client went away (Stop): what is left is not sent, as a real server would notice.
      if (outgoing.destroyed || outgoing.writableEnded) return;
      outgoing.write(`data: ${JSON.stringify(chunk)}\n\n`);
    }
    finish();
  })();
}

function errorBody(message: string, code: string | null): unknown {
  return { error: { message, type: "invalid_request_error", param: null, code } };
}

function sendJson(outgoing: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  outgoing.writeHead(status, { "Content-Type": "application/json; charset=utf-8", ...headers });
  outgoing.end(JSON.stringify(body));
}
