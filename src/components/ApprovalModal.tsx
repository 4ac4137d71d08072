import { Modal, type App } from "obsidian";
import { StrictMode } from "react";
import { flushSync } from "react-dom";
import { createRoot, type Root } from "react-dom/client";
import type { ApprovalDecision, ApprovalPort, ToolCallApprovalPort } from "../ports/approval";
import { ApprovalCard, approvalHeading, type ApprovalAsked } from "./chat-components/ApprovalCard";

/**
 * An approval asked by a tool run that no chat started, in a dialog. The dialog shows the card
 * the chat shows (ApprovalCard: the diff with a choice per change, the reason, Accept only after
 * its first moments and only on a click or Mod+Enter), so both ask the same way. Closing the
 * dialog without answering counts as a refusal (`closedReason`); so does the run being stopped.
 */
export class ApprovalModal extends Modal {
  private decided = false;
  private root: Root | null = null;

  constructor(
    app: App,
    private readonly asked: ApprovalAsked,
    private readonly resolve: (decision: ApprovalDecision) => void,
    private readonly closedReason: string,
  ) {
    super(app);
  }

  override onOpen(): void {
    const { contentEl, modalEl, asked } = this;
    this.titleEl.setText(approvalHeading(asked));
    contentEl.addClass("vault-copilot-approval-dialog");
    const root = createRoot(contentEl);
    this.root = root;
    // Drawn at once: the dialog is whole when open() returns.
    flushSync(() =>
      root.render(
        <StrictMode>
          <ApprovalCard approval={asked} onAnswer={(decision) => this.decide(decision)} headingShown={false} />
        </StrictMode>,
      ),
    );
    // Mod+Enter anywhere in the dialog presses the card's Accept (the card takes it when it is inside).
    modalEl.addEventListener("keydown", (event) => {
      if (event.defaultPrevented || event.key !== "Enter" || !(event.metaKey || event.ctrlKey)) return;
      event.preventDefault();
      contentEl.querySelector<HTMLButtonElement>(".vault-copilot-approval-buttons .mod-cta")?.click();
    });
  }

  override onClose(): void {
    this.root?.unmount();
    this.root = null;
    this.contentEl.empty();
    if (!this.decided) this.decide({ approved: false, reason: this.closedReason });
  }

  decide(decision: ApprovalDecision): void {
    if (this.decided) return;
    this.decided = true;
    this.resolve(decision);
    this.close();
  }
}

/**
 * Opens one dialog per question and resolves with its answer; a run that is stopped (or already
 * was) resolves as a refusal without waiting for the user.
 */
function askWithModal(signal: AbortSignal, open: (resolve: (decision: ApprovalDecision) => void) => ApprovalModal): Promise<ApprovalDecision> {
  return new Promise<ApprovalDecision>((resolve) => {
    if (signal.aborted) {
      resolve({ approved: false, reason: "the run was stopped" });
      return;
    }
    const modal = open(resolve);
    signal.addEventListener("abort", () => modal.decide({ approved: false, reason: "the run was stopped" }), { once: true });
    modal.open();
  });
}

/** The ApprovalPort for Obsidian: a dialog per proposed edit. */
export function modalEditApproval(app: App): ApprovalPort {
  return {
    requestApproval: (proposal, signal) =>
      askWithModal(signal, (resolve) => new ApprovalModal(app, { kind: "edit", proposal }, resolve, "the user closed the approval view without answering")),
  };
}

/** The ToolCallApprovalPort for Obsidian: a dialog per call of a tool that may change something (an MCP tool not marked read-only). */
export function modalToolCallApproval(app: App): ToolCallApprovalPort {
  return {
    requestToolCallApproval: (proposal, signal) =>
      askWithModal(signal, (resolve) => new ApprovalModal(app, { kind: "tool-call", proposal }, resolve, "the user closed the dialog without allowing it")),
  };
}
