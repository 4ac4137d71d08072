import { LayerToMessagesConverter } from "../../context/LayerToMessagesConverter";
import type { PayloadMessage } from "../../context/PromptContextTypes";
import type { PromptPayloadRecorder } from "../../context/promptPayloadRecorder";
import { buildSystemPromptParts, type ProjectPrompt, type SystemPromptPart, type ToolGuidance } from "../../context/systemPrompt";
import type { ChatMode } from "../../settings/settingsSchema";
import type { CopilotSettings } from "../../settings/settingsSchema";
import { errorMessage } from "../../errorMessage";
import type { ChatModelHandle } from "../chatModelFactory";
import { ModelError } from "../../net/modelErrors";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "../../net/retryPolicy";
import { streamModelStep, type ModelStep, type StreamingModel } from "../streamModelStep";
import { addUsage, emptyUsage, type TokenUsage } from "../tokenUsage";
import type { ChainErrorKind, ChainEvent, ChainRunInput, ChainRunResult, StopReason, ToolCallRecord } from "./ChainEvents";

export interface ChainRunnerDependencies {
  /** Read at the start of each run, so a settings change applies to the next message. */
  getSettings: () => CopilotSettings;
  /** Makes the model for one run (from the current provider settings; may throw a ModelError). */
  createModel: () => ChatModelHandle;
  recorder?: PromptPayloadRecorder;
  retryPolicy?: RetryPolicy;
  /** How long a model request may stay silent (MODEL_IDLE_TIMEOUT_MS by default; tests shorten it). */
  modelIdleTimeoutMs?: number;
  /**
   * Whether the model is known to take images (its "Takes images" setting). Images go to it only
   * then; otherwise they are left out of the request and a notice names them. Absent: false.
   */
  takesImages?: () => boolean;
  /** The project the chat is in: its part of L1 (its scope is in the searcher and tools the runner is handed). */
  project?: ProjectPrompt;
}

/** The state of one run, shared by the base and the runner answering it. */
export class RunState {
  steps = 0;
  /** The text of the step streaming now (what is kept when the run is cut off). */
  stepText = "";
  readonly usage: TokenUsage = emptyUsage();
  readonly toolCalls: ToolCallRecord[] = [];

  constructor(
    readonly input: ChainRunInput,
    readonly settings: CopilotSettings,
    readonly model: ChatModelHandle,
  ) {}

  emit(event: ChainEvent): void {
    this.input.onEvent?.(event);
  }

  get signal(): AbortSignal {
    return this.input.signal;
  }
}

export interface RunnerAnswer {
  text: string;
  stopReason: StopReason;
}

/**
 * What every runner shares: making the model, building the layered payload, streaming a step
 * with retries and recording what was sent, and turning the outcome into events and a result.
 * A runner supplies `answer`; a completed run records its turn in the conversation.
 */
export abstract class BaseChainRunner {
  /** "chat", "vault-qa" or "agent": for the payload recorder. */
  abstract readonly runnerName: string;

  constructor(protected readonly dependencies: ChainRunnerDependencies) {}

  protected abstract answer(state: RunState): Promise<RunnerAnswer>;

  async run(input: ChainRunInput): Promise<ChainRunResult> {
    const settings = this.dependencies.getSettings();
    let state: RunState | undefined;
    try {
      state = new RunState(input, settings, this.dependencies.createModel());
      const { text, stopReason } = await this.answer(state);
      input.conversation.recordTurn({ userMessage: input.userMessage, attachments: input.attachments ?? [], assistantMessage: text });
      state.emit({ type: "final", text, stopReason, steps: state.steps, usage: { ...state.usage } });
      return { status: "completed", text, stopReason, steps: state.steps, toolCalls: state.toolCalls, usage: { ...state.usage } };
    } catch (error) {
      const { kind, message } = describeFailure(error, input.signal);
      const partialText = state?.stepText ?? "";
      input.onEvent?.({ type: "error", kind, message, partialText });
      return {
        status: kind === "aborted" ? "aborted" : "failed",
        text: partialText,
        error: { kind, message },
        steps: state?.steps ?? 0,
        toolCalls: state?.toolCalls ?? [],
        usage: state ? { ...state.usage } : emptyUsage(),
      };
    }
  }

