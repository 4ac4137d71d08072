import type { ContextArtifact, ConversationTurn, HistoryMessage, PromptEnvelope } from "./PromptContextTypes";
import type { SystemPromptPart } from "./systemPrompt";
import { artifactKey } from "./renderContextArtifacts";

export interface TurnInput {
  /** L1, already rendered (see buildSystemPrompt). */
  system: string;
  /** L1 in the parts the payload view shows apart (see buildSystemPromptParts); their text joined is `system`. */
  systemParts?: readonly SystemPromptPart[];
  /** L5: the message as the user typed it. */
  userMessage: string;
  /** What the user attached to this message. */
  attachments?: readonly ContextArtifact[];
  /** Rendered L3 blocks a runner adds for this turn (e.g. the vault search payload). */
  turnBlocks?: readonly string[];
}

/**
 * One conversation's layers. Artifacts attached in earlier turns are promoted into L2, the
 * context library: each appears once (same id and same content), in the order it was first
 * attached, and the library only grows at its end. So the system prefix of every request in a
 * conversation starts with the previous request's system prefix, byte for byte, whichever runner
 * sends it. History (L4) keeps the user's words and the answers, not the attachments: those live
 * in L2 from the next turn on.
 *
 * The state is nothing but the list of finished turns, so a conversation loaded back from its
 * saved note rebuilds the same prefix.
 */
export class ContextManager {
  private readonly turns: ConversationTurn[];

  constructor(turns: readonly ConversationTurn[] = []) {
    this.turns = [...turns];
  }

  /** The finished turns, oldest first. */
  getTurns(): readonly ConversationTurn[] {
    return this.turns;
  }

  /** L2 as the next turn will see it. */
  getContextLibrary(): ContextArtifact[] {
    return collectLibrary(this.turns);
  }

  /** The envelope of the next request; pure: nothing changes until `recordTurn`. */
  buildEnvelope(input: TurnInput): PromptEnvelope {
    const contextLibrary = collectLibrary(this.turns);
    const seen = new Set(contextLibrary.map(artifactKey));
    const turnContext: ContextArtifact[] = [];
    for (const artifact of input.attachments ?? []) {
      const key = artifactKey(artifact);
      if (seen.has(key)) continue;
      seen.add(key);
      turnContext.push(artifact);
    }
    const history = historyMessages(this.turns);
    return {
      system: input.system,
      ...(input.systemParts ? { systemParts: input.systemParts } : {}),
      contextLibrary,
      turnContext,
      turnBlocks: input.turnBlocks ?? [],
      history,
      userMessage: input.userMessage,
    };
  }

  /** Adds a finished turn; its attachments join the library of every later turn. */
  recordTurn(turn: ConversationTurn): void {
    this.turns.push(turn);
  }
}

/**
 * L4: each turn's words and answer. A question keeps the images first attached with it, so an
 * image stays where the model first saw it (and the prefix stays the same from request to
 * request); an artifact attached again later brings no second copy.
 */
function historyMessages(turns: readonly ConversationTurn[]): HistoryMessage[] {
  const seen = new Set<string>();
  return turns.flatMap((turn) => {
    const images = turn.attachments.flatMap((artifact) => {
      const key = artifactKey(artifact);
      if (seen.has(key)) return [];
      seen.add(key);
      return artifact.images ?? [];
    });
    return [
      { role: "user" as const, content: turn.userMessage, ...(images.length > 0 ? { images } : {}) },
      { role: "assistant" as const, content: turn.assistantMessage },
    ];
  });
}

/** Every turn's attachments, first attachment first, each distinct artifact once. */
function collectLibrary(turns: readonly ConversationTurn[]): ContextArtifact[] {
  const seen = new Set<string>();
  const library: ContextArtifact[] = [];
  for (const turn of turns) {
    for (const artifact of turn.attachments) {
      const key = artifactKey(artifact);
      if (seen.has(key)) continue;
      seen.add(key);
      library.push(artifact);
    }
  }
  return library;
}
