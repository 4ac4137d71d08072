import { ItemView, Keymap, MarkdownRenderer, MarkdownView, Notice, TFile, type WorkspaceLeaf } from "obsidian";
import { StrictMode } from "react";
import { flushSync } from "react-dom";
import { createRoot, type Root } from "react-dom/client";
import type { Services } from "../app/createServices";
import type { VaultPort } from "../vault/VaultPort";
import { openChat, type ChatProblem, type OpenChat } from "../app/openChat";
import type { ChatController } from "../chat/ChatController";
import { selectionChip } from "../chat/chipArtifacts";
import { isImagePath } from "../chat/images/noteImages";
import { ContextSuggester } from "../chat/contextSuggestions";
import { droppedNoteLinks } from "../chat/droppedNotes";
import { CHAT_VIEW_TYPE } from "../constants";
import { loadSavedChat } from "../history/savedChats";
import { modelSettingsFor, newChatMode } from "../LLMProviders/modelChoice";
import { missingSelection, runPromptInChat, type PromptPlace, type PromptToRun } from "../prompts/runPrompt";
import { ChatHostContext, type ChatHost } from "./chat-components/ChatHost";
import { ChatView } from "./chat-components/ChatView";
import { StreamPacing } from "./chat-components/streamPacing";
import { ToolCallRootManager, ToolCallRootsContext } from "./chat-components/toolCallRootManager";
import { createInertDocument, InertDocumentContext } from "./chat-components/untrustedRender";
import { undoChatEdit } from "./editCommands";
import { chatProblemText, chipProblemText, promptNoticeText } from "./coreNotices";
import { editorPlace } from "./editorPlace";
import { openPluginSettings } from "./openPluginSettings";
import { t } from "../i18n/t";

export type { PromptToRun } from "../prompts/runPrompt";

/** What a chat view uses of the services (src/app/createServices). */
export type ChatServices = Pick<
  Services,
  "settings" | "createRunner" | "openProject" | "projects" | "readContext" | "vault" | "documents" | "editHistory" | "registry" | "listModels" | "history" | "secretValues" | "prompts" | "related"
>;

/**
 * The chat view in the sidebar. `onOpen` makes its ChatController and its one React root;
 * `onClose` stops any reply, unmounts the root and lets the controller go.
 */
