import { VaultPathError } from "../../vault/vaultPath";
import { VaultFileExistsError, VaultFileNotFoundError, VaultNoteChangedError, type VaultPort } from "../../vault/VaultPort";
import { errorMessage, ToolFailureError, type ToolFailure } from "../../errorMessage";
import type { ToolCallContext } from "../SimpleTool";
import type { ToolDependencies } from "../toolDependencies";
import { applyChosenHunks } from "./chosenHunks";
import { countChangedLines, diffEdit } from "./editDiff";
import type { EditHistory } from "./EditHistory";

/** The name of the command that undoes the newest applied edit (quoted to the model after each edit). */
export const UNDO_LAST_EDIT_COMMAND_NAME = "Undo the agent's last edit";

/** How many fresh proposals are made when the note keeps changing under an edit. */
export const MAX_EDIT_PROPOSALS = 3;

/** What an edit tool reports: to the model as text, to the UI as data. */
export interface EditOutcome {
  status: "applied" | "rejected" | "unchanged";
  path: string;
  /** True when the edit created the note. */
  created: boolean;
  /** The unified diff that was approved (or rejected). */
  diff: string;
  linesAdded: number;
  linesRemoved: number;
  /** The user's reason, for a rejected edit. */
  reason?: string;
  /** How many proposals were made (more than one when the note changed while waiting). */
  proposals: number;
  /** True when the user's settings let this tool apply edits without asking. */
  autoApproved: boolean;
  /** Set when the edit was applied but could not be recorded for undo. */
  undoUnavailable?: string;
  /** When an applied edit was recorded in the edit history (epoch ms): the chat's Undo takes back this edit and no other. */
  appliedAt?: number;
  /** Set when the user applied only some of the changes (hunks) proposed; `diff` and the line counts are then what was applied. */
  changes?: EditChanges;
}

/** How many of an edit's changes (its diff's hunks) the user applied, of how many proposed. */
export interface EditChanges {
  applied: number;
  proposed: number;
}

/** Thrown by an edit's `plan` when the edit cannot be made on the current text (no match, ...). */
export class EditPlanError extends Error {
  constructor(
    message: string,
    readonly failure?: ToolFailure,
  ) {
    super(message);
    this.name = "EditPlanError";
  }
}

class NoteChangedError extends Error {
  constructor() {
    super("the note changed since the proposal");
    this.name = "NoteChangedError";
  }
}

export interface EditRequest {
  toolId: string;
  /** A vault path that has passed `toNotePath`. */
  path: string;
  /** The new text from the current one (null: no such note). Throws `EditPlanError` to refuse. */
  plan: (current: string | null) => string;
  /** The tool call being served: its signal, its run, and the time-limit controls of `runTool`. */
  call: ToolCallContext;
}

type EditDependencies = Pick<ToolDependencies, "approval" | "getSettings"> & { vault: VaultPort; editHistory: EditHistory };

/**
 * Shows the user the diff of an edit, waits for the answer, and applies an approved edit only
 * if the note is still what the diff was made from. If the note changed meanwhile, the edit is
 * planned again on the new text and a fresh diff is shown (up to MAX_EDIT_PROPOSALS times);
 * it is never written over changes the user did not see. Applied edits go to the history.
 *
 * The wait for the user's answer does not count toward the tool's time limit. The run's stop is
 * checked once more after the answer; after that the write is not cut off (neither by the time
 * limit nor by a stop), so what the tool reports is what happened to the note.
 */
