import { ensureCiCOrderingWithQuestion, renderCiCMessage } from "../../context/cicPromptUtils";
import { payloadText, type PayloadMessage, type PayloadSegment } from "../../context/PromptContextTypes";
import { abortReason } from "../../ports/timers";
import { DEFAULT_MAX_TOOL_OUTPUT_CHARS } from "../../tools/runTool";
import type { ToolDefinition } from "../../tools/SimpleTool";
import type { ToolSource } from "../../tools/ToolRegistry";
import { NamedUrls } from "../../tools/web/namedUrls";
import type { StreamingModel } from "../streamModelStep";
import type { AssembledToolCall } from "../toolCallAssembler";
import { argumentsObject, parseArguments, toolGuidanceOf, toOpenAITool } from "./agentTools";
import { BaseChainRunner, type ChainRunnerDependencies, type RunnerAnswer, type RunState } from "./BaseChainRunner";
import { executeToolCalls, type ToolCallOutcome } from "./executeToolCalls";

export interface AgentChainRunnerDependencies extends ChainRunnerDependencies {
  /** Where the tools come from: the app's registry (or a test's own), or a project's view of it. */
  registry: ToolSource;
  /** Whether a vault is open (tools that need one are left out otherwise). */
  vaultAvailable: () => boolean;
  /** Longest tool result the model reads, in characters. */
  maxToolOutputChars?: number;
}

/** Told to the model once every step has been used, before the last request (which has no tools). */
export function iterationLimitNotice(steps: number): string {
  return `You have used all ${steps} tool steps this turn. Do not call any more tools: answer now from the tool results above, and say what is still missing if they are not enough.`;
}

/**
 * The agent: binds the enabled tools, streams each step, runs the tool calls the model makes and
 * feeds their results back, until the model answers without calling a tool or the step limit
 * (`autonomousAgentMaxIterations`) is reached; then one more request, with tool use switched off,
 * streams the final answer.
 *
 * The payload only grows by appending: L1 (with the enabled tools' guidance, in registry order)
 * and L2 stay as they are, each step adds the assistant's tool-call message and one tool message
 * per call, and the last tool message of every step ends with the question (CiC: the documents
 * first, the question last). So each request's prefix is byte-identical to the previous one.
 */
export class AutonomousAgentChainRunner extends BaseChainRunner {
  readonly runnerName = "agent";

  constructor(protected override readonly dependencies: AgentChainRunnerDependencies) {
    super(dependencies);
  }

  /**
   * The tools to bind: always-enabled ones plus the enabled ids in the settings, in registry
   * order, leaving out those still waiting to be set up (web search with no search service).
   */
  getAvailableTools(): ToolDefinition[] {
    const settings = this.dependencies.getSettings();
    const enabled = new Set(settings.autonomousAgentEnabledToolIds);
    return this.dependencies.registry.getEnabledDefinitions(enabled, this.dependencies.vaultAvailable()).filter((definition) => definition.metadata.isSetUp?.(settings) ?? true);
  }

  protected async answer(state: RunState): Promise<RunnerAnswer> {
    const definitions = this.getAvailableTools();
    const question = state.input.userMessage;
    const system = this.systemPrompt(state, "agent", toolGuidanceOf(definitions));
    const payload = this.basePayload(state, system);
    const tools = definitions.map((definition) => toOpenAITool(definition.tool));
    const toolNames = tools.map((tool) => tool.function.name);
    const chatModel = state.model.chatModel;
    const withTools: StreamingModel = tools.length > 0 ? chatModel.bindTools(tools) : chatModel;
    const maxSteps = state.settings.autonomousAgentMaxIterations;
    const urls = namedUrlsOf(payload);

    for (let iteration = 1; iteration <= maxSteps; iteration++) {
      const response = await this.streamStep(state, withTools, payload, toolNames);
      const step = state.steps;
      state.emit({ type: "step-end", step, toolCallCount: response.toolCalls.length, finishReason: response.finishReason, usage: response.usage });
      if (response.toolCalls.length === 0) return { text: response.text, stopReason: "answer" };

      urls.addWritten([response.text, ...response.toolCalls.map((call) => call.argumentsText)].join("\n"));
      payload.push(assistantToolCallMessage(response.text, response.toolCalls, step));
      const outcomes = await this.runCalls(state, step, response.toolCalls, definitions, urls);
      for (const outcome of outcomes) urls.addResult(outcome.text);
      payload.push(...toolResultMessages(outcomes, question));
      // A stopped run ends here, with every call's end reported, before another request goes out.
      if (state.signal.aborted) throw abortReason(state.signal);
    }

    // Same tools, same prefix (it stays cacheable), but tool use switched off for this request.
    payload.push({ role: "user", segments: limitSegments(maxSteps, question) });
    const finalModel: StreamingModel = tools.length > 0 ? chatModel.bindTools(tools, { tool_choice: "none" }) : chatModel;
    const response = await this.streamStep(state, finalModel, payload, toolNames);
    state.emit({ type: "step-end", step: state.steps, toolCallCount: 0, finishReason: response.finishReason, usage: response.usage });
    // A server that ignores tool_choice may still call tools: those calls are not run.
    const text = response.text || `I stopped after ${maxSteps} tool steps without reaching an answer.`;
    return { text, stopReason: "iteration-limit" };
  }

