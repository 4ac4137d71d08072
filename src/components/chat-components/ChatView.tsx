import { useEffect, useRef, useState, type DragEvent } from "react";
import type { ChatController } from "../../chat/ChatController";
import { afterNextPaint } from "../../ports/afterNextPaint";
import { chipForVaultPath, noteChip } from "../../chat/chipArtifacts";
import { attachImageFiles } from "./pastedImages";
import { CHAT_MODES, type ChatMode } from "../../settings/settingsSchema";
import { ChatComposer, type ComposerHandle } from "./ChatComposer";
import { ChatHistoryPanel } from "./ChatHistoryPanel";
import { useChatHost, type ProjectChoice } from "./ChatHost";
import { ChatMessages } from "./ChatMessages";
import { IconButton } from "./IconButton";
import { useOnScreenKeyboard } from "./onScreenKeyboard";
import { useChatState } from "./useChatState";
import { RelatedNotesList } from "../RelatedNotesList";
import { t } from "../../i18n/t";
import { announcementText } from "./announcementText";

/**
 * The chat in the sidebar: one header row (the mode and model pickers, New chat and Chat history
 * as icons), the conversation, the message box. It draws the controller's state and calls its actions; it never talks to a model itself.
 * On a phone it stays above the on-screen keyboard (onScreenKeyboard.ts).
 */