export async function proposeAndApplyEdit(dependencies: EditDependencies, request: EditRequest): Promise<EditOutcome> {
  const { vault, approval, editHistory } = dependencies;
  const { toolId, path, plan, call } = request;

  for (let proposals = 1; proposals <= MAX_EDIT_PROPOSALS; proposals++) {
    const before = await readOrNull(vault, path);
    const after = plan(before);
    const diff = diffEdit(path, before, after);
    const { added, removed } = countChangedLines(diff.hunks);
    const autoApproved = dependencies.getSettings().autoApproveToolIds.includes(toolId);
    const outcome = {
      path,
      created: before === null,
      diff: diff.unified,
      linesAdded: added,
      linesRemoved: removed,
      proposals,
      autoApproved,
    };
    if (before === after) return { ...outcome, status: "unchanged", diff: "" };

    // The chat whose run made the call, when one did; else the port the tools were built with.
    const asked = call.approvals ?? approval;
    const ask = () => asked.requestApproval({ toolId, path, before, after }, call.signal);
    const decision = autoApproved ? { approved: true as const } : await (call.untimed ? call.untimed(ask) : ask());
    if (!decision.approved) return { ...outcome, status: "rejected", reason: decision.reason };
    const chosen = chosenChanges(decision.hunks, diff.hunks.length);
    if (chosen?.size === 0) return { ...outcome, status: "rejected", reason: "the user chose none of the changes" };
    if (call.signal.aborted) throw new ToolFailureError(`The run was stopped before "${path}" was written, so nothing was written.`, { kind: "stopped", values: {} });
    call.commit?.();
    // Some of the changes: the note as it is with only those, every other byte as it was.
    const partial = chosen && before !== null ? { text: applyChosenHunks(before, after, diff.hunks, chosen), changes: { applied: chosen.size, proposed: diff.hunks.length } } : null;
    const written = partial?.text ?? after;

    try {
      if (before === null) await vault.create(path, written);
      else {
        await vault.process(path, (current) => {
          if (current !== before) throw new NoteChangedError();
          return written;
        });
      }
    } catch (error) {
      if (error instanceof NoteChangedError || error instanceof VaultNoteChangedError || error instanceof VaultFileExistsError || error instanceof VaultFileNotFoundError) continue;
      if (error instanceof VaultPathError) throw error;
      throw new ToolFailureError(`Writing "${path}" failed (${errorMessage(error)}). Nothing was written: the note is as it was before.`, { kind: "write-failed", values: { path } });
    }

    const applied = partial ? { ...outcome, ...appliedCounts(path, before, written), changes: partial.changes } : outcome;
    try {
      const record = await editHistory.record({
        toolId,
        path,
        before,
        after: written,
        ...(partial ? { changes: partial.changes } : {}),
        ...(call.runId === undefined ? {} : { runId: call.runId }),
      });
      return { ...applied, status: "applied", appliedAt: record.appliedAt };
    } catch (error) {
      return { ...applied, status: "applied", undoUnavailable: errorMessage(error) };
    }
  }
  throw new ToolFailureError(
    `"${path}" kept changing while the edit waited for approval (${MAX_EDIT_PROPOSALS} proposals in a row), so nothing was written. ` +
      "Read the note again and propose the edit once it has settled.",
    { kind: "note-changed", values: { path } },
  );
}

/** The hunks the user chose, when not all of them (null: the whole edit); indices out of range are ignored. */
function chosenChanges(hunks: readonly number[] | undefined, count: number): Set<number> | null {
  if (hunks === undefined) return null;
  const chosen = new Set(hunks.filter((index) => Number.isInteger(index) && index >= 0 && index < count));
  return chosen.size === count ? null : chosen;
}

/** The diff and line counts of what was written, when it is only part of the edit proposed. */
function appliedCounts(path: string, before: string | null, written: string): Pick<EditOutcome, "diff" | "linesAdded" | "linesRemoved"> {
  const diff = diffEdit(path, before, written);
  const { added, removed } = countChangedLines(diff.hunks);
  return { diff: diff.unified, linesAdded: added, linesRemoved: removed };
}

async function readOrNull(vault: VaultPort, path: string): Promise<string | null> {
  try {
    return await vault.read(path, { forEdit: true });
  } catch (error) {
    if (error instanceof VaultFileNotFoundError) return null;
    throw error;
  }
}

/** The sentence the model reads about an edit's outcome. */
export function describeEditOutcome(outcome: EditOutcome): string {
  const freshNote = outcome.proposals > 1 ? " The note changed while the first proposal waited, so a fresh diff was shown." : "";
  switch (outcome.status) {
    case "unchanged":
      return `"${outcome.path}" already has exactly this text; nothing was written.`;
    case "rejected":
      return (
        `The user rejected the edit to "${outcome.path}" (${outcome.reason ?? "no reason given"}). Nothing was written.${freshNote} ` +
        "Do not repeat the same edit; ask the user what they would like instead."
      );
    case "applied": {
      const what = outcome.created ? `Created "${outcome.path}"` : `Edited "${outcome.path}"`;
      const undo = outcome.undoUnavailable
        ? ` It could not be recorded for undo (${outcome.undoUnavailable}).`
        : ` The user can take it back with the "${UNDO_LAST_EDIT_COMMAND_NAME}" command.`;
      const approval = outcome.autoApproved ? "without asking (the user allows this tool to edit directly)" : "with the user's approval";
      const some = outcome.changes
        ? ` The user applied ${outcome.changes.applied} of the ${outcome.changes.proposed} changes proposed and left the others out: the note does not have them, so read it again before you edit it further.`
        : "";
      return `${what} (+${outcome.linesAdded} -${outcome.linesRemoved} lines) ${approval}.${some}${freshNote}${undo}`;
    }
  }
}
