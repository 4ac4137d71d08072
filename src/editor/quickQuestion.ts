import type { ChatRunner } from "../chat/ChatController";
import { noteChip, readChipArtifacts, selectionChip } from "../chat/chipArtifacts";
import type { ContextChip } from "../chat/chatTypes";
import type { ChipProblem } from "../chat/chipProblems";
import { ContextManager } from "../context/ContextManager";
import type { ChainRunResult } from "../LLMProviders/chainRunner/ChainEvents";
import type { RunApprovals } from "../ports/approval";
import { rewriteOf } from "../prompts/selectionEdit";
import { DEFAULT_MAX_TOOL_OUTPUT_CHARS, runTool, type ToolRunResult } from "../tools/runTool";
import type { AnySimpleTool } from "../tools/SimpleTool";
import type { VaultPort } from "../vault/VaultPort";

/** Where the quick question was asked: the note, and the selection there (1-based lines) if any. */
export interface QuestionPlace {
  path: string;
  selection: { text: string; fromLine: number; toLine: number } | null;
}

/** What goes with the question: the note, and the selection as its own chip (as "Add selection to chat" attaches it). */
export function questionChips(place: QuestionPlace): ContextChip[] {
  const chips = [noteChip(place.path)];
  if (place.selection) chips.push(selectionChip(place.path, place.selection.text, place.selection.fromLine, place.selection.toLine));
  return chips;
}

/**
 * Asks a quick question about the note at the cursor with the chat's own runner (Chat mode, the
 * chat's model, no tools): the same request a chat would send with the note and the selection
 * attached, so "Open in chat" can go on from it word for word. `onText` gets the answer so far
 * as it streams. A note that cannot be read is left out and reported in `problems`.
 */
export async function askQuickQuestion(
  parts: { runner: ChatRunner; vault: VaultPort },
  place: QuestionPlace,
  question: string,
  signal: AbortSignal,
  onText: (text: string) => void,
): Promise<ChainRunResult & { problems: ChipProblem[] }> {
  const { artifacts, problems } = await readChipArtifacts(parts.vault, questionChips(place), signal);
  let text = "";
  const result = await parts.runner.run({
    userMessage: question,
    attachments: artifacts,
    conversation: new ContextManager(),
    signal,
    onEvent: (event) => {
      if (event.type !== "text-delta") return;
      text += event.text;
      onText(text);
    },
  });
  return { ...result, problems };
}

/**
 * Replaces the selection with the answer the way an edit prompt does (`withSelectionEdit`): through
 * `replaceInFile`, so the user sees the word-marked diff and approves it, the note is written with
 * `Vault.process` only then, the edit joins the undo history, and nothing is written when the
 * note changed meanwhile or the selection no longer occurs exactly once. Returns the tool's result.
 */
export function replaceSelectionWithAnswer(
  replaceInFile: AnySimpleTool,
  place: QuestionPlace & { selection: NonNullable<QuestionPlace["selection"]> },
  answer: string,
  options: { approvals: RunApprovals; timeoutMs: number; signal: AbortSignal },
): Promise<ToolRunResult> {
  const args = { path: place.path, oldText: place.selection.text, newText: rewriteOf(answer, place.selection.text) };
  return runTool(replaceInFile, args, {
    toolCallId: "quick-question-replace",
    defaultTimeoutMs: options.timeoutMs,
    maxOutputChars: DEFAULT_MAX_TOOL_OUTPUT_CHARS,
    signal: options.signal,
    approvals: options.approvals,
  });
}
