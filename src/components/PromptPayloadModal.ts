import { Modal, Notice, type App } from "obsidian";
import { formatLayeredPayload, type PromptPayloadRecorder } from "../context/promptPayloadRecorder";
import { PROMPT_LAYER_NAMES, type PromptLayerId } from "../context/PromptContextTypes";

/**
 * "Show last request": the last request a runner sent, layer by layer (L1 system … L5 the
 * message), as the recorder kept it — secrets already redacted there — with Copy.
 */
export class PromptPayloadModal extends Modal {
  constructor(
    app: App,
    private readonly recorder: PromptPayloadRecorder,
  ) {
    super(app);
  }

  override onOpen(): void {
    const { contentEl, titleEl } = this;
    titleEl.setText("Last request");
    contentEl.addClass("vault-copilot-payload");
    const payload = this.recorder.getLast();
    if (!payload) {
      contentEl.createEl("p", { text: "No request has been sent yet. Send a message in the chat first." });
      return;
    }
    contentEl.createEl("p", {
      cls: "vault-copilot-payload-summary",
      text: `${payload.runner} · ${payload.model} · request ${payload.step} · about ${payload.estimatedTokens} tokens${payload.toolNames.length ? ` · tools: ${payload.toolNames.join(", ")}` : ""}`,
    });
    for (const message of payload.messages) {
      for (const segment of message.segments) {
        const block = contentEl.createDiv({ cls: `vault-copilot-payload-segment is-${segment.layer.toLowerCase()}` });
        block.createDiv({ cls: "vault-copilot-payload-label", text: `${message.role} · ${layerName(segment.layer)}${segment.label ? ` · ${segment.label}` : ""}` });
        block.createEl("pre", { text: segment.text });
      }
      for (const call of message.toolCalls ?? []) {
        const block = contentEl.createDiv({ cls: "vault-copilot-payload-segment is-tool-call" });
        block.createDiv({ cls: "vault-copilot-payload-label", text: `${message.role} · tool call ${call.name}` });
        block.createEl("pre", { text: JSON.stringify(call.args, null, 2) });
      }
    }
    const buttons = contentEl.createDiv({ cls: "modal-button-container" });
    buttons.createEl("button", { text: "Copy", cls: "mod-cta" }).addEventListener("click", () => {
      navigator.clipboard.writeText(formatLayeredPayload(payload)).then(
        () => new Notice("Request copied."),
        () => new Notice("The request could not be copied."),
      );
    });
  }

  override onClose(): void {
    this.contentEl.empty();
  }
}

function layerName(layer: PromptLayerId): string {
  return `${layer} ${PROMPT_LAYER_NAMES[layer]}`;
}
