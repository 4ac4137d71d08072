import { closesFence, openingFence } from "../markdown/fences";
import type { ChatRunner } from "../chat/ChatController";
import type { ChainEvent } from "../LLMProviders/chainRunner/ChainEvents";
import type { RunApprovals } from "../ports/approval";
import { DEFAULT_MAX_TOOL_OUTPUT_CHARS, runTool } from "../tools/runTool";
import type { AnySimpleTool } from "../tools/SimpleTool";

/** The selection an edit prompt rewrites: the note, and the text exactly as selected. */
export interface SelectionTarget {
  path: string;
  text: string;
}

/**
 * A runner whose answer replaces a selection: the rewrite streams into the chat as any answer
 * does, then goes through `replaceInFile` (the same tool the agent edits with), so it is shown as
 * a word-marked diff against the selection with Accept / Reject in the conversation, written with
 * `Vault.process` only when accepted, kept in the undo history, and never written over a note that
 * changed meanwhile (or where the selection no longer occurs exactly once). The edit shows as the
 * answer's banner; the answer's own end is reported after it, so the chat stays running (and Stop
 * works) while the diff waits.
 */
export function withSelectionEdit(inner: ChatRunner, target: SelectionTarget, replaceInFile: AnySimpleTool, timeoutMs: number, replacementApprovals?: RunApprovals): ChatRunner {
  return {
    async run(input) {
      let final: ChainEvent | undefined;
      const result = await inner.run({
        ...input,
        onEvent: (event) => {
          if (event.type === "final") final = event;
          else input.onEvent?.(event);
        },
      });
      if (result.status !== "completed") return result;
      const step = result.steps + 1;
      const toolCallId = `selection-edit-${step}`;
      const args = { path: target.path, oldText: target.text, newText: rewriteOf(result.text, target.text) };
      input.onEvent?.({ type: "tool-call-start", step, toolCallId, toolName: replaceInFile.name, toolId: "replaceInFile", args });
      // The diff is asked about where the run's other questions go (its chat, if a chat started
      // it), unless the caller names where (the CLI's --yes covers this replacement alone).
      const approvals = replacementApprovals ?? input.approvals;
      const outcome = await runTool(replaceInFile, args, {
        toolCallId,
        defaultTimeoutMs: timeoutMs,
        maxOutputChars: DEFAULT_MAX_TOOL_OUTPUT_CHARS,
        signal: input.signal,
        ...(approvals ? { approvals } : {}),
      });
      input.onEvent?.({
        type: "tool-call-end",
        step,
        toolCallId,
        toolName: replaceInFile.name,
        toolId: "replaceInFile",
        status: outcome.status,
        resultText: outcome.text,
        ...(outcome.output !== undefined ? { output: outcome.output } : {}),
        ...(outcome.failure ? { failure: outcome.failure } : {}),
        durationMs: outcome.durationMs,
      });
      if (final) input.onEvent?.(final);
      return result;
    },
  };
}

/**
 * The answer as the selection's replacement: a model that wraps it in a code fence despite being
 * asked not to gets the fence taken off, and its line ends follow the selection's (a selection
 * that ended with a line break keeps it; one that did not gets none added).
 */
export function rewriteOf(answer: string, selection: string): string {
  let text = withoutWrappingFence(answer.trim()).trim();
  const trailing = /\s*$/.exec(selection)?.[0] ?? "";
  const leading = /^\s*/.exec(selection)?.[0] ?? "";
  text = `${leading}${text}${trailing}`;
  return text;
}

/** The text inside a fence that wraps all of `text` (its first line opens it, its last closes it), else `text`. */
function withoutWrappingFence(text: string): string {
  const lines = text.split("\n");
  const fence = openingFence(lines[0] ?? "");
  if (fence === null || lines.length < 3 || !closesFence(lines.at(-1) ?? "", fence)) return text;
  return lines.slice(1, -1).join("\n");
}
