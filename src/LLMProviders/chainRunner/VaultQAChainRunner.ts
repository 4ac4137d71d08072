import { buildLocalSearchInnerContent, wrapLocalSearchPayload } from "../../context/cicPromptUtils";
import { formatSearchResultsForLLM } from "../../context/formatSearchResultsForLLM";
import type { NoteSearcher } from "../../ports/NoteSearcher";
import { errorMessage } from "../../errorMessage";
import { BaseChainRunner, type ChainRunnerDependencies, type RunnerAnswer, type RunState } from "./BaseChainRunner";

export interface VaultQAChainRunnerDependencies extends ChainRunnerDependencies {
  /** The note index; null while it is not set up (a run then fails, saying so). */
  getSearcher: () => NoteSearcher | null;
}

/**
 * Answers from the user's notes: searches the vault for the message, hands the hits to the model
 * as a localSearch payload in this turn's context (guidance, then the documents, then the
 * question), and streams an answer that cites the notes as [[note]] links. The hits are sent to
 * the view first (a "sources" event), so it can list them while the answer streams.
 */
export class VaultQAChainRunner extends BaseChainRunner {
  readonly runnerName = "vault-qa";

  constructor(protected override readonly dependencies: VaultQAChainRunnerDependencies) {
    super(dependencies);
  }

  protected async answer(state: RunState): Promise<RunnerAnswer> {
    const searcher = this.dependencies.getSearcher();
    if (!searcher) throw new Error("Vault search is not set up yet, so the notes cannot be searched. Try again once the index is built.");
    let results;
    try {
      results = await searcher.search(state.input.userMessage, { limit: state.settings.search.maxResults, signal: state.signal });
    } catch (error) {
      if (state.signal.aborted) throw error;
      throw new Error(`Searching the vault failed: ${errorMessage(error)}`);
    }
    state.emit({ type: "sources", step: state.steps + 1, results });
    const searchBlock = wrapLocalSearchPayload(buildLocalSearchInnerContent(formatSearchResultsForLLM(results)));
    const system = this.systemPrompt(state, "vault-qa");
    const payload = this.basePayload(state, system, [searchBlock]);
    const response = await this.streamStep(state, state.model.chatModel, payload, []);
    state.emit({ type: "step-end", step: state.steps, toolCallCount: 0, finishReason: response.finishReason, usage: response.usage });
    return { text: response.text, stopReason: "answer" };
  }
}
