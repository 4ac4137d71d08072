import { ItemView, Keymap, MarkdownRenderer, MarkdownView, Notice, TFile, type App, type WorkspaceLeaf } from "obsidian";
import { StrictMode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { ChatController, type ChatRunner } from "../chat/ChatController";
import { modelSettingsFor, newChatMode } from "../LLMProviders/modelChoice";
import type { RelatedNotesSource } from "./RelatedNotesList";
import { readChipArtifacts, selectionChip } from "../chat/chipArtifacts";
import { ContextSuggester } from "../chat/contextSuggestions";
import { CHAT_VIEW_TYPE, PLUGIN_ID } from "../constants";
import type { CopilotSettings, ChatMode } from "../settings/settingsSchema";
import type { ChatHistory } from "../history/ChatHistory";
import type { CustomPrompt } from "../prompts/customPrompt";
import { fillPrompt } from "../prompts/fillPrompt";
import type { PromptLibrary } from "../prompts/PromptLibrary";
import { withSelectionEdit } from "../prompts/selectionEdit";
import { ChatNoteWriter } from "../history/ChatNoteWriter";
import { restoreChat } from "../history/restoreChat";
import type { DocumentSource } from "../documents/DocumentReader";
import type { EditHistory } from "../tools/edit/EditHistory";
import type { ToolRegistry } from "../tools/ToolRegistry";
import type { VaultPort } from "../vault/VaultPort";
import { ChatHostContext, type ChatHost } from "./chat-components/ChatHost";
import { ChatView } from "./chat-components/ChatView";
import { ToolCallRootManager, ToolCallRootsContext } from "./chat-components/toolCallRootManager";
import { createInertDocument, InertDocumentContext } from "./chat-components/untrustedRender";
import { undoChatEdit } from "./editCommands";

/** What the view reads of the settings: the current value, and changes to it. */
export interface SettingsSource {
  get(): CopilotSettings;
  subscribe(listener: (settings: CopilotSettings) => void): () => void;
}

/** What main.ts hands every chat view. */
export interface ChatServices {
  settings: SettingsSource;
  createRunner(mode: ChatMode, model: string): ChatRunner;
  vault: VaultPort;
  /** PDFs and canvases as text for chips (absent: canvases still read, PDFs say they cannot be). */
  documents?: DocumentSource;
  editHistory: EditHistory;
  registry: ToolRegistry;
  /** Model names the provider's server lists (empty when it lists none). */
  listModels(): Promise<string[]>;
  /** The chats kept as notes. */
  history: ChatHistory;
  /** The values of the secrets the plugin holds (kept out of saved chats). */
  secretValues(): string[];
  /** The user's own prompts (the slash menu). */
  prompts: PromptLibrary;
  /** The notes related to a note (the chat's "Related notes" section). */
  related: RelatedNotesSource;
}

/** A prompt to run: one of the user's, or an instruction typed for "Edit selection with Copilot". */
export type PromptToRun = Pick<CustomPrompt, "name" | "body" | "edit" | "mode" | "model">;

/**
 * The chat view in the sidebar. `onOpen` makes its ChatController and its one React root;
 * `onClose` stops any reply, unmounts the root and lets the controller go.
 */
export class CopilotView extends ItemView {
  private root: Root | null = null;
  private controller: ChatController | null = null;
  /** Keeps this view's chat in its note. */
  private writer: ChatNoteWriter | null = null;
  /** The last note editor the user was in (the chat itself takes the focus when clicked). */
  private lastEditor: MarkdownView | null = null;
  /** The tool-call banners mounted in this view (empty again once its root is unmounted). */
  private readonly toolCallRoots = new ToolCallRootManager();

  constructor(
    leaf: WorkspaceLeaf,
    private readonly services: ChatServices,
  ) {
    super(leaf);
  }

  getViewType(): string {
    return CHAT_VIEW_TYPE;
  }

  getDisplayText(): string {
    return "Copilot chat";
  }

  override getIcon(): string {
    return "bot-message-square";
  }

  /** The chat of this view (for commands that add to it), while it is open. */
  getController(): ChatController | null {
    return this.controller;
  }

  /** The tool-call banners mounted in this view (none once their messages, or the view, are gone). */
  getToolCallRoots(): ToolCallRootManager {
    return this.toolCallRoots;
  }

  /** "Add selection to chat": the selected text with its note and lines becomes a chip. */
  addSelection(path: string, text: string, fromLine: number, toLine: number): void {
    this.controller?.addChip(selectionChip(path, text, fromLine, toLine));
  }

  protected override onOpen(): Promise<void> {
    const { services } = this;
    const writer = new ChatNoteWriter({
      vault: services.vault,
      history: services.history,
      enabled: () => services.settings.get().history.autosave,
      onProblem: (message) => new Notice(`Vault Copilot: ${message}`),
      secrets: () => services.secretValues(),
    });
    this.writer = writer;
    const controller = new ChatController({
      createRunner: (mode, model) => services.createRunner(mode, model),
      readContext: (chips, signal) => readChipArtifacts(services.vault, chips, signal, services.documents),
      defaults: () => {
        const settings = services.settings.get();
        return { mode: newChatMode(settings, settings.provider.model), model: settings.provider.model };
      },
      // This chat's runs ask for approval here, in its conversation.
      asksApprovals: true,
      scheduleFlush: (flush) => window.requestAnimationFrame(flush),
      onProblem: (message) => new Notice(`Vault Copilot: ${message}`),
      persistence: writer,
    });
    this.controller = controller;

    const { workspace } = this.app;
    this.lastEditor = workspace.getActiveViewOfType(MarkdownView);
    controller.setActiveNote(markdownPath(workspace.getActiveFile()));
    this.registerEvent(workspace.on("file-open", (file) => controller.setActiveNote(markdownPath(file))));
    this.registerEvent(
      workspace.on("active-leaf-change", (leaf) => {
        if (leaf?.view instanceof MarkdownView) this.lastEditor = leaf.view;
      }),
    );
    this.contentEl.empty();
    this.contentEl.addClass("vault-copilot-view");
    this.root = createRoot(this.contentEl);
    this.root.render(
      <StrictMode>
        <ChatHostContext.Provider value={this.createHost()}>
          <InertDocumentContext.Provider value={createInertDocument(this.contentEl.ownerDocument)}>
            <ToolCallRootsContext.Provider value={this.toolCallRoots}>
              <ChatView controller={controller} onDropNotes={(data) => this.droppedNotes(data)} />
            </ToolCallRootsContext.Provider>
          </InertDocumentContext.Provider>
        </ChatHostContext.Provider>
      </StrictMode>,
    );
    return Promise.resolve();
  }

  protected override async onClose(): Promise<void> {
    this.root?.unmount();
    this.root = null;
    const controller = this.controller;
    this.controller = null;
    // The reply stops, and its end is still written to the chat's note.
    await controller?.dispose();
    await this.writer?.idle();
    this.writer?.dispose();
    this.writer = null;
  }

  /**
   * Runs a prompt in this chat: its variables filled from the note open in the editor and its
   * selection (what they attach goes with the message as context), in its own mode and model when
   * it names them. An edit prompt's answer then replaces the selection, shown as a diff to accept.
   */
  async runPrompt(prompt: PromptToRun): Promise<void> {
    const { controller, services } = this;
    if (!controller) return;
    const editor = this.lastEditor?.file ? this.lastEditor : this.app.workspace.getActiveViewOfType(MarkdownView);
    const path = editor?.file?.path ?? null;
    const selected = editor?.editor.getSelection() ?? "";
    if (prompt.edit && (!path || selected === "")) {
      new Notice(`Vault Copilot: select the text "${prompt.name}" should rewrite in a note first.`);
      return;
    }
    const settings = services.settings.get();
    const selection =
      selected !== "" && editor ? { text: selected, ...(path ? { path } : {}), fromLine: editor.editor.getCursor("from").line + 1, toLine: editor.editor.getCursor("to").line + 1 } : undefined;
    const filled = await fillPrompt(prompt, services.vault, {
      ...(selection ? { selection } : {}),
      activeNotePath: controller.getState().activeNote?.path ?? path,
      now: Date.now(),
      timeZone: settings.timeZone || Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
    for (const notice of filled.notices) new Notice(`Vault Copilot: ${notice}`);
    const replaceInFile = services.registry.getAllTools().find((definition) => definition.metadata.id === "replaceInFile")?.tool;
    const edit = prompt.edit && path && replaceInFile ? { path, text: selected, tool: replaceInFile } : null;
    await controller.send(filled.message, {
      chips: filled.chips,
      ...(prompt.mode ? { mode: prompt.mode } : {}),
      ...(prompt.model ? { model: prompt.model } : {}),
      ...(edit ? { wrapRunner: (runner) => withSelectionEdit(runner, edit, edit.tool, settings.toolTimeoutSeconds * 1000) } : {}),
    });
  }

  /** Shows a saved chat here, to go on with: nothing is written until a message is sent. */
  private async openSavedChat(path: string): Promise<void> {
    const { controller, writer, services } = this;
    if (!controller || !writer) return;
    const { record, text } = await services.history.load(path);
    const { chat, problems } = await restoreChat(record, services.vault, undefined, services.documents);
    await controller.restore(chat);
    writer.adopt(record, path, text);
    for (const problem of problems) new Notice(`Vault Copilot: ${problem}`);
  }

  private createHost(): ChatHost {
    const { app, services } = this;
    const suggester = new ContextSuggester(services.vault, Date.now, () => [services.settings.get().history.folder, services.settings.get().prompts.folder]);
    return {
      renderMarkdown: (markdown, el, sourcePath, component) => MarkdownRenderer.render(app, markdown, el, sourcePath, component),
      openLink: (linktext, sourcePath, event) => void app.workspace.openLinkText(linktext, sourcePath, Keymap.isModEvent(event)),
      hoverLink: (event, targetEl, linktext, sourcePath) =>
        app.workspace.trigger("hover-link", { event, source: CHAT_VIEW_TYPE, hoverParent: this, targetEl, linktext, sourcePath }),
      insertAtCursor: (text) => {
        const view = this.lastEditor?.file ? this.lastEditor : app.workspace.getActiveViewOfType(MarkdownView);
        if (!view) return false;
        view.editor.replaceSelection(text);
        return true;
      },
      copyText: (text) => navigator.clipboard.writeText(text),
      notify: (message) => new Notice(message),
      openSettings: () => openPluginSettings(app),
      toolMetadata: (toolId) => (toolId ? services.registry.getToolMetadata(toolId) : undefined),
      undoEdit: (edit) => undoChatEdit(services.editHistory, edit),
      suggestContext: (query) => suggester.suggest(query),
      listModels: () => services.listModels(),
      modelPrices: (model) => modelSettingsFor(services.settings.get(), model).prices,
      related: services.related,
      prompts: {
        list: () => services.prompts.list(),
        run: (prompt) => this.runPrompt(prompt),
      },
      history: {
        list: (query) => services.history.search(query),
        open: (path) => this.openSavedChat(path),
        rename: (path, title) => services.history.rename(path, title),
        remove: (path) => services.history.remove(path),
      },
    };
  }

  /** Notes dragged from the file explorer (or links to them) that were dropped on the chat. */
  private droppedNotes(data: DataTransfer): string[] {
    const text = data.getData("text/plain");
    const paths = new Set<string>();
    for (const line of text.split(/\r?\n/)) {
      const link = /^\[\[([^\]|#]+)(?:[#|][^\]]*)?\]\]$/.exec(line.trim())?.[1] ?? obsidianUrlFile(line.trim());
      if (!link) continue;
      const file = this.app.metadataCache.getFirstLinkpathDest(link, "");
      if (file instanceof TFile && file.extension === "md") paths.add(file.path);
    }
    return [...paths];
  }
}

/**
 * Opens Settings at the plugin's tab. Obsidian's settings window is not part of its public API
 * (obsidian.d.ts), though it has been `app.setting` for years: it is used when there, and the user
 * is told where to look when not.
 */
function openPluginSettings(app: App): void {
  const setting = (app as unknown as { setting?: { open?: () => void; openTabById?: (id: string) => unknown } }).setting;
  if (typeof setting?.open === "function" && typeof setting.openTabById === "function") {
    setting.open();
    setting.openTabById(PLUGIN_ID);
    return;
  }
  new Notice("Open settings → Vault Copilot to set up the model.");
}

function markdownPath(file: TFile | null): string | null {
  return file && file.extension === "md" ? file.path : null;
}

/** The `file` of an `obsidian://open?vault=…&file=…` link. */
function obsidianUrlFile(text: string): string | null {
  if (!text.startsWith("obsidian://")) return null;
  try {
    return new URL(text).searchParams.get("file");
  } catch {
    return null;
  }
}