  private runCalls(state: RunState, step: number, calls: AssembledToolCall[], definitions: ToolDefinition[], urls: NamedUrls): Promise<ToolCallOutcome[]> {
    return executeToolCalls(calls, {
      definitions,
      signal: state.signal,
      isNamedUrl: (url) => urls.has(url),
      ...(state.input.approvals ? { approvals: state.input.approvals } : {}),
      defaultTimeoutMs: state.settings.toolTimeoutSeconds * 1000,
      maxOutputChars: this.dependencies.maxToolOutputChars ?? DEFAULT_MAX_TOOL_OUTPUT_CHARS,
      onStart: (call, definition) =>
        state.emit({
          type: "tool-call-start",
          step,
          toolCallId: call.id,
          toolName: call.name,
          ...(definition ? { toolId: definition.metadata.id } : {}),
          args: parseArguments(call.argumentsText),
        }),
      onEnd: (outcome) => {
        state.toolCalls.push({ step, toolCallId: outcome.call.id, toolName: outcome.call.name, status: outcome.status });
        state.emit({
          type: "tool-call-end",
          step,
          toolCallId: outcome.call.id,
          toolName: outcome.call.name,
          ...(outcome.definition ? { toolId: outcome.definition.metadata.id } : {}),
          status: outcome.status,
          resultText: outcome.text,
          ...(outcome.status === "ok" ? { output: outcome.output } : {}),
          ...(outcome.failure ? { failure: outcome.failure } : {}),
          durationMs: outcome.durationMs,
        });
      },
    });
  }
}

/** The addresses the request names before the model says anything: the user's and the attachments' (earlier answers are the model's own). */
function namedUrlsOf(payload: readonly PayloadMessage[]): NamedUrls {
  const urls = new NamedUrls();
  for (const message of payload) {
    if (message.role === "assistant") urls.addWritten(payloadText(message));
    else urls.addNamed(payloadText(message));
  }
  return urls;
}

function assistantToolCallMessage(text: string, calls: readonly AssembledToolCall[], step: number): PayloadMessage {
  return {
    role: "assistant",
    segments: [{ layer: "L3", text, label: `agent step ${step}` }],
    toolCalls: calls.map((call) => ({ id: call.id, name: call.name, args: argumentsObject(call.argumentsText) })),
  };
}

/** One tool message per call, in call order; the last one ends with the labelled question. */
function toolResultMessages(outcomes: readonly ToolCallOutcome[], question: string): PayloadMessage[] {
  return outcomes.map((outcome, index) => {
    const label = `${outcome.call.name || "unknown tool"} result`;
    const segments: PayloadSegment[] =
      index === outcomes.length - 1 ? withQuestionLast(outcome.text, question, label) : [{ layer: "L3", text: outcome.text, label }];
    return { role: "tool", toolCallId: outcome.call.id, segments };
  });
}

/** ensureCiCOrderingWithQuestion, split into the result (L3) and the question it appends (L5). */
function withQuestionLast(resultText: string, question: string, label: string): PayloadSegment[] {
  const whole = ensureCiCOrderingWithQuestion(resultText, question);
  const kept = resultText.trimEnd();
  const result: PayloadSegment = { layer: "L3", text: kept, label };
  return whole.length > kept.length ? [result, { layer: "L5", text: whole.slice(kept.length) }] : [result];
}

function limitSegments(steps: number, question: string): PayloadSegment[] {
  const whole = renderCiCMessage([iterationLimitNotice(steps)], question);
  const labelled = renderCiCMessage([], question);
  return [
    { layer: "L3", text: whole.slice(0, whole.length - labelled.length), label: "step limit" },
    { layer: "L5", text: labelled },
  ];
}
