import { Modal, Notice, type App } from "obsidian";
import { formatLayeredPayload, imageLines, type PromptPayloadRecorder, type RecordedPromptPayload } from "../context/promptPayloadRecorder";
import { PROMPT_LAYER_IDS, type PayloadMessage, type PromptLayerId } from "../context/PromptContextTypes";
import { isChatMode } from "../settings/chatModes";
import { t } from "../i18n/t";

/** Who a message of the request speaks as, in words (payload.role.* in the tables). */
const roleWords = (role: PayloadMessage["role"]): string => t(`payload.role.${role}`);
/** A layer's plain name in the interface's language (the copied text keeps PROMPT_LAYER_NAMES, in English). */
const layerName = (layer: PromptLayerId): string => t(`payload.layer.${layer}`);

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
    titleEl.setText(t("payload.title"));
    contentEl.addClass("vault-copilot-payload");
    const payload = this.recorder.getLast();
    if (!payload) {
      contentEl.createEl("p", { text: t("payload.none") });
      return;
    }
    const mode = isChatMode(payload.runner) ? t(`mode.${payload.runner}`) : payload.runner;
    contentEl.createEl("p", {
      cls: "vault-copilot-payload-summary",
      text: t("payload.summary", { mode, model: payload.model, step: payload.step, tokens: aboutTokens(payload.estimatedTokens) }) + (payload.toolNames.length ? t("payload.tools", { names: payload.toolNames.join(", ") }) : ""),
    });
    this.showLayers(payload);
    for (const message of payload.messages) {
      if (message.images?.length) {
        const block = contentEl.createDiv({ cls: "vault-copilot-payload-segment is-images" });
        block.createDiv({ cls: "vault-copilot-payload-label", text: t("payload.images", { role: roleWords(message.role) }) });
        block.createEl("pre", { text: imageLines(message).join("\n") });
      }
      for (const segment of message.segments) {
        const block = contentEl.createDiv({ cls: `vault-copilot-payload-segment is-${segment.layer.toLowerCase()}` });
        const label = [layerName(segment.layer), segment.label, roleWords(message.role), aboutTokens(Math.ceil(segment.text.length / 4))].filter(Boolean).join(" · ");
        block.createDiv({ cls: "vault-copilot-payload-label", text: label });
        block.createEl("pre", { text: segment.text });
      }
      for (const call of message.toolCalls ?? []) {
        const block = contentEl.createDiv({ cls: "vault-copilot-payload-segment is-tool-call" });
        block.createDiv({ cls: "vault-copilot-payload-label", text: t("payload.calls", { layer: layerName("L3"), role: roleWords(message.role), tool: call.name }) });
        block.createEl("pre", { text: JSON.stringify(call.args, null, 2) });
      }
    }
    const buttons = contentEl.createDiv({ cls: "modal-button-container" });
    buttons.createEl("button", { text: t("payload.copy"), cls: "mod-cta" }).addEventListener("click", () => {
      navigator.clipboard.writeText(formatLayeredPayload(payload)).then(
        () => new Notice(t("notice.requestCopied")),
        () => new Notice(t("notice.requestNotCopied")),
      );
    });
  }

  override onClose(): void {
    this.contentEl.empty();
  }

  /** Each layer's share of the request, in the order the request holds them. */
  private showLayers(payload: RecordedPromptPayload): void {
    const list = this.contentEl.createEl("ul", { cls: "vault-copilot-payload-layers", attr: { "aria-label": t("payload.layers") } });
    for (const layer of PROMPT_LAYER_IDS) {
      const item = list.createEl("li");
      item.createSpan({ cls: "vault-copilot-payload-layer-name", text: layerName(layer) });
      item.createSpan({ cls: "vault-copilot-payload-layer-tokens", text: payload.layerTokens[layer] > 0 ? aboutTokens(payload.layerTokens[layer]) : t("payload.noTokens") });
    }
  }
}

function aboutTokens(tokens: number): string {
  return t("payload.aboutTokens", { count: tokens });
}
