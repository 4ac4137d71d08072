import { ContextManager } from "../../src/context/ContextManager";
import type { ContextArtifact } from "../../src/context/PromptContextTypes";
import { renderCiCMessage } from "../../src/context/cicPromptUtils";
import { renderContextArtifact } from "../../src/context/renderContextArtifacts";
import { AutonomousAgentChainRunner } from "../../src/LLMProviders/chainRunner/AutonomousAgentChainRunner";
import { createChatModel } from "../../src/LLMProviders/chatModelFactory";
import { DEFAULT_SETTINGS } from "../../src/constants";
import { MapSecretStore } from "../../src/ports/SecretStore";
import { initializeBuiltinTools } from "../../src/tools/builtinTools";
import { ToolRegistry } from "../../src/tools/ToolRegistry";
import { FsVault } from "../../src/vault/FsVault";
import { startOpenAIServer, type ChatRequestBody } from "../../test/helpers/openAIServer";
import { makeTempVault } from "../../test/helpers/tempVault";
import { makeToolDependencies } from "../../test/helpers/toolHarness";

export interface PrefixFigures {
  turns: number;
  requests: number;
  promptBytes: number;
  /** Of all prompt bytes sent, the share that repeats the previous request's prompt from its first byte. */
  share: number;
  /** The same over the first request of each turn only (what turn-to-turn caching gets). */
  firstRequestShare: number;
  /** For comparison, first request of each turn, same notes and words, other layouts. */
  resendAllNotesShare: number;
  notesInHistoryShare: number;
}

const WORDS = "budget launch review design team risk metric customer schedule draft release vendor contract survey quality roadmap".split(" ");

/** A note of about `bytes` bytes of plain, varied text (deterministic). */
export function noteText(seed: number, bytes: number): string {
  let state = seed * 7919 + 17;
  const next = () => (state = (state * 48271) % 2147483647);
  const lines: string[] = [`# Note ${seed}`, ""];
  let size = 12;
  while (size < bytes) {
    const sentence = Array.from({ length: 8 + (next() % 8) }, () => WORDS[next() % WORDS.length]).join(" ");
    lines.push(`${sentence[0]?.toUpperCase()}${sentence.slice(1)}.`);
    size += sentence.length + 2;
  }
  return lines.join("\n");
}

export interface ScriptedTurn {
  question: string;
  attachments: ContextArtifact[];
  /** Whether the model reads a note with a tool before answering. */
  readsNote: boolean;
}

/** Ten turns: a new note most turns, one re-attached unchanged, one edited, tool use every other turn. */
export function conversationScript(): { turns: ScriptedTurn[]; notes: Record<string, string> } {
  const notes: Record<string, string> = {};
  const artifact = (index: number, content: string): ContextArtifact => ({ id: `note:Note ${index}.md`, kind: "note", title: `Note ${index}`, source: `Note ${index}.md`, content });
  for (let index = 1; index <= 10; index++) notes[`Note ${index}.md`] = noteText(index, 1500 + (index % 3) * 700);
  const attachmentsOfTurn: ContextArtifact[][] = [
    [artifact(1, notes["Note 1.md"] ?? "")],
    [artifact(2, notes["Note 2.md"] ?? "")],
    [],
    [artifact(3, notes["Note 3.md"] ?? ""), artifact(1, notes["Note 1.md"] ?? "")],
    [artifact(4, notes["Note 4.md"] ?? "")],
    [artifact(2, `${notes["Note 2.md"] ?? ""}\nAdded after the review: the vendor signed.`)],
    [artifact(5, notes["Note 5.md"] ?? "")],
    [],
    [artifact(6, notes["Note 6.md"] ?? "")],
    [artifact(7, notes["Note 7.md"] ?? "")],
  ];
  return {
    notes,
    turns: attachmentsOfTurn.map((attachments, index) => ({
      question: `Question ${index + 1}: what does this say about the ${WORDS[index % WORDS.length]}, and what should I do next?`,
      attachments,
      readsNote: index % 2 === 1,
    })),
  };
}

function commonPrefixLength(left: string, right: string): number {
  const limit = Math.min(left.length, right.length);
  let index = 0;
  while (index < limit && left.charCodeAt(index) === right.charCodeAt(index)) index++;
  return index;
}

/** What a provider caches on: the tools, then the messages, in the order they are sent. */
function promptOf(body: Pick<ChatRequestBody, "tools" | "messages">): string {
  return JSON.stringify(body.tools ?? []) + JSON.stringify(body.messages);
}

