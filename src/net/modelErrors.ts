import type { SseEventTooLargeError } from "./sseEvents";

export type ModelErrorKind =
  | "missing-api-key"
  | "authentication"
  | "model-not-found"
  | "endpoint-not-found"
  | "rate-limited"
  | "server"
  | "bad-request"
  | "unreachable"
  | "interrupted"
  | "timeout"
  | "bad-response"
  | "answer-too-long"
  | "aborted"
  | "unknown";

/**
 * A failed model request, said in words a user can act on ("refused the API key", "has no model
 * named …", "cannot reach …"). `retryable` marks what a retry may cure: rate limits, server
 * errors, a dropped connection before any answer.
 */
export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly details: { status?: number; retryable?: boolean; retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: details.cause });
    this.name = "ModelError";
  }

  get retryable(): boolean {
    return this.details.retryable ?? false;
  }

  get status(): number | undefined {
    return this.details.status;
  }
}

export interface ModelErrorContext {
  /** The provider's name, e.g. "Ollama". */
  providerName: string;
  baseUrl: string;
  model: string;
  /** What to check when the server cannot be reached. */
  unreachableHint: string;
  /** True when part of the answer had already arrived (a cut-off stream, not a refused request). */
  receivedAnything: boolean;
}

interface ErrorFields {
  status?: unknown;
  headers?: unknown;
  error?: unknown;
  code?: unknown;
  cause?: unknown;
  name?: unknown;
  message?: unknown;
}

const CONNECTION_CODES: Readonly<Record<string, string>> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
  ECONNRESET: "connection reset",
  ETIMEDOUT: "connection timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  UND_ERR_SOCKET: "connection closed by the server",
  UND_ERR_CONNECT_TIMEOUT: "connection timed out",
};

/** Turns whatever the client threw into a ModelError (a ModelError passes through unchanged). */
export function classifyModelError(error: unknown, context: ModelErrorContext, signal?: AbortSignal): ModelError {
  if (error instanceof ModelError) return error;
  if (signal?.aborted || isAbortError(error)) return new ModelError("aborted", "The request to the model was stopped.", { cause: error });

  const fields = (typeof error === "object" && error !== null ? error : {}) as ErrorFields;
  const status = typeof fields.status === "number" ? fields.status : undefined;
  const where = `${context.providerName} (${context.baseUrl})`;
  if (status !== undefined) {
    const serverMessage = serverMessageOf(fields);
    const said = serverMessage ? `: ${serverMessage}` : "";
    const details = { status, cause: error };
    if (status === 401 || status === 403) {
      return new ModelError("authentication", `${where} refused the API key (HTTP ${status}${said}). Check the API key in the settings.`, details);
    }
    if (status === 404 || (status === 400 && /model/i.test(serverMessage) && /not (found|exist)|does not exist|unknown/i.test(serverMessage))) {
      if (/model/i.test(serverMessage) || fields.code === "model_not_found") {
        return new ModelError("model-not-found", `${where} has no model "${context.model}" (HTTP ${status}${said}). Check the model name.`, details);
      }
      return new ModelError(
        "endpoint-not-found",
        `${where} has no chat-completions endpoint (HTTP ${status}${said}). Check the base URL: it usually ends in /v1.`,
        details,
      );
    }
    if (status === 429) {
      return new ModelError("rate-limited", `${where} is rate-limiting requests (HTTP 429${said}).`, {
        ...details,
        retryable: true,
        retryAfterMs: retryAfterMs(fields.headers),
      });
    }
    if (status >= 500 || status === 408) {
      return new ModelError("server", `${where} failed to answer (HTTP ${status}${said}).`, {
        ...details,
        retryable: true,
        retryAfterMs: retryAfterMs(fields.headers),
      });
    }
    return new ModelError("bad-request", `${where} rejected the request (HTTP ${status}${said}).`, details);
  }

  const unexpected = causeNamed(error, "UnexpectedBodyError");
  if (unexpected) return new ModelError("bad-response", `${where} ${unexpected.message}`, { cause: error });
  const tooLarge = causeNamed(error, "SseEventTooLargeError");
  if (tooLarge) {
    const kept = context.receivedAnything ? "; the part that arrived is kept" : "";
    return new ModelError("bad-response", `${where} sent ${(tooLarge as SseEventTooLargeError).what}; the stream was stopped${kept}.`, { cause: error });
  }
  if (fields.name === "MalformedEventError") {
    const kept = context.receivedAnything ? "; the part that arrived is kept" : "";
    return new ModelError(context.receivedAnything ? "interrupted" : "unknown", `${where} broke off its answer: ${plainMessage(fields)}${kept}.`, { cause: error });
  }
  const connection = connectionProblem(error);
  if (context.receivedAnything) {
    return new ModelError(
      "interrupted",
      `The connection to ${where} was lost in the middle of the answer${connection ? ` (${connection})` : ""}; the part that arrived is kept.`,
      { cause: error },
    );
  }
  if (connection || isConnectionError(fields)) {
    const reason = connection ?? "no connection";
    return new ModelError("unreachable", `Cannot reach ${where} (${reason}). ${context.unreachableHint}`, {
      cause: error,
      // A reset may be a blip; a refused connection or an unknown host will not heal by itself.
      retryable: reason === "connection reset" || reason === "connection closed by the server",
    });
  }
  return new ModelError("unknown", `The request to ${where} failed: ${plainMessage(fields)}`, { cause: error });
}

