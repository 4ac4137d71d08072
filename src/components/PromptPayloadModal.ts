import { Modal, Notice, type App } from "obsidian";
import { formatLayeredPayload, imageLines, type PromptPayloadRecorder, type RecordedPromptPayload } from "../context/promptPayloadRecorder";
import { PROMPT_LAYER_IDS, PROMPT_LAYER_NAMES, type PayloadMessage } from "../context/PromptContextTypes";
import { isChatMode, CHAT_MODE_NAMES } from "../settings/chatModes";
import { count } from "./chat-components/toolResultSummary";

/** Who a message of the request speaks as, in words. */
const ROLE_WORDS: Record<PayloadMessage["role"], string> = {
  system: "system message",
  user: "user message",
  assistant: "model's message",
  tool: "tool result",
};

/**
 * "Show last request": the last request a runner sent, as the recorder kept it (secrets already
 * redacted there), with Copy. The layers go by plain names ("Instructions", "Earlier
 * attachments", "This message's context", "Conversation", "Your message"), each with its size in
 * tokens: estimated, as characters / 4, so always "about".
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
    const mode = isChatMode(payload.runner) ? CHAT_MODE_NAMES[payload.runner].label : payload.runner;
    contentEl.createEl("p", {
      cls: "vault-copilot-payload-summary",
      text: `${mode} · ${payload.model} · request ${payload.step} · ${aboutTokens(payload.estimatedTokens)}${payload.toolNames.length ? ` · tools: ${payload.toolNames.join(", ")}` : ""}`,
    });
    this.showLayers(payload);
    for (const message of payload.messages) {
      if (message.images?.length) {
        const block = contentEl.createDiv({ cls: "vault-copilot-payload-segment is-images" });
        block.createDiv({ cls: "vault-copilot-payload-label", text: `Images · ${ROLE_WORDS[message.role]}` });
        block.createEl("pre", { text: imageLines(message).join("\n") });
      }
      for (const segment of message.segments) {
        const block = contentEl.createDiv({ cls: `vault-copilot-payload-segment is-${segment.layer.toLowerCase()}` });
        const label = [PROMPT_LAYER_NAMES[segment.layer], segment.label, ROLE_WORDS[message.role], aboutTokens(Math.ceil(segment.text.length / 4))].filter(Boolean).join(" · ");
        block.createDiv({ cls: "vault-copilot-payload-label", text: label });
        block.createEl("pre", { text: segment.text });
      }
      for (const call of message.toolCalls ?? []) {
        const block = contentEl.createDiv({ cls: "vault-copilot-payload-segment is-tool-call" });
        block.createDiv({ cls: "vault-copilot-payload-label", text: `${PROMPT_LAYER_NAMES.L3} · ${ROLE_WORDS[message.role]} · calls ${call.name}` });
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

  /** Each layer's share of the request, in the order the request holds them. */
  private showLayers(payload: RecordedPromptPayload): void {
    const list = this.contentEl.createEl("ul", { cls: "vault-copilot-payload-layers", attr: { "aria-label": "Layers" } });
    for (const layer of PROMPT_LAYER_IDS) {
      const item = list.createEl("li");
      item.createSpan({ cls: "vault-copilot-payload-layer-name", text: PROMPT_LAYER_NAMES[layer] });
      item.createSpan({ cls: "vault-copilot-payload-layer-tokens", text: payload.layerTokens[layer] > 0 ? aboutTokens(payload.layerTokens[layer]) : "none" });
    }
  }
}

function aboutTokens(tokens: number): string {
  return `about ${count(tokens, "token")}`;
}
