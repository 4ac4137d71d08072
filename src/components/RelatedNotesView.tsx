import { ItemView, Keymap, TFile, type WorkspaceLeaf } from "obsidian";
import { StrictMode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { RELATED_VIEW_TYPE } from "../constants";
import { RelatedNotesList, type RelatedNotesSource } from "./RelatedNotesList";
import { t } from "../i18n/t";

export interface RelatedNotesServices {
  source: RelatedNotesSource;
  /** Attaches a note to the chat view's next message (opening the view if needed). */
  addToChat(path: string): void;
}

/**
 * "Related notes": a sidebar view listing the notes most related to the one open in the editor,
 * following the user from note to note. One React root, made in onOpen, unmounted in onClose.
 */
export class RelatedNotesView extends ItemView {
  private root: Root | null = null;
  private path: string | null = null;

  constructor(
    leaf: WorkspaceLeaf,
    private readonly services: RelatedNotesServices,
  ) {
    super(leaf);
  }

  getViewType(): string {
    return RELATED_VIEW_TYPE;
  }

  getDisplayText(): string {
    return t("related.heading");
  }

  override getIcon(): string {
    return "network";
  }

  protected override onOpen(): Promise<void> {
    this.contentEl.empty();
    this.contentEl.addClass("vault-copilot-related-view");
    this.root = createRoot(this.contentEl);
    this.follow(this.app.workspace.getActiveFile());
    this.registerEvent(this.app.workspace.on("file-open", (file) => this.follow(file)));
    return Promise.resolve();
  }

  protected override onClose(): Promise<void> {
    this.root?.unmount();
    this.root = null;
    return Promise.resolve();
  }

  /** Shows the notes related to `file` (a Markdown note); other files leave the list as it is. */
  private follow(file: TFile | null): void {
    if (file && !(file instanceof TFile && file.extension === "md")) return;
    this.path = file?.path ?? null;
    this.root?.render(
      <StrictMode>
        <RelatedNotesList
          source={this.services.source}
          path={this.path}
          onOpen={(path, event) => void this.app.workspace.openLinkText(path, this.path ?? "", Keymap.isModEvent(event.nativeEvent))}
          onAddToChat={(path) => this.services.addToChat(path)}
        />
      </StrictMode>,
    );
  }
}