/** The server's own words: OpenAI's `{ error: { message } }` body, else the client's message. */
function serverMessageOf(fields: ErrorFields): string {
  const body = fields.error as { message?: unknown } | undefined;
  if (body && typeof body.message === "string" && body.message.trim()) return body.message.trim();
  // The client prefixes the status ("401 …") and LangChain appends a troubleshooting link.
  return plainMessage(fields).replace(/^\d{3}\s*/, "").replace(/^status code \(no body\)$/i, "");
}

function plainMessage(fields: ErrorFields): string {
  const message = typeof fields.message === "string" ? fields.message : "unknown error";
  return message.replace(/\s*Troubleshooting URL:.*$/s, "").trim();
}

/** Milliseconds from a Retry-After header (seconds, or an HTTP date), when there is one. */
export function retryAfterMs(headers: unknown, now = Date.now()): number | undefined {
  let value: string | null | undefined;
  if (headers && typeof (headers as Headers).get === "function") value = (headers as Headers).get("retry-after");
  else if (headers && typeof headers === "object") {
    const record = headers as Record<string, unknown>;
    const raw = record["retry-after"] ?? record["Retry-After"];
    value = typeof raw === "string" ? raw : undefined;
  }
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The error along the cause chain (the OpenAI client wraps what its fetch threw) that has this name. */
function causeNamed(error: unknown, name: string): Error | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current; depth++) {
    if (current instanceof Error && current.name === name) return current;
    current = (current as ErrorFields).cause;
  }
  return undefined;
}

/** The first known network error code along the cause chain, in words. */
function connectionProblem(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current; depth++) {
    const fields = current as ErrorFields;
    if (typeof fields.code === "string" && CONNECTION_CODES[fields.code]) return CONNECTION_CODES[fields.code];
    if (typeof fields.message === "string" && fields.message === "terminated") return "connection closed by the server";
    current = fields.cause;
  }
  return undefined;
}

function isConnectionError(fields: ErrorFields): boolean {
  return typeof fields.message === "string" && /connection error|fetch failed|network/i.test(fields.message);
}

function isAbortError(error: unknown): boolean {
  const name = (error as ErrorFields | null)?.name;
  return name === "AbortError" || (error as { constructor?: { name?: string } } | null)?.constructor?.name === "APIUserAbortError";
}
