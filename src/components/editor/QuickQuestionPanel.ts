import { Component, MarkdownRenderer, Notice, type App, type Editor } from "obsidian";
import { errorMessage } from "../../errorMessage";
import { askQuickQuestion, type QuestionPlace } from "../../editor/quickQuestion";
import type { ChatRunner } from "../../chat/ChatController";
import type { TokenUsage } from "../../LLMProviders/tokenUsage";
import type { VaultPort } from "../../vault/VaultPort";
import { neutralizeMarkdown } from "../chat-components/untrustedMarkdown";
import { createInertDocument, renderInert } from "../chat-components/untrustedRender";
import { t } from "../../i18n/t";
import { chipProblemText } from "../coreNotices";
import { errorReason } from "../chat-components/errorText";

/** What the panel does with an answer; the plugin wires each to the code the chat uses. */
export interface QuickQuestionActions {
  app: App;
  vault: VaultPort;
  /** The chat's runner in Chat mode with the default model (no tools). */
  createRunner(): ChatRunner;
  /** Replaces the selection with the answer through the edit tools' diff and approval. */
  replaceSelection(place: QuestionPlace & { selection: NonNullable<QuestionPlace["selection"]> }, answer: string): Promise<void>;
  /** Shows the exchange in the sidebar's chat, which goes on from it and saves it as any chat. */
  openInChat(place: QuestionPlace, question: string, answer: string, usage: TokenUsage): Promise<void>;
}

/** The cursor's place on screen, where the panel opens; null where the editor cannot say (the panel then opens centred). */
export type CursorCoordinates = { left: number; top: number; bottom: number } | null;

/**
 * A small prompt at the cursor: a question box, the answer streaming below it as a preview (the
 * model's Markdown rendered as untrusted output: neutralized, rendered in an inert document,
 * checked, then shown), and Insert, Replace selection, Open in chat. Escape or Close ends it and
 * stops a question still being answered.
 */
export class QuickQuestionPanel {
  readonly element: HTMLElement;
  private readonly input: HTMLInputElement;
  private readonly preview: HTMLElement;
  private readonly buttons: Record<"ask" | "insert" | "replace" | "chat", HTMLButtonElement>;
  private readonly component = new Component();
  private readonly inert: Document;
  private abort: AbortController | null = null;
  private answer: { question: string; text: string; usage: TokenUsage } | null = null;
  private renderQueued = false;
  private latestText = "";
  private closed = false;

