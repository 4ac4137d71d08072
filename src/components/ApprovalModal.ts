import { Modal, type App } from "obsidian";
import type { ApprovalDecision } from "../ports/approval";

/**
 * A dialog that asks the user one yes-or-no question for the agent and answers exactly once.
 * Closing it without answering counts as a refusal (`closedReason`); so does the run being stopped.
 */
export abstract class ApprovalModal extends Modal {
  private decided = false;

  constructor(
    app: App,
    private readonly resolve: (decision: ApprovalDecision) => void,
    private readonly closedReason: string,
  ) {
    super(app);
  }

  override onClose(): void {
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
export function askWithModal(signal: AbortSignal, open: (resolve: (decision: ApprovalDecision) => void) => ApprovalModal): Promise<ApprovalDecision> {
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
