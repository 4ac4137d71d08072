import { errorMessage } from "../errorMessage";
import { failureOf, type ChipProblem } from "../chat/chipProblems";
import type { RestoredChat } from "../chat/ChatController";
import { readChipArtifacts, selectionChip } from "../chat/chipArtifacts";
import type { ChatMessage, ContextChip } from "../chat/chatTypes";
import type { VaultPort } from "../vault/VaultPort";
import type { DocumentSource } from "../documents/DocumentReader";
import type { ChatRecord } from "./chatRecord";
import { messagesFromRecord } from "./chatStateRecord";

/**
 * A saved chat made ready to go on: its messages, with each question's attached notes read again
 * (a note keeps links, not copies) so that the next request carries them in L2 as the chat that
 * wrote the note did. A selection is read again from its lines. What cannot be read any more is
 * reported and left out; the conversation itself (L4) comes from the note alone. Web pages and
 * images stay as the chips that name them: opening a saved chat fetches nothing and reads no
 * image (attach them again to send them again).
 */
export async function restoreChat(record: ChatRecord, vault: VaultPort, signal?: AbortSignal, documents?: DocumentSource): Promise<{ chat: RestoredChat; problems: ChipProblem[] }> {
  const problems: ChipProblem[] = [];
  const messages: ChatMessage[] = [];
  for (const message of messagesFromRecord(record)) {
    if (message.role !== "user" || message.chips.length === 0) {
      messages.push(message);
      continue;
    }
    const chips = await Promise.all(message.chips.map((chip) => withSelectionText(vault, chip, problems)));
    const read = await readChipArtifacts(vault, chips.filter((chip) => chip.kind !== "web" && chip.kind !== "image"), signal, documents ? { documents } : {});
    problems.push(...read.problems);
    messages.push({ ...message, chips, artifacts: read.artifacts });
  }
  return { chat: { chatId: record.id, mode: record.mode, model: record.model, project: record.project ?? null, messages }, problems };
}

async function withSelectionText(vault: VaultPort, chip: ContextChip, problems: ChipProblem[]): Promise<ContextChip> {
  if (chip.kind !== "selection" || !chip.selection) return chip;
  const { fromLine, toLine } = chip.selection;
  try {
    const lines = (await vault.read(chip.target)).split("\n").slice(fromLine - 1, toLine);
    return selectionChip(chip.target, lines.join("\n"), fromLine, toLine);
  } catch (error) {
    problems.push({ text: `${chip.label}: ${errorMessage(error)}`, case: { code: "unreadable", path: chip.label, ...failureOf(error) } });
    return chip;
  }
}