  constructor(
    private readonly actions: QuickQuestionActions,
    private readonly editor: Editor,
    private readonly place: QuestionPlace,
    coordinates: CursorCoordinates,
  ) {
    this.component.load();
    this.inert = createInertDocument(activeDocument);
    const panel = activeDocument.body.createDiv({ cls: "vault-copilot-quick-question", attr: { role: "dialog", "aria-label": t("quick.title") } });
    this.element = panel;
    if (coordinates) {
      panel.style.setProperty("--vault-copilot-quick-left", `${Math.round(coordinates.left)}px`);
      panel.style.setProperty("--vault-copilot-quick-top", `${Math.round(coordinates.bottom + 4)}px`);
    } else {
      panel.addClass("is-centred");
    }
    const form = panel.createDiv({ cls: "vault-copilot-quick-question-ask" });
    this.input = form.createEl("input", { type: "text", attr: { "aria-label": t("quick.title"), placeholder: t("quick.placeholder") } });
    const ask = form.createEl("button", { text: t("quick.ask"), cls: "mod-cta" });
    this.preview = panel.createDiv({ cls: "vault-copilot-quick-question-answer markdown-rendered", attr: { role: "region", "aria-label": t("quick.answer"), "aria-live": "polite" } });
    const buttons = panel.createDiv({ cls: "vault-copilot-quick-question-buttons" });
    this.buttons = {
      ask,
      insert: buttons.createEl("button", { text: t("quick.insert") }),
      replace: buttons.createEl("button", { text: t("quick.replace") }),
      chat: buttons.createEl("button", { text: t("quick.openInChat") }),
    };
    const close = buttons.createEl("button", { text: t("quick.close") });
    if (!place.selection) this.buttons.replace.hide();
    this.setAnswerButtons(false);

    ask.addEventListener("click", () => void this.ask());
    this.input.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.isComposing) {
        event.preventDefault();
        void this.ask();
      }
    });
    panel.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        this.close();
      }
    });
    this.buttons.insert.addEventListener("click", () => this.insert());
    this.buttons.replace.addEventListener("click", () => void this.replace());
    this.buttons.chat.addEventListener("click", () => void this.openInChat());
    close.addEventListener("click", () => this.close());
    this.input.focus();
  }

  /** Ends the panel: stops the answer if it is still coming, and gives the editor its focus back. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.abort?.abort();
    this.component.unload();
    this.element.remove();
    this.editor.focus();
  }

  private async ask(): Promise<void> {
    const question = this.input.value.trim();
    if (!question || this.abort) return;
    const abort = new AbortController();
    this.abort = abort;
    this.answer = null;
    this.setAnswerButtons(false);
    this.buttons.ask.disabled = true;
    this.preview.empty();
    this.preview.createDiv({ cls: "vault-copilot-quick-question-status", text: t("quick.answering") });
    try {
      const result = await askQuickQuestion({ runner: this.actions.createRunner(), vault: this.actions.vault }, this.place, question, abort.signal, (text) => this.show(text));
      for (const problem of result.problems) new Notice(t("notice.prefixed", { message: chipProblemText(problem) }));
      if (this.closed) return;
      if (result.status === "completed") {
        this.answer = { question, text: result.text, usage: result.usage };
        this.show(result.text);
        this.setAnswerButtons(true);
      } else if (result.status === "failed") {
        this.preview.empty();
        // The failure by its kind in the interface's language (English: the provider's own words).
        this.preview.createDiv({ cls: "vault-copilot-quick-question-status", text: t("quick.noAnswer", { reason: result.error ? errorReason(result.error) : t("quick.modelFailed") }) });
      }
    } catch (error) {
      if (!this.closed) this.preview.setText(t("quick.noAnswer", { reason: errorMessage(error) }));
    } finally {
      this.abort = null;
      this.buttons.ask.disabled = false;
    }
  }

  /** Shows the answer so far, rendered at most once per frame. */
  private show(text: string): void {
    this.latestText = text;
    if (this.renderQueued) return;
    this.renderQueued = true;
    window.requestAnimationFrame(() => {
      this.renderQueued = false;
      const markdown = this.latestText;
      renderInert((target) => MarkdownRenderer.render(this.actions.app, neutralizeMarkdown(markdown), target, this.place.path, this.component), this.inert).then(
        (nodes) => {
          if (this.closed || markdown !== this.latestText) return;
          this.preview.empty();
          this.preview.append(...nodes);
        },
        (error: unknown) => this.preview.setText(t("quick.notShown", { reason: errorMessage(error) })),
      );
    });
  }

  private setAnswerButtons(enabled: boolean): void {
    for (const button of [this.buttons.insert, this.buttons.replace, this.buttons.chat]) button.disabled = !enabled;
  }

  /** Puts the answer into the note at the cursor (or after the selection, which stays). */
  private insert(): void {
    if (!this.answer) return;
    this.editor.replaceRange(this.answer.text, this.editor.getCursor("to"));
    this.close();
  }

  private async replace(): Promise<void> {
    const selection = this.place.selection;
    if (!this.answer || !selection) return;
    const answer = this.answer.text;
    this.close();
    await this.actions.replaceSelection({ ...this.place, selection }, answer).catch((error: unknown) => new Notice(t("quick.notReplaced", { reason: errorMessage(error) })));
  }

  private async openInChat(): Promise<void> {
    if (!this.answer) return;
    const { question, text, usage } = this.answer;
    this.close();
    await this.actions.openInChat(this.place, question, text, usage).catch((error: unknown) => new Notice(t("quick.chatNotOpened", { reason: errorMessage(error) })));
  }
}
