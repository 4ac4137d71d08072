import type { App } from "obsidian";
import { ApprovalModal, askWithModal } from "./ApprovalModal";
import type { ApprovalDecision, ToolCallApprovalPort, ToolCallProposal } from "../ports/approval";

/**
 * Asks the user before a tool that may change something runs (an MCP tool not marked read-only):
 * shows the tool, its server and the exact arguments, with Allow and Deny. Closing the dialog,
 * or the run being stopped, counts as Deny.
 */
export class ToolCallApprovalModal extends ApprovalModal {
  constructor(
    app: App,
    private readonly proposal: ToolCallProposal,
    resolve: (decision: ApprovalDecision) => void,
  ) {
    super(app, resolve, "the user closed the dialog without allowing it");
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
    this.addApproveButton(buttons, "Allow");
  }
}

/** A ToolCallApprovalPort that opens a ToolCallApprovalModal for each call. */
export function modalToolCallApproval(app: App): ToolCallApprovalPort {
  return {
    requestToolCallApproval: (proposal, signal) => askWithModal(signal, (resolve) => new ToolCallApprovalModal(app, proposal, resolve)),
  };
}
