import { ChatController, type ChatControllerDependencies, type ChatRunner } from "../chat/ChatController";
import { chatProblemOf, type ChatProblem } from "./sendFailure";

export type { ChatProblem } from "./sendFailure";
import type { ReadChips } from "../chat/chipArtifacts";
import type { ContextChip } from "../chat/chatTypes";
import type { VaultPort } from "../vault/VaultPort";
import { ChatNoteWriter } from "../history/ChatNoteWriter";
import { showSavedChat, type LoadedChat } from "../history/savedChats";
import type { Services } from "./createServices";

/** What a chat is made from: the runners, the reader of its chips, the vault, and where chats are kept. */
export type ChatParts = Pick<Services, "createRunner" | "readContext" | "vault" | "history" | "secretValues">;

export interface ChatOptions {
  /** The mode, model (and project) of a new chat. */
  defaults: ChatControllerDependencies["defaults"];
  /**
   * The chat's project's vault (the whole vault when it resolves undefined): the folders and tags
   * of chips are listed in it, and every image, PDF and canvas is checked against it, so one outside the project is refused.
   */
  listingVault?: () => Promise<VaultPort | undefined>;
  /** Leave every image out, for this reason (the CLI's --no-images): each is named to `onProblem`. */
  leaveImagesOut?: string;
  /** Whether the chat is kept as a note at all (the CLI without --save: no), and whether it is now (the view's Autosave setting). */
  keep: false | (() => boolean);
  /**
   * Told what could not be read, sent or saved (a Notice in the view, a line on stderr in the CLI):
   * the English sentence, and its case for a view in another language.
   */
  onProblem(message: string, reason?: ChatProblem): void;
  /** Wraps each runner the chat asks for (the CLI prints the run's events). */
  wrapRunner?: (runner: ChatRunner) => ChatRunner;
  asksApprovals?: ChatControllerDependencies["asksApprovals"];
  scheduleFlush?: ChatControllerDependencies["scheduleFlush"];
}

/** One chat, as the view and the CLI both hold it: its controller and the writer that keeps it in its note. */
export interface OpenChat {
  controller: ChatController;
  /** Null when the chat is not kept. */
  writer: ChatNoteWriter | null;
  /** Shows a saved chat to go on with, its writer continuing the same note; nothing is written by showing it. */
  continueSaved(loaded: LoadedChat): Promise<void>;
  /**
   * Reads chips now, as the next message will read them (the CLI checks `--attach` before
   * anything is sent); that message takes what was read instead of reading those chips again.
   */
  readAhead(chips: readonly ContextChip[], signal: AbortSignal): Promise<ReadChips>;
  /** Stops any reply; resolves once its end is written to the note. */
  close(): Promise<void>;
}

/**
 * Opens a chat over the services: a `ChatController` whose chips are read by the services (notes,
 * web pages, images; folders, tags and images inside the chat's project) and
 * whose turns are kept as a note by a `ChatNoteWriter` (secrets redacted), the one way the chat
 * view, the CLI's chat commands and the tests make a chat.
 */
export function openChat(parts: ChatParts, options: ChatOptions): OpenChat {
  const { keep } = options;
  const writer = keep
    ? new ChatNoteWriter({
        vault: parts.vault,
        history: parts.history,
        enabled: keep,
        onProblem: (message, reason) => options.onProblem(message, { about: "chat-note", case: reason }),
        secrets: () => parts.secretValues(),
      })
    : null;
  const wrap = options.wrapRunner ?? ((runner: ChatRunner) => runner);
  const read = async (chips: readonly ContextChip[], signal: AbortSignal): Promise<ReadChips> => {
    const listing = await options.listingVault?.();
    return parts.readContext(chips, signal, { ...(listing ? { listing } : {}), ...(options.leaveImagesOut ? { leaveImagesOut: options.leaveImagesOut } : {}) });
  };
  // Chips read ahead (readAhead), with what they gave: the next message uses it once.
  let ahead: { ids: ReadonlySet<string>; read: ReadChips } | null = null;
  const readContext = async (chips: readonly ContextChip[], signal: AbortSignal): Promise<ReadChips> => {
    const early = ahead;
    ahead = null;
    if (!early) return read(chips, signal);
    const rest = await read(chips.filter((chip) => !early.ids.has(chip.id)), signal);
    return {
      artifacts: [...early.read.artifacts, ...rest.artifacts],
      problems: [...early.read.problems, ...rest.problems],
      notices: [...(early.read.notices ?? []), ...(rest.notices ?? [])],
    };
  };
  const controller = new ChatController({
    createRunner: (mode, model, project) => wrap(parts.createRunner(mode, model, project)),
    readContext,
    defaults: () => options.defaults(),
    onProblem: (message, reason) => options.onProblem(message, chatProblemOf(reason)),
    ...(options.asksApprovals !== undefined ? { asksApprovals: options.asksApprovals } : {}),
    ...(options.scheduleFlush ? { scheduleFlush: options.scheduleFlush } : {}),
    ...(writer ? { persistence: writer } : {}),
  });
  return {
    controller,
    writer,
    async continueSaved(loaded) {
      if (!writer) {
        await controller.restore(loaded.chat);
        return;
      }
      await showSavedChat(controller, writer, loaded);
    },
    async readAhead(chips, signal) {
      const early = await read(chips, signal);
      ahead = { ids: new Set(chips.map((chip) => chip.id)), read: early };
      return early;
    },
    async close() {
      // The reply stops, and its end is still written to the chat's note.
      await controller.dispose();
      await writer?.idle();
      writer?.dispose();
    },
  };
}
