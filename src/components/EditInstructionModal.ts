import { Modal, Setting, type App } from "obsidian";

/** Asks what to do with the selection ("Edit selection with Copilot"); calls `onSubmit` with the instruction. */
export class EditInstructionModal extends Modal {
  private instruction = "";

  constructor(
    app: App,
    private readonly onSubmit: (instruction: string) => void,
  ) {
    super(app);
  }

  override onOpen(): void {
    this.titleEl.setText("Edit selection with Copilot");
    const submit = () => {
      const instruction = this.instruction.trim();
      if (!instruction) return;
      this.close();
      this.onSubmit(instruction);
    };
    new Setting(this.contentEl).setName("Instruction").addText((text) => {
      text.setPlaceholder("Make it shorter, fix the grammar, turn it into a list…");
      text.onChange((value) => (this.instruction = value));
      text.inputEl.addEventListener("keydown", (event) => {
        if (event.key === "Enter") {
          event.preventDefault();
          submit();
        }
      });
    });
    new Setting(this.contentEl).addButton((button) => button.setButtonText("Edit").setCta().onClick(submit));
  }

  override onClose(): void {
    this.contentEl.empty();
  }
}
