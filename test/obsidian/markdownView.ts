import type * as Obsidian from "obsidian";
import { Editor } from "./editor";
import type { TFile } from "./vault";
import { ItemView } from "./view";
import type { WorkspaceLeaf } from "./workspace";

export const MARKDOWN_VIEW_TYPE = "markdown";

/** Where a change came from when the view itself set the editor's text (not to be saved back). */
const LOADED = "vault-copilot-double:load";
/** Where a change came from when the person typed in the view's textarea (already shown there). */
const TYPED = "vault-copilot-double:textarea";

/**
 * Obsidian's MarkdownView in source mode: a note in an Editor. Its content element holds a plain
 * textarea bound both ways to the editor, so a person on the demo page can type, select and see
 * what the plugin inserts. Edits are written to the note (Obsidian debounces; the double writes
 * each one, in order), and a change to the note from elsewhere reloads the editor.
 */
export class MarkdownView extends ItemView implements Pick<Obsidian.MarkdownView, "getViewType" | "getMode" | "getViewData" | "navigation"> {
  override navigation = true;
  file: TFile | null = null;
  readonly editor = new Editor();
  /** The textarea showing the editor (double only). */
  readonly textareaEl: HTMLTextAreaElement;
  private saving: Promise<void> = Promise.resolve();

  constructor(leaf: WorkspaceLeaf) {
    super(leaf);
    this.textareaEl = this.contentEl.createEl("textarea", { cls: "markdown-source-view", attr: { spellcheck: "false", "aria-label": "Note" } });
    this.bindTextarea();
    this.editor.onChange((origin) => {
      this.showEditorInTextarea(origin);
      if (origin !== LOADED && origin !== "select") this.requestSave();
    });
  }

  getViewType(): string {
    return MARKDOWN_VIEW_TYPE;
  }

  getDisplayText(): string {
    return this.file?.basename ?? "No file";
  }

  getMode(): Obsidian.MarkdownViewModeType {
    return "source";
  }

  getViewData(): string {
    return this.editor.getValue();
  }

  /** Shows `file` in the view (double only: Workspace.openFile calls it). */
  async setFile(file: TFile): Promise<void> {
    this.file = file;
    this.textareaEl.setAttribute("aria-label", file.basename);
    this.editor.setState(await this.app.vault.read(file), 0, 0, LOADED);
  }

  /** Settles when every edit so far has been written to the note (double only). */
  saved(): Promise<void> {
    return this.saving;
  }

  protected override onOpen(): Promise<void> {
    // A change to the note from elsewhere (the plugin's tools, another view) reloads the editor.
    this.registerEvent(
      this.app.vault.on("modify", (changed) => {
        if (changed !== this.file || !this.file) return;
        void this.app.vault.read(this.file).then((text) => {
          if (text === this.editor.getValue()) return;
          const [anchor, head] = this.editor.selectionOffsets();
          this.editor.setState(text, anchor, head, LOADED);
        });
      }),
    );
    return Promise.resolve();
  }

  private requestSave(): void {
    const file = this.file;
    if (!file) return;
    const text = this.editor.getValue();
    this.saving = this.saving.then(() => this.app.vault.modify(file, text)).catch((error: unknown) => console.error(`The note "${file.path}" could not be saved`, error));
  }

  private bindTextarea(): void {
    const textarea = this.textareaEl;
    const takeSelection = () => {
      const [anchor, head] = textarea.selectionDirection === "backward" ? [textarea.selectionEnd, textarea.selectionStart] : [textarea.selectionStart, textarea.selectionEnd];
      const [currentAnchor, currentHead] = this.editor.selectionOffsets();
      if (anchor !== currentAnchor || head !== currentHead) this.editor.setState(textarea.value, anchor, head, "select");
    };
    textarea.addEventListener("input", () => this.editor.setState(textarea.value, textarea.selectionStart, textarea.selectionEnd, TYPED));
    for (const type of ["select", "keyup", "mouseup", "focus"]) textarea.addEventListener(type, takeSelection);
    textarea.addEventListener("focus", () => this.editor.focus());
    textarea.addEventListener("blur", () => this.editor.blur());
  }

  private showEditorInTextarea(origin: string): void {
    const textarea = this.textareaEl;
    if (origin === TYPED) return; // the textarea made this change itself
    if (textarea.value !== this.editor.getValue()) textarea.value = this.editor.getValue();
    const [anchor, head] = this.editor.selectionOffsets();
    textarea.setSelectionRange(Math.min(anchor, head), Math.max(anchor, head), anchor > head ? "backward" : "forward");
  }
}
