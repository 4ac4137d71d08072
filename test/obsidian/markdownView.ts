import { Annotation, EditorSelection, StateField } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import type * as Obsidian from "obsidian";
import { Editor } from "./editor";
import type { TFile } from "./vault";
import { ItemView } from "./view";
import type { WorkspaceLeaf } from "./workspace";

export const MARKDOWN_VIEW_TYPE = "markdown";

/** Where a change came from when the view itself set the editor's text (not to be saved back). */
const LOADED = "vault-copilot-double:load";
/** Where a change came from when the person typed in the view's CodeMirror editor (already shown there). */
const TYPED = "vault-copilot-double:codemirror";

/** Marks the CodeMirror transactions that only show the Editor's state (not to be handed back). */
const fromEditor = Annotation.define<boolean>();

/**
 * Obsidian's `editorInfoField`: the view a CodeMirror state belongs to (its `file` says which note).
 * Obsidian's own comes from the app; the double's from the same @codemirror/state the plugin gets.
 */
export const editorInfoField = StateField.define<Obsidian.MarkdownFileInfo>({
  create: () => ({}) as Obsidian.MarkdownFileInfo,
  update: (value) => value,
});

/**
 * Obsidian's MarkdownView in source mode: a note in an Editor. Its content element holds a real
 * CodeMirror 6 editor (the packages Obsidian ships) carrying every extension plugins registered
 * with `registerEditorExtension`, bound both ways to the Editor, so a person on the demo page can
 * type, select and see what the plugin inserts or suggests. Its content is a textbox named "Note
 * editor". Edits are written to the note (Obsidian debounces; the double writes each one, in
 * order), and a change to the note from elsewhere reloads the editor.
 */
export class MarkdownView extends ItemView implements Pick<Obsidian.MarkdownView, "getViewType" | "getMode" | "getViewData" | "navigation"> {
  override navigation = true;
  file: TFile | null = null;
  readonly editor = new Editor();
  /** The CodeMirror editor showing the Editor (Obsidian's `editor.cm`). */
  readonly editorView: EditorView;
  private saving: Promise<void> = Promise.resolve();
  /** Saves written and not yet settled: their "modify" events carry text older than the editor's. */
  private pendingSaves = 0;

  constructor(leaf: WorkspaceLeaf) {
    super(leaf);
    this.editorView = new EditorView({
      parent: this.contentEl.createDiv({ cls: "markdown-source-view mod-cm6" }),
      extensions: [
        editorInfoField.init(() => this as unknown as Obsidian.MarkdownFileInfo),
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({ "aria-label": "Note editor", spellcheck: "false" }),
        EditorView.updateListener.of((update) => {
          if (update.transactions.some((transaction) => transaction.annotation(fromEditor))) return;
          if (!update.docChanged && !update.selectionSet && !update.focusChanged) return;
          const { anchor, head } = update.state.selection.main;
          this.editor.setState(update.state.doc.toString(), anchor, head, update.docChanged ? TYPED : "select");
          if (update.focusChanged) {
            if (update.view.hasFocus) this.editor.focus();
            else this.editor.blur();
          }
        }),
        ...this.app.workspace.editorExtensions,
      ],
    });
    (this.editor as Editor & { cm?: EditorView }).cm = this.editorView;
    this.editor.onChange((origin) => {
      this.showEditorInCodeMirror(origin);
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
        // Our own saves come back as "modify" too; while one is on its way the editor is newer than the note.
        if (changed !== this.file || !this.file || this.pendingSaves > 0) return;
        void this.app.vault.read(this.file).then((text) => {
          if (text === this.editor.getValue() || this.pendingSaves > 0) return;
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
    this.pendingSaves++;
    this.saving = this.saving
      .then(() => this.app.vault.modify(file, text))
      .catch((error: unknown) => console.error(`The note "${file.path}" could not be saved`, error))
      .finally(() => this.pendingSaves--);
  }

  private showEditorInCodeMirror(origin: string): void {
    if (origin === TYPED) return; // CodeMirror made this change itself
    const view = this.editorView;
    const text = this.editor.getValue();
    const [anchor, head] = this.editor.selectionOffsets();
    const current = view.state.doc.toString();
    const selection = view.state.selection.main;
    if (current === text && selection.anchor === anchor && selection.head === head) return;
    view.dispatch({
      ...(current === text ? {} : { changes: { from: 0, to: current.length, insert: text } }),
      selection: EditorSelection.single(anchor, head),
      annotations: fromEditor.of(true),
    });
  }
}
