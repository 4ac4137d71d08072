import { Modal, type App } from "obsidian";
import { APPROVAL_ARMING_MS, type ApprovalDecision } from "../ports/approval";
import { clearTimer, setTimer } from "../ports/timers";

/**
 * A dialog that asks the user one yes-or-no question for the agent and answers exactly once.
 * Closing it without answering counts as a refusal (`closedReason`); so does the run being stopped.
 */
export abstract class ApprovalModal extends Modal {
  private decided = false;
  private armingTimer: number | undefined;

  constructor(
    app: App,
    private readonly resolve: (decision: ApprovalDecision) => void,
    private readonly closedReason: string,
  ) {
    super(app);
  }

  override onClose(): void {
    clearTimer(this.armingTimer);
    this.contentEl.empty();
    if (!this.decided) this.decide({ approved: false, reason: this.closedReason });
  }

  /**
   * The button that approves: it ignores clicks and keys for the dialog's first moments (dimmed
   * meanwhile), and Mod+Enter anywhere in the dialog presses it afterwards.
   */
  protected addApproveButton(container: HTMLElement, text: string): HTMLButtonElement {
    const button = container.createEl("button", { text, cls: "mod-cta", attr: { "aria-disabled": "true" } });
    const armed = () => button.getAttribute("aria-disabled") === "false";
    this.armingTimer = setTimer(() => button.setAttribute("aria-disabled", "false"), APPROVAL_ARMING_MS);
    button.addEventListener("click", () => {
      if (armed()) this.decide({ approved: true });
    });
    this.modalEl.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" || !(event.metaKey || event.ctrlKey)) return;
      event.preventDefault();
      if (armed()) this.decide({ approved: true });
    });
    return button;
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