  /** L1 for this run's mode: the built-in instructions, the user's own, the project's (when the chat is in one), the tools' guidance. */
  protected systemPrompt(state: RunState, mode: ChatMode, toolGuidance?: readonly ToolGuidance[]): SystemPromptPart[] {
    const project = this.dependencies.project;
    return buildSystemPromptParts({
      mode,
      userInstructions: state.settings.systemPrompt,
      ...(project ? { project } : {}),
      ...(toolGuidance ? { toolGuidance } : {}),
    });
  }

  /** The base payload of a turn: L1 + L2 as the system message, L4, then L3 + L5 in CiC order. */
  protected basePayload(state: RunState, system: readonly SystemPromptPart[], turnBlocks: readonly string[] = []): PayloadMessage[] {
    const envelope = state.input.conversation.buildEnvelope({
      system: system.map((part) => part.text).join(""),
      systemParts: system,
      userMessage: state.input.userMessage,
      attachments: state.input.attachments,
      turnBlocks,
    });
    const payload = LayerToMessagesConverter.convertWithLayers(envelope, {
      includeSystemMessage: state.model.quirks.acceptsSystemMessage,
      mergeUserContent: true,
    });
    return this.dependencies.takesImages?.() === true ? payload : withoutImages(payload, state);
  }

  /** Sends one request: records it, streams it (text deltas become events), adds up usage. */
  protected async streamStep(state: RunState, model: StreamingModel, payload: readonly PayloadMessage[], toolNames: string[]): Promise<ModelStep> {
    const step = ++state.steps;
    state.stepText = "";
    this.dependencies.recorder?.record({ runner: this.runnerName, model: state.model.modelName, step, toolNames, messages: payload });
    const response = await streamModelStep(model, LayerToMessagesConverter.toLangChainMessages(payload), {
      signal: state.signal,
      idleTimeoutMs: this.dependencies.modelIdleTimeoutMs,
      maxOutputTokens: state.settings.provider.maxTokens,
      errorContext: state.model.errorContext,
      retryPolicy: this.dependencies.retryPolicy ?? DEFAULT_RETRY_POLICY,
      fallbackToolCallId: (position) => `call_${step}_${position}`,
      onTextDelta: (text) => {
        state.stepText += text;
        state.emit({ type: "text-delta", step, text });
      },
      onRetry: ({ attempt, delayMs, error }) => state.emit({ type: "retry", step, attempt, delayMs, message: error.message }),
    });
    if (response.usage) addUsage(state.usage, response.usage);
    return response;
  }
}

/**
 * The payload without images, for a model not known to take them: a server that takes none
 * refuses the whole request (HTTP 400), so they are left out and the chat says which.
 */
function withoutImages(payload: PayloadMessage[], state: RunState): PayloadMessage[] {
  const names = payload.flatMap((message) => (message.images ?? []).map((image) => image.name));
  if (names.length === 0) return payload;
  const model = state.model.modelName;
  const which = names.length === 1 ? `The image ${names[0]} was` : `${names.length} images (${names.join(", ")}) were`;
  state.emit({
    type: "notice",
    message: `${which} left out: ${model} is not known to take images. If it does, switch on “Takes images” for it in Settings → Vault Copilot → Model provider.`,
    case: { code: "images-left-out", model, names },
  });
  return payload.map(({ images: _images, ...message }) => message);
}

function describeFailure(error: unknown, signal: AbortSignal): { kind: ChainErrorKind; message: string } {
  if (error instanceof ModelError) return { kind: error.kind, message: error.message };
  if (signal.aborted) return { kind: "aborted", message: "The run was stopped." };
  return { kind: "failed", message: errorMessage(error) };
}
