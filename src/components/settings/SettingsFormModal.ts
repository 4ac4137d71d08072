import { Modal, Setting } from "obsidian";
import { t } from "../../i18n/t";

/**
 * A settings form in a modal (a model, an MCP server): its fields above, then the sentence that
 * stops Save (a live region) and Cancel / Save. `save` checks the form and either says what is
 * wrong (`showProblem`) or hands the value on and closes.
 */
export abstract class SettingsFormModal extends Modal {
  private problemEl: HTMLElement | null = null;

  /** Checks the form; says what is wrong, or saves it and closes. */
  protected abstract save(): void;

  /** The line for what is wrong, and Cancel / Save, after the fields. */
  protected addFooter(): void {
    this.problemEl = this.contentEl.createDiv({ cls: "vault-copilot-form-error", attr: { role: "alert" } });
    new Setting(this.contentEl)
      .addButton((button) => button.setButtonText(t("form.cancel")).onClick(() => this.close()))
      .addButton((button) =>
        button
          .setButtonText(t("form.save"))
          .setCta()
          .onClick(() => this.save()),
      );
  }

  /** What stops Save, in a sentence ("" when nothing does). */
  protected showProblem(message: string): void {
    this.problemEl?.setText(message);
  }

  override onClose(): void {
    this.contentEl.empty();
  }
}
