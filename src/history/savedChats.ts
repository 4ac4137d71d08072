import type { ChatHistory } from "./ChatHistory";
import type { ChatRecord } from "./chatRecord";
import type { ChatNoteWriter } from "./ChatNoteWriter";
import { restoreChat } from "./restoreChat";
import type { VaultPort } from "../vault/VaultPort";
import type { DocumentSource } from "../documents/DocumentReader";
import type { ChatController, RestoredChat } from "../chat/ChatController";
import type { ChipProblem } from "../chat/chipProblems";

/** A saved chat read from its note, ready to be shown and continued. */
export interface LoadedChat {
  record: ChatRecord;
  path: string;
  /** The note's text as read (the writer compares with it before its next write). */
  text: string;
  chat: RestoredChat;
  /** What could not be brought back (an attached note that is gone), said to the user: each sentence with its case. */
  problems: ChipProblem[];
}

/**
 * Reads a chat note for the view's Chat history and the CLI's `--continue` alike: the chat, its
 * attached notes read again. Throws when the note is not a chat Copilot can read, or is not valid
 * UTF-8 (going on would rewrite bytes nobody was shown); with `checkWritable`, also when the note
 * cannot be written (read-only, hard-linked), before anything is sent.
 */
export async function loadSavedChat(history: ChatHistory, vault: VaultPort, path: string, options: { checkWritable?: boolean; signal?: AbortSignal; documents?: DocumentSource } = {}): Promise<LoadedChat> {
  const { record, text } = await history.load(path);
  if (options.checkWritable) await vault.process(path, (current) => current);
  const { chat, problems } = await restoreChat(record, vault, options.signal, options.documents);
  return { record, path, text, chat, problems };
}

/** Shows a loaded chat in a controller, its writer going on in the same note; nothing is written by showing it. */
export async function showSavedChat(controller: ChatController, writer: ChatNoteWriter, loaded: LoadedChat): Promise<void> {
  await controller.restore(loaded.chat);
  writer.adopt(loaded.record, loaded.path, loaded.text);
}
