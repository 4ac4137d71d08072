import type { App } from "obsidian";
import { ApprovalModal, askWithModal } from "./ApprovalModal";
import type { ApprovalDecision, ApprovalPort, EditProposal } from "../ports/approval";
import { buildDiffHunks, countChangedLines, type DiffHunk } from "../tools/edit/editDiff";

/** Beyond this many diff lines the view shows a count instead (the note is still edited whole). */
const MAX_RENDERED_LINES = 2000;

/**
 * Shows an edit the agent proposes as a diff, with Accept and Reject (and an optional reason for
 * the model). Closing the view without answering, or the run being stopped, counts as Reject.
 */
export class EditApprovalModal extends ApprovalModal {
  private reasonInput: HTMLTextAreaElement | null = null;

  constructor(
    app: App,
    private readonly proposal: EditProposal,
    resolve: (decision: ApprovalDecision) => void,
  ) {
    super(app, resolve, "the user closed the approval view without answering");
  }

  override onOpen(): void {
    const { contentEl, titleEl, proposal } = this;
    const hunks = buildDiffHunks(proposal.before, proposal.after);
    const { added, removed } = countChangedLines(hunks);
    titleEl.setText(proposal.before === null ? `Create ${proposal.path}?` : `Edit ${proposal.path}?`);
    contentEl.addClass("vault-copilot-edit-approval");
    contentEl.createEl("p", {
      cls: "vault-copilot-edit-summary",
      text: `The agent wants to ${proposal.before === null ? "create this note" : "change this note"}: ${added} line${added === 1 ? "" : "s"} added, ${removed} removed.`,
    });
    renderDiff(contentEl.createDiv({ cls: "vault-copilot-diff" }), hunks);

    this.reasonInput = contentEl.createEl("textarea", {
      cls: "vault-copilot-edit-reason",
      attr: { placeholder: "Reason for rejecting, passed to the agent (optional)", rows: 2 },
    });
    const buttons = contentEl.createDiv({ cls: "modal-button-container" });
    buttons.createEl("button", { text: "Reject" }).addEventListener("click", () => {
      const reason = this.reasonInput?.value.trim();
      this.decide({ approved: false, reason: reason ? `the user said: ${reason}` : "the user rejected it" });
    });
    this.addApproveButton(buttons, "Accept");
  }
}

/** The diff as rows: a hunk header, then each line with its old and new line numbers and a marker. */
export function renderDiff(container: HTMLElement, hunks: readonly DiffHunk[]): void {
  let rendered = 0;
  let skipped = 0;
  for (const hunk of hunks) {
    if (rendered >= MAX_RENDERED_LINES) {
      skipped += hunk.lines.length;
      continue;
    }
    container.createDiv({ cls: "vault-copilot-diff-hunk", text: hunk.header });
    for (const line of hunk.lines) {
      if (rendered >= MAX_RENDERED_LINES) {
        skipped++;
        continue;
      }
      rendered++;
      const row = container.createDiv({ cls: `vault-copilot-diff-line vault-copilot-diff-${line.kind}` });
      row.createSpan({ cls: "vault-copilot-diff-number", text: line.oldLine === undefined ? "" : String(line.oldLine) });
      row.createSpan({ cls: "vault-copilot-diff-number", text: line.newLine === undefined ? "" : String(line.newLine) });
      const marker = line.kind === "added" ? "+" : line.kind === "removed" ? "-" : line.kind === "note" ? "\\" : " ";
      row.createSpan({ cls: "vault-copilot-diff-marker", text: marker });
      row.createSpan({ cls: "vault-copilot-diff-text", text: line.text });
    }
  }
  if (hunks.length === 0) container.createDiv({ cls: "vault-copilot-diff-empty", text: "No changes." });
  if (skipped > 0) container.createDiv({ cls: "vault-copilot-diff-more", text: `… ${skipped} more diff lines not shown.` });
}

/** The ApprovalPort for Obsidian: one EditApprovalModal per proposed edit. */
export function modalEditApproval(app: App): ApprovalPort {
  return {
    requestApproval: (proposal, signal) => askWithModal(signal, (resolve) => new EditApprovalModal(app, proposal, resolve)),
  };
}
