import type { ChatController, ChatRunner } from "../chat/ChatController";
import { openChat } from "../app/openChat";
import { isAssistant } from "../chat/chatTypes";
import { loadSavedChat, type LoadedChat } from "../history/savedChats";
import type { Services } from "../app/createServices";
import type { ChainEvent } from "../LLMProviders/chainRunner/ChainEvents";
import type { ChatMode } from "../settings/settingsSchema";
import { toVaultPath, VaultPathError } from "../vault/vaultPath";
import { VaultFileNotFoundError } from "../vault/VaultPort";
import { stringFlag, UsageError, type ParsedArgs } from "./args";
import type { CliSession } from "./cliRuntime";
import type { CliIo } from "./io";
import type { ProjectWorkspace } from "../app/createServices";
import { chainEventPrinter } from "./printChainEvents";
import { readAttachments, refuseOutsideProject } from "./attachFlag";
import type { ContextChip } from "../chat/chatTypes";

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
  continued: LoadedChat | null;
}

/**
 * Reads `--save` and `--continue NOTE` (which implies saving): null when the turn is not kept.
 * The note of `--continue` is read now, before anything runs; a missing note, one that is not a
 * chat, or one that cannot be written (not UTF-8, read-only) ends the command with a one-line error
 * before the model is asked, and is left as it was.
 */
export async function openChatNote(args: ParsedArgs, services: Services, io: CliIo): Promise<ChatNoteTarget | null> {
  const named = stringFlag(args, "continue");
  if (!named && !args.flags.has("save")) return null;
  if (!named) return { continued: null };
  const path = continuePath(named, services.vault.configDir);
  try {
    // Going on writes the note: one that cannot be written (read-only, hard-linked) is refused before the model is asked.
    const loaded = await loadSavedChat(services.history, services.vault, path, { checkWritable: true, signal: io.signal, documents: services.documents });
    for (const problem of loaded.problems) io.stderr(`vault-copilot: ${problem.text}\n`);
    return { continued: loaded };
  } catch (error) {
    if (error instanceof VaultFileNotFoundError) throw new Error(`--continue: no note at "${path}"`);
    throw error;
  }
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
  services: Services;
  session: CliSession;
  /** The mode and model the turn runs in (a prompt note may name its own). */
  mode: ChatMode;
  /** What is sent: a message, or what a prompt note makes of its place (`run`, see runPromptInChat). */
  send: string | ((controller: ChatController) => Promise<unknown>);
  io: CliIo;
  json: boolean;
  note: ChatNoteTarget | null;
  /** The project the turn runs in (`--project`); a chat that goes on keeps its own. */
  project?: ProjectWorkspace | null;
  /** `--attach`: chips that go with the message, read (and checked) before anything is sent. */
  attachments?: readonly ContextChip[];
  /** `--no-images`: every image is left out, and said on stderr. */
  noImages?: boolean;
}

/**
 * One turn through a headless `ChatController`, the class behind the chat view, with the runners
 * of the services (the view's): the conversation (L4) comes from the chat's messages, the history
 * sent is cut to the model's context window, and with a note the question is written before the
 * model is asked, the answer every 2 s while it streams and when it ends. Every event goes to the
 * terminal (plain, or `--json`). Resolves with the exit status: 0 when the answer is done, else 1
 * with its error on one line.
 */
export async function runChatTurn(options: ChatTurnOptions): Promise<number> {
  const { services, session, mode, send, io, json, note, project = null, attachments = [], noImages = false } = options;
  const model = session.settings.provider.model;
  const print = chainEventPrinter(io, json);
  let lastError: Extract<ChainEvent, { type: "error" }> | undefined;
  let unsaved = false;
  const printed = (runner: ChatRunner): ChatRunner => ({
    run: (input) =>
      runner.run({
        ...input,
        signal: AbortSignal.any([input.signal, io.signal]),
        onEvent: (event) => {
          if (event.type === "error") lastError = event;
          print(event);
          input.onEvent?.(event);
        },
      }),
  });
  // The project the chat is in: the flag's, or the one a chat that goes on was in.
  let scope = project;
  const chat = openChat(services, {
    defaults: () => ({ mode, model, project: project?.project.name ?? null }),
    // Folders and tags a prompt's variables attach, and images, come from inside the project; a note named by hand is read as it is.
    listingVault: () => Promise.resolve(scope?.vault),
    keep: note ? () => true : false,
    onProblem: (message) => io.stderr(`vault-copilot: ${message}\n`),
    wrapRunner: printed,
    ...(noImages ? { leaveImagesOut: "--no-images" } : {}),
  });
  const { controller, writer } = chat;
  try {
    const continued = note?.continued;
    if (continued) {
      await chat.continueSaved(continued);
      controller.setMode(mode);
      controller.setModel(model);
      // Going on brings the chat's project back; a --project naming another is refused, not mixed in.
      const own = controller.getState().project;
      if (project && own !== project.project.name) {
        throw new Error(`--continue: the chat is ${own ? `in the project "${own}"` : "in no project"}, not "${project.project.name}"; leave out --project to go on with it`);
      }
      if (own) scope = await services.openProject(own);
    }
    if (attachments.length > 0) {
      // Read before the model is asked: an attachment outside the project, or one that gives nothing, ends the command here.
      await refuseOutsideProject(attachments, scope);
      await readAttachments(chat, attachments, io.signal);
    }
    // The attachments are the box's chips, as if added in the view.
    for (const chip of attachments) controller.addChip(chip);
    if (typeof send === "string") await controller.send(send);
    else await send(controller);
    if (writer) {
      await writer.idle();
      // "saved to" only for a note the last write really reached; otherwise the writer's problem line said why.
      if (writer.path === null && !writer.lastWriteFailed) throw new Error("the chat could not be saved");
      if (writer.path === null || writer.lastWriteFailed) unsaved = true;
      else io.stderr(`vault-copilot: saved to ${writer.path}\n`);
    }
  } finally {
    await chat.close();
  }
  const answer = controller.getState().messages.findLast(isAssistant);
  if (answer?.status === "done") return unsaved ? 1 : 0;
  const message = answer?.error?.message ?? lastError?.message ?? "the run did not complete";
  io.stderr(`vault-copilot: ${message.split("\n")[0] ?? message}\n`);
  return 1;
}
