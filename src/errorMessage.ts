/** The message of anything thrown: an Error's message, a string as it is, anything else as JSON. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

/**
 * The common ways a tool call fails, named where the failure is raised, so that a view can say
 * it in the interface's language. The model always reads the English sentence (the error's
 * message); the kind and its values are for the person.
 */
export const TOOL_FAILURE_KINDS = [
  "note-not-found",
  "outside-project",
  "outside-project-folders",
  "path-refused",
  "no-match",
  "several-matches",
  "not-text",
  "document-no-text",
  "document-encrypted",
  "document-unreadable",
  "file-refused",
  "note-changed",
  "file-busy",
  "write-failed",
  "switched-off",
  "unreachable",
  "url-refused",
  "timer-running",
  "timeout",
  "stopped",
  "invalid-arguments",
  "arguments-not-json",
  "unknown-tool",
  "chunk-past-end",
  "time-not-understood",
  "epoch-out-of-range",
  "search-not-set-up",
  "search-no-key",
  "search-key-refused",
  "search-rate-limited",
  "search-json-off",
  "search-status",
  "search-not-json",
  "not-web-address",
  "page-not-a-page",
  "page-no-text",
  "page-too-many-redirects",
  "page-status",
  "no-video-link",
  "no-folder",
  "properties-not-yaml",
  "no-vault",
  "not-set-up-here",
  "mcp-error",
  "mcp-error-no-details",
  "mcp-call-failed",
  "mcp-not-connected",
  "mcp-not-approved",
] as const;

export type ToolFailureKind = (typeof TOOL_FAILURE_KINDS)[number];

/** A failure's kind and the values its sentence names (a path, a count, a host). */
export interface ToolFailure {
  kind: ToolFailureKind;
  values: Readonly<Record<string, string | number>>;
}

/** True for a kind this version knows (a chat note edited by hand, or written by a later version, may name another). */
export function isToolFailureKind(kind: string): kind is ToolFailureKind {
  return (TOOL_FAILURE_KINDS as readonly string[]).includes(kind);
}

/** The kind an error was raised with (its `failure`), or undefined for an error that has none. */
export function toolFailureOf(error: unknown): ToolFailure | undefined {
  if (typeof error !== "object" || error === null || !("failure" in error)) return undefined;
  const failure = error.failure;
  if (typeof failure !== "object" || failure === null) return undefined;
  const { kind, values } = failure as Partial<ToolFailure>;
  return typeof kind === "string" && typeof values === "object" && values !== null ? { kind, values } : undefined;
}

/** An error a tool raises with its kind: the message is the model's, the failure the view's. */
export class ToolFailureError extends Error {
  constructor(
    message: string,
    readonly failure: ToolFailure,
  ) {
    super(message);
    this.name = "ToolFailureError";
  }
}