export function ChatView({ controller, onDropNotes }: { controller: ChatController; onDropNotes?: (data: DataTransfer) => string[] }) {
  const chatId = useChatState(controller, "chatId");
  const activeNote = useChatState(controller, "activeNote");
  const project = useChatState(controller, "project");
  const host = useChatHost();
  const [dragging, setDragging] = useState(false);
  const [showHistory, setShowHistory] = useState(false);
  /** The message box, for an example question of the empty chat to be put in. */
  const composer = useRef<ComposerHandle>(null);
  const chat = useRef<HTMLDivElement>(null);
  useOnScreenKeyboard(chat);

  const onDrop = (event: DragEvent) => {
    setDragging(false);
    // Image files dragged in from outside the vault (a screenshot, a photo from the desktop).
    const files = Array.from(event.dataTransfer.files ?? []);
    if (files.length > 0) {
      event.preventDefault();
      void attachImageFiles(files, controller, (message) => host.notify(message));
      return;
    }
    const paths = onDropNotes?.(event.dataTransfer) ?? [];
    if (paths.length === 0) return;
    event.preventDefault();
    for (const path of paths) controller.addChip(chipForVaultPath(path));
  };
  return (
    <div
      ref={chat}
      className={`vault-copilot-chat${dragging ? " is-drop-target" : ""}`}
      onDragOver={(event) => {
        if (!onDropNotes && !event.dataTransfer.types.includes("Files")) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <ChatHeader controller={controller} historyShown={showHistory} onToggleHistory={() => setShowHistory((shown) => !shown)} onNewChat={() => setShowHistory(false)} />
      <ProjectNotice project={project} />
      {showHistory ? (
        <ChatHistoryPanel onOpened={() => setShowHistory(false)} currentChatId={chatId} project={project} />
      ) : (
        <ChatMessages controller={controller} onExample={(question) => composer.current?.fill(question)} />
      )}
      {!showHistory && <RelatedSection key={project ?? ""} path={activeNote?.path ?? null} project={project} controller={controller} />}
      <ChatComposer key={chatId} ref={composer} controller={controller} />
      <Announcer controller={controller} />
    </div>
  );
}

/** The polite live region: each finished answer and each approval asked, said once. */
function Announcer({ controller }: { controller: ChatController }) {
  const announcement = useChatState(controller, "announcement");
  return (
    <div className="vault-copilot-announcer" aria-live="polite" role="status">
      {announcement ? announcementText(announcement) : ""}
    </div>
  );
}

interface ChatHeaderProps {
  controller: ChatController;
  historyShown: boolean;
  onToggleHistory: () => void;
  onNewChat: () => void;
}

function ChatHeader({ controller, historyShown, onToggleHistory, onNewChat }: ChatHeaderProps) {
  const mode = useChatState(controller, "mode");
  const model = useChatState(controller, "model");
  const project = useChatState(controller, "project");
  const models = useModels(model);
  const projects = useProjects();
  const chooseProject = (name: string) => {
    const choice = projects.find((project) => project.name === name);
    void controller.setProject(choice ? choice.name : null, choice ? { ...(choice.mode ? { mode: choice.mode } : {}), ...(choice.model ? { model: choice.model } : {}) } : {});
  };
  return (
    <div className="vault-copilot-chat-header">
      {(projects.length > 0 || project !== null) && (
        <select className="dropdown vault-copilot-project-select" aria-label={t("header.project")} value={project ?? ""} onChange={(event) => chooseProject(event.target.value)}>
          <option value="">{t("header.noProject")}</option>
          {project !== null && !projects.some((choice) => choice.name === project) && <option value={project}>{project}</option>}
          {projects.map((choice) => (
            <option key={choice.name} value={choice.name}>
              {choice.name}
            </option>
          ))}
        </select>
      )}
      <select className="dropdown" aria-label={t("header.mode")} value={mode} onChange={(event) => controller.setMode(event.target.value as ChatMode)}>
        {CHAT_MODES.map((choice) => (
          <option key={choice} value={choice}>
            {t(`mode.${choice}`)}
          </option>
        ))}
      </select>
      <select className="dropdown vault-copilot-model-select" aria-label={t("header.model")} value={model} onChange={(event) => controller.setModel(event.target.value)}>
        {models.map((model) => (
          <option key={model} value={model}>
            {model}
          </option>
        ))}
      </select>
      <IconButton
        icon="message-square-plus"
        label={t("header.newChat")}
        className="vault-copilot-new-chat"
        onClick={() => {
          onNewChat();
          void controller.newChat();
        }}
      />
      <IconButton icon="history" label={t("header.history")} className="vault-copilot-history-toggle" pressed={historyShown} onClick={onToggleHistory} />
    </div>
  );
}

/** The projects the host offers, read again when the projects folder changes. */
function useProjects(): readonly ProjectChoice[] {
  const host = useChatHost();
  const [projects, setProjects] = useState<readonly ProjectChoice[]>([]);
  useEffect(() => {
    let live = true;
    const read = () =>
      host.projects.list().then(
        (list) => live && setProjects(list),
        () => undefined,
      );
    void read();
    const unsubscribe = host.projects.subscribe(() => void read());
    return () => {
      live = false;
      unsubscribe();
    };
  }, [host]);
  return projects;
}

/**
 * Under the header inside a project: that the chat sees only the project's notes, and what
 * becomes of the MCP servers (they cannot be scoped, so only those the project lists keep their tools).
 */
function ProjectNotice({ project }: { project: string | null }) {
  const host = useChatHost();
  const projects = useProjects();
  if (project === null) return null;
  const listed = projects.find((choice) => choice.name === project)?.mcp ?? [];
  const servers = host.projects.mcpServers();
  const kept = servers.filter((server) => listed.includes(server));
  const mcp =
    servers.length === 0 ? "" : kept.length === 0 ? t("project.mcpOff") : t("project.mcpKept", { count: kept.length, servers: kept.join(", ") });
  return (
    <p className="vault-copilot-project-notice" role="note">
      {t("project.notice", { project })}
      {mcp}
    </p>
  );
}

/**
 * The chat's model first, then the ones the host offers (the configured one, what the server
 * lists). The list is asked for once the view's first frame is drawn: until it comes the menu
 * holds the chat's own model, and a server's answer never stands between "Open chat" and the
 * Message box.
 */
function useModels(current: string): string[] {
  const host = useChatHost();
  const [listed, setListed] = useState<string[]>([]);
  useEffect(() => {
    const unmounted = new AbortController();
    afterNextPaint(
      () =>
        void host.listModels().then(
          (models) => !unmounted.signal.aborted && setListed(models),
          () => undefined,
        ),
      unmounted.signal,
    );
    return () => unmounted.abort();
  }, [host]);
  return [current, ...listed.filter((model) => model !== current)];
}

/** "Related notes" under the conversation, folded until opened: the notes related to the open note, each one click from the context. */
function RelatedSection({ path, project, controller }: { path: string | null; project: string | null; controller: ChatController }) {
  const host = useChatHost();
  const [open, setOpen] = useState(false);
  return (
    <details className="vault-copilot-related-section" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{t("related.heading")}</summary>
      {open && (
        <RelatedNotesList source={host.relatedIn(project)} path={path} onOpen={(target, event) => host.openLink(target, "", event.nativeEvent)} onAddToChat={(target) => controller.addChip(noteChip(target))} />
      )}
    </details>
  );
}
