/**
 * A scripted server for Gemini's Generative Language API on 127.0.0.1:
 * `POST /v1beta/models/{model}:streamGenerateContent?alt=sse` answered as SSE `data:` chunks of
 * GenerateContentResponse (text parts, `functionCall` parts, the finish reason and
 * `usageMetadata` on the last chunk), or an error status with Google's error body;
 * `GET /v1beta/models` lists `knownModels`. Requests for other models answer 404 as Gemini does.
 */
import { imageProblem } from "./imageWireChecks";
import { pieces, sendJson, startRecordingServer, writeSse, type RecordedRequest, type StreamControl } from "./recordingServer";

export interface GeminiScriptedAnswer extends StreamControl {
  text?: string;
  functionCalls?: Array<{ name: string; args: Record<string, unknown>; id?: string; thoughtSignature?: string }>;
  finishReason?: string;
  /** A chunk holding an error, after this many chunks, instead of the rest. */
  errorAfterChunks?: number;
  cachedTokens?: number;
}

export interface GeminiScriptedStatus {
  status: number;
  message?: string;
  statusText?: string;
  details?: unknown[];
}

export type GeminiScripted = GeminiScriptedAnswer | GeminiScriptedStatus;

export interface GeminiBody {
  contents: Array<{ role: string; parts: Array<Record<string, unknown>> }>;
  systemInstruction?: { parts: Array<{ text: string }> };
  tools?: Array<{ functionDeclarations: Array<{ name: string; description: string; parametersJsonSchema: unknown }> }>;
  toolConfig?: { functionCallingConfig: { mode: string } };
  generationConfig?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface GeminiServer {
  /** "http://127.0.0.1:PORT/v1beta" */
  baseUrl: string;
  requests: Array<RecordedRequest<GeminiBody>>;
  close(): Promise<void>;
}

export async function startGeminiServer(
  script: GeminiScripted[] | ((request: RecordedRequest<GeminiBody>) => GeminiScripted),
  options: { knownModels?: string[] } = {},
): Promise<GeminiServer> {
  let position = 0;
  const server = await startRecordingServer<GeminiBody>({
    get: (path) =>
      path.endsWith("/v1beta/models")
        ? { status: 200, body: { models: (options.knownModels ?? []).map((id) => ({ name: `models/${id}`, displayName: id, supportedGenerationMethods: ["generateContent"] })) } }
        : undefined,
    post: async (request, outgoing) => {
      const match = /\/v1beta\/models\/([^/:]+):streamGenerateContent\?alt=sse$/.exec(request.url);
      if (!match) return sendJson(outgoing, 404, errorBody(404, `no route ${request.url}`, "NOT_FOUND"));
      const model = decodeURIComponent(match[1]!);
      const scripted = typeof script === "function" ? script(request) : (script[position++] ?? { status: 500, message: "geminiServer: script exhausted" });
      if ("status" in scripted) return sendJson(outgoing, scripted.status, errorBody(scripted.status, scripted.message ?? `status ${scripted.status}`, scripted.statusText ?? "INTERNAL", scripted.details));
      if (options.knownModels && !options.knownModels.includes(model)) {
        return sendJson(outgoing, 404, errorBody(404, `models/${model} is not found for API version v1beta, or is not supported for generateContent.`, "NOT_FOUND"));
      }
      const badImage = geminiImageProblem(request.body);
      if (badImage) return sendJson(outgoing, 400, errorBody(400, badImage, "INVALID_ARGUMENT"));
      await writeSse(outgoing, chunks(scripted, request.rawBody.length), scripted);
    },
  });
  return { baseUrl: `${server.origin}/v1beta`, requests: server.requests, close: () => server.close() };
}

function errorBody(code: number, message: string, status: string, details?: unknown[]) {
  return { error: { code, message, status, ...(details ? { details } : {}) } };
}

function chunks(scripted: GeminiScriptedAnswer, requestSize: number) {
  const out: Array<{ data: unknown }> = [];
  const candidate = (parts: unknown[], finishReason?: string) => ({ candidates: [{ content: { role: "model", parts }, ...(finishReason ? { finishReason } : {}), index: 0 }] });
  for (const piece of pieces(scripted.text ?? "", 4)) out.push({ data: candidate([{ text: piece }]) });
  const calls = (scripted.functionCalls ?? []).map((call) => ({
    functionCall: { name: call.name, args: call.args, ...(call.id ? { id: call.id } : {}) },
    ...(call.thoughtSignature ? { thoughtSignature: call.thoughtSignature } : {}),
  }));
  const promptTokenCount = Math.ceil(requestSize / 4);
  out.push({
    data: {
      ...candidate(calls, scripted.finishReason ?? "STOP"),
      usageMetadata: {
        promptTokenCount,
        candidatesTokenCount: Math.ceil((scripted.text ?? "").length / 4) + calls.length * 10,
        totalTokenCount: promptTokenCount + 1,
        ...(scripted.cachedTokens ? { cachedContentTokenCount: scripted.cachedTokens } : {}),
      },
    },
  });
  if (scripted.errorAfterChunks !== undefined) {
    out.splice(scripted.errorAfterChunks);
    out.push({ data: errorBody(503, "The model is overloaded. Please try again later.", "UNAVAILABLE") });
  }
  return out;
}

/** What generateContent says of a request's inline images (`inline_data`, or `inlineData` as its JSON also reads). */
function geminiImageProblem(body: GeminiBody): string | null {
  for (const content of body.contents ?? []) {
    for (const part of content.parts) {
      const inline = (part.inline_data ?? part.inlineData) as { mime_type?: unknown; mimeType?: unknown; data?: unknown } | undefined;
      if (!inline) continue;
      const problem = imageProblem(inline.mime_type ?? inline.mimeType, inline.data);
      if (problem) return `Unable to process input image: ${problem}`;
    }
  }
  return null;
}
