import { Modal, Setting, type App } from "obsidian";
import type { PromptPlace } from "../prompts/runPrompt";
import { placeName } from "./editorPlace";
import { t } from "../i18n/t";

/** The most of the selection the box shows (the edit still gets all of it). */
const MAX_PREVIEW_LINES = 8;
const MAX_PREVIEW_CHARACTERS = 600;

/**
 * Asks what to do with the selection ("Edit selection with Copilot"): it shows what will change
 * (the note, its lines and the selected text) and takes the focus, so the instruction is typed at
 * once; `onSubmit` gets the instruction.
 */
export class EditInstructionModal extends Modal {
  private instruction = "";

  constructor(
    app: App,
    private readonly place: PromptPlace,
    private readonly onSubmit: (instruction: string) => void,
  ) {
    super(app);
  }

  override onOpen(): void {
    this.titleEl.setText(t("editModal.title"));
    const submit = () => {
      const instruction = this.instruction.trim();
      if (!instruction) return;
      this.close();
      this.onSubmit(instruction);
    };
    this.contentEl.addClass("vault-copilot-edit-instruction");
    this.contentEl.createDiv({ cls: "vault-copilot-edit-place", text: placeName(this.place) });
    const preview = this.contentEl.createDiv({ cls: "vault-copilot-edit-selection", attr: { role: "figure", "aria-label": t("editModal.selected") } });
    preview.setText(previewOf(this.place.selection?.text ?? ""));
    let input: HTMLInputElement | null = null;
    new Setting(this.contentEl).setName(t("editModal.instruction")).addText((text) => {
      text.setPlaceholder(t("editModal.placeholder"));
      text.onChange((value) => (this.instruction = value));
      text.inputEl.setAttribute("aria-label", t("editModal.instruction"));
      text.inputEl.addEventListener("keydown", (event) => {
        if (event.key === "Enter" && !event.isComposing) {
          event.preventDefault();
          submit();
        }
      });
      input = text.inputEl;
    });
    new Setting(this.contentEl).addButton((button) => button.setButtonText(t("editModal.edit")).setCta().onClick(submit));
    // Typing goes straight into the instruction.
    (input as HTMLInputElement | null)?.focus();
  }

  override onClose(): void {
    this.contentEl.empty();
  }
}

/** The selection as the box shows it: its first lines, cut with a count of what is left out. */
function previewOf(text: string): string {
  const lines = text.split("\n");
  let shown = lines.slice(0, MAX_PREVIEW_LINES).join("\n");
  // Cut between characters, never inside one (an emoji is two code units).
  const characters = [...shown];
  if (characters.length > MAX_PREVIEW_CHARACTERS) shown = `${characters.slice(0, MAX_PREVIEW_CHARACTERS).join("")}…`;
  const more = lines.length - MAX_PREVIEW_LINES;
  return more > 0 ? `${shown}\n${t("editModal.moreLines", { count: more })}` : shown;
}
