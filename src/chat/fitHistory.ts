import type { ChatRunner } from "./ChatController";
import { ContextManager } from "../context/ContextManager";
import type { ContextArtifact, ConversationTurn } from "../context/PromptContextTypes";
import { estimateImageTokens } from "../context/imageInput";

/** The context window assumed for a model whose settings name none (what current hosted models offer at least). */
export const DEFAULT_CONTEXT_WINDOW_TOKENS = 128_000;

/**
 * The share of the window kept free for what the chat does not count: the instructions (L1) and
 * the tools' descriptions, which together stay well under a tenth of a 128k window.
 */
const RESERVED_SHARE = 0.1;

/** How much a request to a model may hold. */
export interface ContextBudget {
  /** The model's context window, in tokens. */
  contextWindowTokens: number;
  /** Kept free for the answer (the "longest answer" setting). */
  answerTokens: number;
}

/** A model's budget from its settings. */
export function budgetOf(model: { maxTokens: number; contextWindowTokens?: number | undefined }): ContextBudget {
  return { contextWindowTokens: model.contextWindowTokens ?? DEFAULT_CONTEXT_WINDOW_TOKENS, answerTokens: model.maxTokens };
}

/**
 * Tokens a text takes, estimated without the model's tokenizer (none can be loaded offline): a
 * token per four ASCII characters, one per other character. Tokenizers give Latin text about four
 * characters a token and Han, Thai or Arabic one or two characters, so this errs on the large side
 * for the scripts that are dearer, and the history is cut a little early rather than too late.
 */
export function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (const character of text) {
    if (character.charCodeAt(0) < 0x80) ascii++;
    else other++;
  }
  return Math.ceil(ascii / 4) + other;
}

function attachmentTokens(attachments: readonly ContextArtifact[]): number {
  return attachments.reduce(
    (sum, artifact) => sum + estimateTokens(artifact.title) + estimateTokens(artifact.content) + (artifact.images ?? []).reduce((total, image) => total + estimateImageTokens(image), 0),
    0,
  );
}

function turnTokens(turn: ConversationTurn): number {
  return estimateTokens(turn.userMessage) + estimateTokens(turn.assistantMessage) + attachmentTokens(turn.attachments);
}

/**
 * The latest turns that fit beside the new question in the budget, and how many older ones were
 * left out. Whole exchanges are dropped, oldest first (with their attachments, which they bring
 * into the context library), so what is sent is a true, shorter version of the chat.
 */
export function fitTurns(turns: readonly ConversationTurn[], question: { text: string; attachments: readonly ContextArtifact[] }, budget: ContextBudget): { turns: ConversationTurn[]; dropped: number } {
  const free = budget.contextWindowTokens * (1 - RESERVED_SHARE) - budget.answerTokens - estimateTokens(question.text) - attachmentTokens(question.attachments);
  let used = 0;
  let first = turns.length;
  while (first > 0) {
    const cost = turnTokens(turns[first - 1] as ConversationTurn);
    if (used + cost > free) break;
    used += cost;
    first--;
  }
  return { turns: turns.slice(first), dropped: first };
}

/** What the chat is told when earlier exchanges were left out of a request. */
export function leftOutNotice(dropped: number, budget: ContextBudget): string {
  const exchanges = dropped === 1 ? "1 earlier exchange of this chat was" : `${dropped} earlier exchanges of this chat were`;
  return `${exchanges} left out of the request to fit the model's context window (${budget.contextWindowTokens.toLocaleString("en-US")} tokens); the model does not see ${dropped === 1 ? "it" : "them"}.`;
}

/**
 * A runner that sends only as much of the chat's history as fits the model's context window
 * (`budget`, read at each run), the oldest exchanges left out first, and says how many were left
 * out with a `notice` event before anything else. A turn the run completes is recorded in the
 * conversation it was given, as without the fitting.
 */
export function fitHistoryToContext(runner: ChatRunner, budget: () => ContextBudget): ChatRunner {
  return {
    run: async (input) => {
      const all = input.conversation.getTurns();
      const limits = budget();
      const fitted = fitTurns(all, { text: input.userMessage, attachments: input.attachments ?? [] }, limits);
      if (fitted.dropped === 0) return runner.run(input);
      input.onEvent?.({ type: "notice", message: leftOutNotice(fitted.dropped, limits), case: { code: "history-left-out", dropped: fitted.dropped, contextWindow: limits.contextWindowTokens } });
      const conversation = new ContextManager(fitted.turns);
      try {
        return await runner.run({ ...input, conversation });
      } finally {
        for (const turn of conversation.getTurns().slice(fitted.turns.length)) input.conversation.recordTurn(turn);
      }
    },
  };
}
