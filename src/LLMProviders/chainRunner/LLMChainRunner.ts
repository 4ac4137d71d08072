import { BaseChainRunner, type RunnerAnswer, type RunState } from "./BaseChainRunner";

/** Plain chat: the layered prompt, one streamed answer, no tools, no search. */
export class LLMChainRunner extends BaseChainRunner {
  readonly runnerName = "chat";

  protected async answer(state: RunState): Promise<RunnerAnswer> {
    const system = this.systemPrompt(state, "chat");
    const payload = this.basePayload(state, system);
    const response = await this.streamStep(state, state.model.chatModel, payload, []);
    state.emit({ type: "step-end", step: state.steps, toolCallCount: 0, finishReason: response.finishReason, usage: response.usage });
    return { text: response.text, stopReason: "answer" };
  }
}