function shareOf(prompts: string[]): { share: number; bytes: number } {
  let cached = 0;
  let bytes = 0;
  prompts.forEach((prompt, index) => {
    bytes += Buffer.byteLength(prompt);
    if (index > 0) cached += Buffer.byteLength(prompt.slice(0, commonPrefixLength(prompt, prompts[index - 1] ?? "")));
  });
  return { share: bytes === 0 ? 0 : cached / bytes, bytes };
}

/**
 * The cacheable-prefix share over a scripted ten-turn conversation with attached notes, through
 * the real agent runner and a real HTTP server; then the same conversation laid out two other
 * ways (computed, not sent) for comparison.
 */
export async function measurePrefixShare(): Promise<PrefixFigures> {
  const { turns, notes } = conversationScript();
  const vault = makeTempVault(notes, "vault-copilot-bench-");
  const answers = turns.map((_, index) => `Answer ${index + 1}: ${noteText(100 + index, 300).split("\n").slice(2).join(" ")}`);
  let turnIndex = 0;
  const server = await startOpenAIServer((request) => {
    const turn = turns[turnIndex];
    const toolMessages = request.body.messages.filter((message) => message.role === "tool").length;
    // History keeps no tool messages, so any in the request are this turn's.
    if (turn?.readsNote && toolMessages === 0) {
      return { toolCalls: [{ name: "readNote", arguments: JSON.stringify({ notePath: `Note ${(turnIndex % 10) + 1}` }) }] };
    }
    return { text: answers[turnIndex] ?? "" };
  });
  try {
    const settings = {
      ...structuredClone(DEFAULT_SETTINGS),
      provider: { ...DEFAULT_SETTINGS.provider, preset: "custom" as const, baseUrl: server.baseUrl, model: "bench-model", apiKeySecretId: "" },
    };
    const registry = new ToolRegistry();
    initializeBuiltinTools(registry, makeToolDependencies({ vault: new FsVault(vault.root), settings }));
    const runner = new AutonomousAgentChainRunner({
      getSettings: () => settings,
      createModel: () => createChatModel(settings.provider, { fetch: globalThis.fetch, secrets: new MapSecretStore() }),
      registry,
      vaultAvailable: () => true,
    });
    const conversation = new ContextManager();
    const firstOfTurn: number[] = [];
    for (turnIndex = 0; turnIndex < turns.length; turnIndex++) {
      const turn = turns[turnIndex];
      if (!turn) break;
      firstOfTurn.push(server.requests.length);
      const result = await runner.run({ userMessage: turn.question, attachments: turn.attachments, conversation, signal: new AbortController().signal });
      if (result.status !== "completed") throw new Error(`turn ${turnIndex + 1} failed: ${result.error?.message ?? ""}`);
    }
    const prompts = server.requests.map((request) => promptOf(request.body));
    const overall = shareOf(prompts);
    const firsts = firstOfTurn.map((index) => prompts[index] ?? "");
    const tools = server.requests[0]?.body.tools;
    // The first request's system message is L1 alone: the library is still empty.
    const firstSystem = server.requests[0]?.body.messages[0]?.content;
    const systemOfRequest = typeof firstSystem === "string" ? firstSystem : "";
    return {
      turns: turns.length,
      requests: prompts.length,
      promptBytes: overall.bytes,
      share: overall.share,
      firstRequestShare: shareOf(firsts).share,
      resendAllNotesShare: shareOf(alternativeLayout(turns, answers, tools, systemOfRequest, "resend")).share,
      notesInHistoryShare: shareOf(alternativeLayout(turns, answers, tools, systemOfRequest, "history")).share,
    };
  } finally {
    await server.close();
    vault.remove();
  }
}

/**
 * The first request of each turn under a layout without a context library: "resend" puts every
 * note attached so far before the question of each turn (history keeps only the words);
 * "history" leaves each note in the message it was attached to, and that message in the history.
 */
function alternativeLayout(
  turns: ScriptedTurn[],
  answers: string[],
  tools: ChatRequestBody["tools"],
  system: string,
  layout: "resend" | "history",
): string[] {
  const prompts: string[] = [];
  const attachedSoFar: ContextArtifact[] = [];
  const history: Array<{ role: string; content: string }> = [];
  turns.forEach((turn, index) => {
    for (const artifact of turn.attachments) if (!attachedSoFar.some((seen) => seen.id === artifact.id && seen.content === artifact.content)) attachedSoFar.push(artifact);
    const blocks = (layout === "resend" ? attachedSoFar : turn.attachments).map((artifact) => renderContextArtifact(artifact));
    const user = renderCiCMessage(blocks, turn.question);
    prompts.push(promptOf({ tools, messages: [{ role: "system", content: system }, ...history, { role: "user", content: user }] }));
    history.push({ role: "user", content: layout === "history" ? user : turn.question }, { role: "assistant", content: answers[index] ?? "" });
  });
  return prompts;
}
