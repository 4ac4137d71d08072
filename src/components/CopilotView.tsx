import { ItemView, type WorkspaceLeaf } from "obsidian";
import { StrictMode, useSyncExternalStore } from "react";
import { createRoot, type Root } from "react-dom/client";
import { CHAT_VIEW_TYPE } from "../constants";
import type { ChatMode, CopilotSettings } from "../settings/settingsSchema";

/** What the view reads of the settings: the current value, and changes to it. */
export interface SettingsSource {
  get(): CopilotSettings;
  subscribe(listener: (settings: CopilotSettings) => void): () => void;
}

const MODE_NAMES: Record<ChatMode, string> = { chat: "Chat", "vault-qa": "Questions about the vault", agent: "Agent" };

/**
 * The chat view in the sidebar. Its React root is made when Obsidian opens the view and
 * unmounted when it closes it, so a closed view leaves nothing running.
 */
export class CopilotView extends ItemView {
  private root: Root | null = null;

  constructor(
    leaf: WorkspaceLeaf,
    private readonly settings: SettingsSource,
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

  protected override onOpen(): Promise<void> {
    this.contentEl.empty();
    this.contentEl.addClass("vault-copilot-view");
    this.root = createRoot(this.contentEl);
    this.root.render(
      <StrictMode>
        <ChatPlaceholder settings={this.settings} />
      </StrictMode>,
    );
    return Promise.resolve();
  }

  protected override onClose(): Promise<void> {
    this.root?.unmount();
    this.root = null;
    return Promise.resolve();
  }
}

/** Stands where the chat will be: says which mode a new chat uses, and that the chat is not built yet. */
function ChatPlaceholder({ settings }: { settings: SettingsSource }) {
  const mode = useSyncExternalStore(
    (onChange) => settings.subscribe(onChange),
    () => settings.get().defaultMode,
  );
  return (
    <div className="vault-copilot-chat-placeholder">
      <p className="vault-copilot-chat-mode">
        Mode: <strong>{MODE_NAMES[mode]}</strong>
      </p>
      <p>The chat itself is not here yet: it arrives with the chat view. Until then, this panel only shows the mode a new chat would use.</p>
    </div>
  );
}
