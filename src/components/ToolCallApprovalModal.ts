import { Modal, type App } from "obsidian";
import type { ApprovalDecision, ToolCallApprovalPort, ToolCallProposal } from "../tools/approval";

/**
 * Asks the user before a tool that may change something runs (an MCP tool not marked read-only):
 * shows the tool, its server and the exact arguments, with Allow and Deny. Closing the dialog,
 * or the run being stopped, counts as Deny.
 */
export class ToolCallApprovalModal extends Modal {
  private decided = false;

  constructor(
    app: App,
    private readonly proposal: ToolCallProposal,
    private readonly resolve: (decision: ApprovalDecision) => void,
  ) {
    super(app);
  }

  override onOpen(): void {
    const { contentEl, titleEl } = this;
    titleEl.setText(`Run ${this.proposal.toolName}?`);
    contentEl.addClass("vault-copilot-approval");
    contentEl.createEl("p", {
      text: `The agent wants to run "${this.proposal.toolName}" from "${this.proposal.source}". It is not marked read-only, so it may change things outside your vault.`,
    });
    contentEl.createEl("pre", { cls: "vault-copilot-approval-arguments", text: JSON.stringify(this.proposal.arguments, null, 2) });
    const buttons = contentEl.createDiv({ cls: "modal-button-container" });
    buttons.createEl("button", { text: "Deny" }).addEventListener("click", () => this.decide({ approved: false, reason: "the user denied it" }));
    buttons
      .createEl("button", { text: "Allow", cls: "mod-cta" })
      .addEventListener("click", () => this.decide({ approved: true }));
  }

  override onClose(): void {
    this.contentEl.empty();
    if (!this.decided) this.decide({ approved: false, reason: "the user closed the dialog without allowing it" });
  }

  decide(decision: ApprovalDecision): void {
    if (this.decided) return;
    this.decided = true;
    this.resolve(decision);
    this.close();
  }
}

/** A ToolCallApprovalPort that opens a ToolCallApprovalModal for each call. */
export function modalToolCallApproval(app: App): ToolCallApprovalPort {
  return {
    requestToolCallApproval: (proposal, signal) =>
      new Promise<ApprovalDecision>((resolve) => {
        const modal = new ToolCallApprovalModal(app, proposal, resolve);
        signal.addEventListener("abort", () => modal.decide({ approved: false, reason: "the run was stopped" }), { once: true });
        modal.open();
      }),
  };
}
