import { ChatController, type ChatControllerDependencies, type ChatRunner } from "../chat/ChatController";
import { readChipArtifacts } from "../chat/chipArtifacts";
import type { VaultPort } from "../vault/VaultPort";
import { ChatNoteWriter } from "../history/ChatNoteWriter";
import { showSavedChat, type LoadedChat } from "../history/savedChats";
import type { Services } from "./createServices";

/** What a chat is made from: the runners, the vault its chips read (PDFs and canvases through `documents`), and where chats are kept. */
export type ChatParts = Pick<Services, "createRunner" | "vault" | "documents" | "history" | "secretValues">;

export interface ChatOptions {
  /** The mode, model (and project) of a new chat. */
  defaults: ChatControllerDependencies["defaults"];
  /** Where the folders and tags of chips are listed: a project's vault inside a project (the whole vault when it resolves undefined). */
  listingVault?: () => Promise<VaultPort | undefined>;
  /** Whether the chat is kept as a note at all (the CLI without --save: no), and whether it is now (the view's Autosave setting). */
  keep: false | (() => boolean);
  /** Told what could not be read or saved (a Notice in the view, a line on stderr in the CLI). */
  onProblem(message: string): void;
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
  /** Stops any reply; resolves once its end is written to the note. */
  close(): Promise<void>;
}

/**
 * Opens a chat over the services: a `ChatController` whose chips are read from the vault and
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
        onProblem: (message) => options.onProblem(message),
        secrets: () => parts.secretValues(),
      })
    : null;
  const wrap = options.wrapRunner ?? ((runner: ChatRunner) => runner);
  const controller = new ChatController({
    createRunner: (mode, model, project) => wrap(parts.createRunner(mode, model, project)),
    readContext: async (chips, signal) => readChipArtifacts(parts.vault, chips, signal, (await options.listingVault?.()) ?? parts.vault, parts.documents),
    defaults: () => options.defaults(),
    onProblem: (message) => options.onProblem(message),
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
    async close() {
      // The reply stops, and its end is still written to the chat's note.
      await controller.dispose();
      await writer?.idle();
      writer?.dispose();
    },
  };
}
