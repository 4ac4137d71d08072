import type { z } from "zod";
import type { CopilotSettings } from "../settings/settingsSchema";
import type { RunApprovals } from "../ports/approval";
import type { ToolFailure } from "../errorMessage";

/** What a tool receives besides its arguments, for the one call it is serving. */
export interface ToolCallContext {
  /** Aborted when the user stops the run or the per-tool timeout passes. Tools must honour it. */
  signal: AbortSignal;
  /** The model's id for this call (from the tool-call delta), for UI events and logs. */
  toolCallId: string;
  /** The same for every call of one agent run (absent outside a run), e.g. to keep a run's edits together. */
  runId?: string;
  /**
   * Where this call's questions go: the chat whose run made the call. Absent (a run no chat
   * started, the CLI), a tool asks through the approval port it was built with.
   */
  approvals?: RunApprovals;
  /**
   * Runs `wait` (a question to the user) with the time limit paused: the user may take as long as
   * they like. The user's stop still ends it, through `signal`. Absent when nothing times the call.
   */
  untimed?<T>(wait: () => Promise<T>): Promise<T>;
  /**
   * Marks the point of no return (a write begins): from here neither the time limit nor the
   * user's stop cuts the call off. The call's result is then what the tool returns (or throws),
   * so it says what really happened. A stop is still told through `signal`. Throws when the call
   * was stopped already, so nothing begins after a stop.
   */
  commit?(): void;
  /**
   * In an agent run: whether a web address was named by the user, an attachment or a tool's
   * result, not made up by the model (see tools/web/namedUrls.ts). Absent outside a run.
   */
  isNamedUrl?: (url: string) => boolean;
}

/**
 * A tool as the model sees it: a name, a description, a zod schema for its arguments and the
 * function that runs it. `func` returns structured output; `formatForModel` turns it into the text
 * the model reads (the structured value goes to the UI, as LangChain's content-and-artifact tools do).
 */
export interface SimpleTool<I = unknown, O = unknown> {
  name: string;
  description: string;
  schema: z.ZodType<I>;
  // Method syntax on purpose: it lets a registry hold tools of different argument types (AnySimpleTool).
  func(args: I, context: ToolCallContext): Promise<O>;
  /** Text for the model; the default is the string itself, or pretty JSON for anything else. */
  formatForModel?(output: O): string;
  /**
   * For a tool that returns its failures as results (MCP's `isError`, as the protocol reports
   * tool errors): the failure a result reports, or undefined for a success. The model reads the
   * result as formatted; the call's status is "error" and the view words the failure.
   */
  failureOf?(output: O): ToolFailure | undefined;
  /** True when the tool changes nothing: such calls may run side by side in one agent step. */
  isReadOnly?: boolean;
  /** Overrides the runner's default time limit for one call of this tool. */
  timeoutMs?: number;
  /**
   * A JSON Schema to bind instead of the one derived from `schema` (MCP tools keep their server's
   * schema as it is; `schema` still validates the arguments before the call).
   */
  inputJsonSchema?: Record<string, unknown>;
}

/** Any tool, whatever its argument and output types (the registry holds mixed tools). */
export type AnySimpleTool = SimpleTool<unknown, unknown>;

export type ToolCategory = "search" | "web" | "time" | "file" | "media" | "mcp" | "custom";

/** How the chat view's banner speaks of a call: before approval, while it runs, once it is done. */
export interface ToolWording {
  pending: string;
  running: string;
  done: string;
}

export interface ToolMetadata {
  /** Unique id; also the key in `autonomousAgentEnabledToolIds`. */
  id: string;
  displayName: string;
  /** Help text for the settings UI. */
  description: string;
  category: ToolCategory;
  /** Always bound, whatever the settings say (e.g. the time tools); not shown as a toggle. */
  isAlwaysEnabled?: boolean;
  /**
   * Switched on for a new install. The default `autonomousAgentEnabledToolIds` is made from this
   * flag (`defaultEnabledToolIds`), so a tool's file is the one place that says it.
   */
  enabledByDefault?: boolean;
  /**
   * Writes to the user's notes: each edit is shown as a diff to approve, and the settings offer
   * "apply edits without asking" for it (`isEditTool`).
   */
  editsNotes?: boolean;
  /** Left out when no vault is available (e.g. a headless run without a folder). */
  requiresVault?: boolean;
  /**
   * False while the tool lacks what the user must set up first (web search without a search
   * service): it is then not offered to the model at all, rather than offered to fail.
   */
  isSetUp?: (settings: CopilotSettings) => boolean;
  /** Behavioural guidance for the model, added to the system prompt when the tool is enabled. */
  customPromptInstructions?: string;
  /** Banner wording; a generic wording built from `displayName` is used where it is absent. */
  wording?: ToolWording;
}

export interface ToolDefinition {
  tool: AnySimpleTool;
  metadata: ToolMetadata;
}

/**
 * True for tools that change notes (their metadata says `editsNotes`). MCP tools are not among
 * them: every MCP call asks, whatever the server says of it (see ToolSettingsSection's wording).
 */
export function isEditTool(definition: ToolDefinition): boolean {
  return definition.metadata.editsNotes === true;
}

/** Default text for the model from a tool's output. */
export function defaultFormatForModel(output: unknown): string {
  if (typeof output === "string") return output;
  if (output === undefined) return "";
  return JSON.stringify(output, null, 2);
}

/** The banner wording for a tool, falling back to one made from its display name. */
export function wordingOf(metadata: ToolMetadata): ToolWording {
  if (metadata.wording) return metadata.wording;
  const name = metadata.displayName;
  return {
    pending: `Would like to use ${name}`,
    running: `Using ${name}`,
    done: `Used ${name}`,
  };
}
