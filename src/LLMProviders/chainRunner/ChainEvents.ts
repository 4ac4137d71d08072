import type { ToolFailure } from "../../errorMessage";
import type { ContextArtifact } from "../../context/PromptContextTypes";
import type { ContextManager } from "../../context/ContextManager";
import type { SearchResultForLLM } from "../../ports/NoteSearcher";
import type { RunApprovals } from "../../ports/approval";
import type { ToolRunStatus } from "../../tools/runTool";
import type { ModelErrorKind } from "../../net/modelErrors";
import type { TokenUsage } from "../tokenUsage";

/** How a tool call ended: as runTool says, or "unknown-tool" when the model named no bound tool. */
export type ToolCallStatus = ToolRunStatus | "unknown-tool";

/**
 * What a run tells the chat view (and the CLI's `--json`), in order. `step` counts model
 * requests from 1; the agent makes one per step, the other runners one in all.
 */
/** What a notice of an answer says, by case and values, for a view in another language (`message` is the English). */
export type AnswerNotice =
  /** Images left out of the request: the model is not known to take them. */
  | { code: "images-left-out"; model: string; names: readonly string[] }
  /** The oldest exchanges left out to fit the model's context window (in tokens). */
  | { code: "history-left-out"; dropped: number; contextWindow: number };

export type ChainEvent =
  | { type: "text-delta"; step: number; text: string }
  | { type: "retry"; step: number; attempt: number; delayMs: number; message: string }
  /** Something the user should know about this request (e.g. earlier exchanges left out to fit the context window), with its case. */
  | { type: "notice"; message: string; case?: AnswerNotice }
  | { type: "sources"; step: number; results: SearchResultForLLM[] }
  | {
      type: "tool-call-start";
      step: number;
      toolCallId: string;
      toolName: string;
      /** The registry id, when the name is a bound tool's. */
      toolId?: string;
      /** The parsed arguments, or the raw text when it is not JSON. */
      args: unknown;
    }
  | {
      type: "tool-call-end";
      step: number;
      toolCallId: string;
      toolName: string;
      toolId?: string;
      status: ToolCallStatus;
      /** What the model reads. */
      resultText: string;
      /** The tool's structured output, for the view (present when status is "ok"). */
      output?: unknown;
      /** A failure's kind and values, for the view to word in the interface's language (the model reads `resultText`). */
      failure?: ToolFailure;
      durationMs: number;
    }
  | { type: "step-end"; step: number; toolCallCount: number; finishReason?: string; usage?: TokenUsage }
  | { type: "final"; text: string; stopReason: StopReason; steps: number; usage: TokenUsage }
  | { type: "error"; kind: ChainErrorKind; message: string; partialText: string };

/** "answer": the model answered; "iteration-limit": the agent used every step and was told to answer. */
export type StopReason = "answer" | "iteration-limit";

/** A model failure, or "failed" for anything else that ended the run (e.g. the vault search). */
export type ChainErrorKind = ModelErrorKind | "failed";

export interface ChainRunInput {
  /** L5: the message as typed. */
  userMessage: string;
  /** Attached this turn (L3; L2 in later turns). */
  attachments?: readonly ContextArtifact[];
  /** The conversation; a completed run records its turn there. */
  conversation: ContextManager;
  signal: AbortSignal;
  /**
   * Where this run's tools ask for approval: the chat that started it. Absent (the CLI, a run no
   * chat started), each tool asks through the approval port it was built with.
   */
  approvals?: RunApprovals;
  onEvent?: (event: ChainEvent) => void;
}

export interface ToolCallRecord {
  step: number;
  toolCallId: string;
  toolName: string;
  status: ToolCallStatus;
}

export interface ChainRunResult {
  status: "completed" | "aborted" | "failed";
  /** The answer; for a run that did not complete, the part of the last step that arrived. */
  text: string;
  stopReason?: StopReason;
  error?: { kind: ChainErrorKind; message: string };
  steps: number;
  toolCalls: ToolCallRecord[];
  usage: TokenUsage;
}