export class CopilotView extends ItemView {
  private root: Root | null = null;
  /** This view's chat: its controller and the writer keeping it in its note. */
  private chat: OpenChat | null = null;
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
    return t("view.title");
  }

  override getIcon(): string {
    return "bot-message-square";
  }

  /** The chat of this view (for commands that add to it), while it is open. */
  getController(): ChatController | null {
    return this.chat?.controller ?? null;
  }

  /** The tool-call banners mounted in this view (none once their messages, or the view, are gone). */
  getToolCallRoots(): ToolCallRootManager {
    return this.toolCallRoots;
  }

  /** "Add selection to chat": the selected text with its note and lines becomes a chip. */
  addSelection(path: string, text: string, fromLine: number, toLine: number): void {
    this.chat?.controller.addChip(selectionChip(path, text, fromLine, toLine));
  }

  protected override onOpen(): Promise<void> {
    const { services } = this;
    const notify = (message: string, reason?: ChatProblem) => new Notice(t("notice.prefixed", { message: chatProblemText(message, reason) }));
    // Streamed text is drawn once a frame, less often while the user types (streamPacing.ts).
    const pacing = new StreamPacing();
    this.register(pacing.followInput(this.contentEl.ownerDocument));
    const chat = openChat(services, {
      // Folders and tags a chip lists are the project's, inside a project.
      listingVault: () => this.projectVault(),
      defaults: () => {
        const settings = services.settings.get();
        return { mode: newChatMode(settings, settings.provider.model), model: settings.provider.model };
      },
      keep: () => services.settings.get().history.autosave,
      onProblem: notify,
      // This chat's runs ask for approval here, in its conversation.
      asksApprovals: true,
      scheduleFlush: pacing.schedule,
    });
    this.chat = chat;
    const { controller } = chat;

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
    this.followTextSize();
    const root = createRoot(this.contentEl);
    this.root = root;
    // Drawn before onOpen returns, so the frame that shows the new leaf shows the chat in it (a
    // render left to React's scheduler comes a frame or more later, after an empty pane).
    flushSync(() =>
      root.render(
        <StrictMode>
          <ChatHostContext.Provider value={this.createHost()}>
            <InertDocumentContext.Provider value={createInertDocument(this.contentEl.ownerDocument)}>
              <ToolCallRootsContext.Provider value={this.toolCallRoots}>
                <ChatView controller={controller} onDropNotes={(data) => this.droppedNotes(data)} />
              </ToolCallRootsContext.Provider>
            </InertDocumentContext.Provider>
          </ChatHostContext.Provider>
        </StrictMode>,
      ),
    );
    return Promise.resolve();
  }

  protected override async onClose(): Promise<void> {
    this.root?.unmount();
    this.root = null;
    const chat = this.chat;
    this.chat = null;
    await chat?.close();
  }

  /**
   * Runs a prompt in this chat (src/prompts/runPrompt, as the CLI's `run` does), its place the
   * one given (the editor as it was when the prompt was asked for), else the note last open in an
   * editor and that editor's selection.
   */
  async runPrompt(prompt: PromptToRun, place: PromptPlace = this.promptPlace()): Promise<void> {
    const { chat, services } = this;
    if (!chat) return;
    const settings = services.settings.get();
    await runPromptInChat(chat.controller, prompt, place, {
      // Inside a project a prompt's variables find and list only the project's notes.
      vault: (await this.projectVault()) ?? services.vault,
      registry: services.registry,
      toolTimeoutMs: settings.toolTimeoutSeconds * 1000,
      now: Date.now(),
      timeZone: settings.timeZone || Intl.DateTimeFormat().resolvedOptions().timeZone,
      notify: (message, reason) => new Notice(t("notice.prefixed", { message: promptNoticeText(message, reason) })),
    });
  }

  /**
   * Runs an edit prompt as an exchange of its own: a new chat (the open one stays in its note and
   * in Chat history), never appended to the chat that was open. Refused, with a notice, when that
   * would stop an answer or lose an unsaved chat (see `ownChatRefusal`).
   */
  async runPromptInOwnChat(prompt: PromptToRun, place: PromptPlace): Promise<void> {
    const { chat } = this;
    if (!chat) return;
    const missing = missingSelection(prompt, place);
    const refusal = this.ownChatRefusal() ?? (missing === null ? null : promptNoticeText(missing, { code: "needs-selection", prompt: prompt.name }));
    if (refusal) {
      new Notice(t("notice.prefixed", { message: refusal }));
      return;
    }
    await chat.controller.newChat();
    await this.runPrompt(prompt, place);
  }

  /** Why a new chat cannot start here now (it would stop the answer going on, or drop a chat that is not saved), or null. */
  ownChatRefusal(): string | null {
    const state = this.chat?.controller.getState();
    if (!state) return null;
    if (state.running) return t("notice.stillAnswering");
    if (state.messages.length > 0 && !this.services.settings.get().history.autosave) {
      return t("notice.chatNotSaved");
    }
    return null;
  }

  /** The chat's text size setting, as a class on the view (styles.css maps it to a size), kept current. */
  private followTextSize(): void {
    let shown = "";
    const apply = () => {
      const size = `vault-copilot-text-${this.services.settings.get().chatTextSize}`;
      if (size === shown) return;
      if (shown) this.contentEl.removeClass(shown);
      this.contentEl.addClass(size);
      shown = size;
    };
    apply();
    this.register(this.services.settings.subscribe(apply));
  }

  /** The note last open in an editor, and its selection with the selection's lines. */
  private promptPlace(): PromptPlace {
    const editor = this.lastEditor?.file ? this.lastEditor : this.app.workspace.getActiveViewOfType(MarkdownView);
    if (!editor) return { notePath: null };
    return editorPlace(editor.editor, editor.file?.path ?? null);
  }

  /** Shows a saved chat here, to go on with: nothing is written until a message is sent. */
  private async openSavedChat(path: string): Promise<void> {
    const { chat, services } = this;
    if (!chat) return;
    const loaded = await loadSavedChat(services.history, services.vault, path, { documents: services.documents });
    await chat.continueSaved(loaded);
    for (const problem of loaded.problems) new Notice(t("notice.prefixed", { message: chipProblemText(problem) }));
  }

  /** The vault as the chat's project sees it (undefined outside a project). */
  private async projectVault(): Promise<VaultPort | undefined> {
    const project = this.chat?.controller.getState().project ?? null;
    return project === null ? undefined : (await this.services.openProject(project)).vault;
  }

  private createHost(): ChatHost {
    const { app, services } = this;
    const lastFolders = () => [services.settings.get().history.folder, services.settings.get().prompts.folder];
    const suggester = new ContextSuggester(services.vault, Date.now, lastFolders);
    // One suggester per opened project's vault, so "@" offers only the project's notes, folders and tags.
    const projectSuggesters = new WeakMap<VaultPort, ContextSuggester>();
    const suggesterFor = async (project: string | null): Promise<ContextSuggester> => {
      if (project === null) return suggester;
      const { vault } = await services.openProject(project);
      let known = projectSuggesters.get(vault);
      if (!known) projectSuggesters.set(vault, (known = new ContextSuggester(vault, Date.now, lastFolders)));
      return known;
    };
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
      suggestContext: async (query, project) => (await suggesterFor(project)).suggest(query),
      listModels: () => services.listModels(),
      modelPrices: (model) => modelSettingsFor(services.settings.get(), model).prices,
      relatedIn: (project) =>
        project === null ? services.related : { similar: async (path, signal) => (await services.openProject(project)).related.similar(path, signal) },
      projects: {
        list: async () => (await services.projects.list()).map((project) => ({ name: project.name, mcp: project.mcp, ...(project.mode ? { mode: project.mode } : {}), ...(project.model ? { model: project.model } : {}) })),
        subscribe: (listener) => services.projects.subscribe(listener),
        mcpServers: () => services.settings.get().mcpServers.filter((server) => server.enabled).map((server) => server.name),
        outside: async (project, paths) => {
          const { scope } = await services.openProject(project);
          const inside = await Promise.all(paths.map((path) => scope.contains(path)));
          return paths.filter((_path, index) => !inside[index]);
        },
      },
      prompts: {
        list: () => services.prompts.list(),
        run: (prompt) => this.runPrompt(prompt),
      },
      history: {
        list: (query, filter) => services.history.search(query, filter),
        open: (path) => this.openSavedChat(path),
        rename: (path, title) => services.history.rename(path, title),
        remove: (path) => services.history.remove(path),
      },
    };
  }

  /** Notes and images dragged from the file explorer (or links to them) that were dropped on the chat. */
  private droppedNotes(data: DataTransfer): string[] {
    const paths = new Set<string>();
    for (const link of droppedNoteLinks(data.getData("text/plain"))) {
      const file = this.app.metadataCache.getFirstLinkpathDest(link, "");
      if (file instanceof TFile && (file.extension === "md" || isImagePath(file.path))) paths.add(file.path);
    }
    return [...paths];
  }
}

function markdownPath(file: TFile | null): string | null {
  return file && file.extension === "md" ? file.path : null;
}
