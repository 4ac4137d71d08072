import { ChatController, type ChatRunner, type RestoredChat } from "../chat/ChatController";
import { isAssistant } from "../chat/chatTypes";
import type { ChainEvent } from "../LLMProviders/chainRunner/ChainEvents";
import { ChatHistory } from "../history/ChatHistory";
import type { ChatRecord } from "../history/chatRecord";
import { ChatNoteWriter } from "../history/ChatNoteWriter";
import { budgetOf, fitHistoryToContext } from "../chat/fitHistory";
import { restoreChat } from "../history/restoreChat";
import type { ChatMode } from "../settings/settingsSchema";
import { toVaultPath, VaultPathError } from "../vault/vaultPath";
import { VaultFileNotFoundError } from "../vault/VaultPort";
import { stringFlag, UsageError, type ParsedArgs } from "./args";
import type { CliSession } from "./cliRuntime";
import { storedSecretValues } from "../settings/secrets";
import type { CliIo } from "./io";
import { chainEventPrinter } from "./printChainEvents";

/** The flags of a command whose turn can be kept as a chat note (as the plugin keeps its chats). */
export const CHAT_NOTE_FLAGS = { values: ["continue", "context-tokens"], booleans: ["save"] } as const;

/**
 * `--context-tokens N`: the model's context window, over its setting (128k when it has none). A
 * chat that goes on (`--continue`) sends only the latest exchanges that fit, and says how many it left out.
 */
export function applyContextTokensFlag(args: ParsedArgs, session: CliSession): void {
  const value = stringFlag(args, "context-tokens");
  if (value === undefined) return;
  const tokens = Number(value);
  if (!/^\d+$/.test(value) || tokens < 1000 || tokens > 100_000_000) throw new UsageError(`--context-tokens takes a whole number of tokens from 1000 to 100000000, not "${value}"`);
  session.settings.provider = { ...session.settings.provider, contextWindowTokens: tokens };
}

/** Where the turn is kept: a new note in the history folder, or the chat note `--continue` named. */
export interface ChatNoteTarget {
  history: ChatHistory;
  continued: { record: ChatRecord; path: string; text: string; chat: RestoredChat } | null;
}

/**
 * Reads `--save` and `--continue NOTE` (which implies saving): null when the turn is not kept.
 * The note of `--continue` is read now, before anything runs; a missing note, one that is not a
 * chat, or one that cannot be written (not UTF-8, read-only) ends the command with a one-line error
 * before the model is asked, and is left as it was.
 */
export async function openChatNote(args: ParsedArgs, session: CliSession, io: CliIo): Promise<ChatNoteTarget | null> {
  const named = stringFlag(args, "continue");
  if (!named && !args.flags.has("save")) return null;
  const history = new ChatHistory({ vault: session.vault, folder: () => session.settings.history.folder, secrets: () => cliSecretValues(session, io) });
  if (!named) return { history, continued: null };
  const path = continuePath(named, session.vault.configDir);
  try {
    const { record, text } = await history.load(path);
    // Going on writes the note: one that cannot be written (read-only, hard-linked) is refused before the model is asked.
    await session.vault.process(path, (current) => current);
    const restored = await restoreChat(record, session.vault, io.signal);
    for (const problem of restored.problems) io.stderr(`vault-copilot: ${problem}\n`);
    return { history, continued: { record, path, text, chat: restored.chat } };
  } catch (error) {
    if (error instanceof VaultFileNotFoundError) throw new Error(`--continue: no note at "${path}"`);
    throw error;
  }
}

/** Every secret the command knows: the key of `--api-key-env`, and the values learnt since (an MCP config's, the embeddings key). */
function cliSecretValues(session: CliSession, io: CliIo): string[] {
  return [...storedSecretValues(session.settings, session.secrets), ...(io.addedSecrets?.() ?? [])];
}

/** NOTE as a vault path, ".md" added when it was left out. */
function continuePath(named: string, configDir: string): string {
  try {
    const path = toVaultPath(named, configDir);
    return path.toLowerCase().endsWith(".md") ? path : `${path}.md`;
  } catch (error) {
    if (error instanceof VaultPathError) throw new UsageError(`--continue: ${error.message}`);
    throw error;
  }
}

export interface ChatTurnOptions {
  session: CliSession;
  mode: ChatMode;
  /** The command's runner; its events also go to the terminal (plain, or `--json`). */
  runner: ChatRunner;
  prompt: string;
  io: CliIo;
  json: boolean;
  note: ChatNoteTarget | null;
}

/**
 * One turn through a headless `ChatController`, the class behind the chat view: the conversation
 * (L4) comes from the chat's messages, and with a note the question is written before the model is
 * asked, the answer every 2 s while it streams and when it ends. Resolves with the exit status:
 * 0 when the answer is done, else 1 with its error on one line.
 */
export async function runChatTurn(options: ChatTurnOptions): Promise<number> {
  const { session, mode, runner, prompt, io, json, note } = options;
  const model = session.settings.provider.model;
  const print = chainEventPrinter(io, json);
  let lastError: Extract<ChainEvent, { type: "error" }> | undefined;
  let unsaved = false;
  // The history sent is cut to the model's context window; the notice saying so is printed like any event.
  const fitted = fitHistoryToContext(runner, () => budgetOf(session.settings.provider));
  const printed: ChatRunner = {
    run: (input) =>
      fitted.run({
        ...input,
        signal: AbortSignal.any([input.signal, io.signal]),
        onEvent: (event) => {
          if (event.type === "error") lastError = event;
          print(event);
          input.onEvent?.(event);
        },
      }),
  };
  const writer = note
    ? new ChatNoteWriter({
        vault: session.vault,
        history: note.history,
        enabled: () => true,
        onProblem: (message) => io.stderr(`vault-copilot: ${message}\n`),
        secrets: () => cliSecretValues(session, io),
      })
    : null;
  const controller = new ChatController({
    createRunner: () => printed,
    readContext: () => Promise.resolve({ artifacts: [], problems: [] }),
    defaults: () => ({ mode, model }),
    onProblem: (message) => io.stderr(`vault-copilot: ${message}\n`),
    ...(writer ? { persistence: writer } : {}),
  });
  try {
    const continued = note?.continued;
    if (continued && writer) {
      await controller.restore(continued.chat);
      controller.setMode(mode);
      controller.setModel(model);
      writer.adopt(continued.record, continued.path, continued.text);
    }
    await controller.send(prompt);
    if (writer) {
      await writer.idle();
      // "saved to" only for a note the last write really reached; otherwise the writer's problem line said why.
      if (writer.path === null && !writer.lastWriteFailed) throw new Error("the chat could not be saved");
      if (writer.path === null || writer.lastWriteFailed) unsaved = true;
      else io.stderr(`vault-copilot: saved to ${writer.path}\n`);
    }
  } finally {
    writer?.dispose();
    await controller.dispose();
  }
  const answer = controller.getState().messages.findLast(isAssistant);
  if (answer?.status === "done") return unsaved ? 1 : 0;
  const message = answer?.error?.message ?? lastError?.message ?? "the run did not complete";
  io.stderr(`vault-copilot: ${message.split("\n")[0] ?? message}\n`);
  return 1;
}
