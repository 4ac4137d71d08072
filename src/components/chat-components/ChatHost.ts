import { createContext, useContext } from "react";
import type { Component } from "obsidian";
import type { ContextSuggestion } from "../../chat/contextSuggestions";
import type { ChatFilter, ChatListing } from "../../history/ChatHistory";
import type { CustomPrompt } from "../../prompts/customPrompt";
import type { ChatMode, ModelPrices } from "../../settings/settingsSchema";
import type { RelatedNotesSource } from "../RelatedNotesList";
import type { ToolMetadata } from "../../tools/SimpleTool";
import type { AppliedEditRef, EditUndoReport } from "../editCommands";

export type { ContextSuggestion };

/**
 * What the chat's components need from Obsidian, in one place: CopilotView implements it with the
 * app (MarkdownRenderer, the workspace, the editor), tests with the Obsidian double. The components
 * reach the model only through the ChatController; they reach Obsidian only through this.
 */
export interface ChatHost {
  /** Renders Markdown into `el` (Obsidian's MarkdownRenderer); `component` owns what it registers. */
  renderMarkdown(markdown: string, el: HTMLElement, sourcePath: string, component: Component): Promise<void>;
  /** Opens a note by link text; a modifier-click opens it in a new tab. */
  openLink(linktext: string, sourcePath: string, event: MouseEvent | KeyboardEvent): void;
  /** Shows the page preview of a link (Obsidian's hover preview). */
  hoverLink(event: MouseEvent, targetEl: HTMLElement, linktext: string, sourcePath: string): void;
  /** Puts text at the cursor of the active editor; false when no note is open for editing. */
  insertAtCursor(text: string): boolean;
  copyText(text: string): Promise<void>;
  /** A short message to the user (Obsidian's Notice). */
  notify(message: string): void;
  /** Opens the plugin's settings (an error about a key, a model or a server offers it). */
  openSettings(): void;
  toolMetadata(toolId: string | undefined): ToolMetadata | undefined;
  /** Takes back an edit the agent applied if it is the newest one; says what happened. */
  undoEdit(edit: AppliedEditRef): Promise<EditUndoReport>;
  /** Notes, folders and tags matching what follows "@", best first: inside a project, only the project's. */
  suggestContext(query: string, project: string | null): Promise<ContextSuggestion[]>;
  /** The model names to offer: the configured ones first (the default first), then what the default's server lists. */
  listModels(): Promise<string[]>;
  /** The notes related to a note (the "Related notes" section): inside a project, only the project's. */
  relatedIn(project: string | null): RelatedNotesSource;
  /** The user's projects, for the chat's project picker. */
  projects: ProjectsHost;
  /** The prices the user entered for a model (all null where none), for the cost of an answer. */
  modelPrices(model: string): ModelPrices;
  /** The saved chats (see history/ChatHistory). */
  history: ChatHistoryHost;
  /** The user's own prompts, for the "/" menu. */
  prompts: {
    list(): Promise<readonly CustomPrompt[]>;
    /** Runs a prompt in this chat with the open note and its selection (an edit prompt then proposes its rewrite). */
    run(prompt: CustomPrompt): Promise<void>;
  };
}

/** A project as the picker offers it. */
export interface ProjectChoice {
  name: string;
  mode?: ChatMode;
  model?: string;
  /** The MCP servers whose tools stay on in the project. */
  mcp: readonly string[];
}

/** What the chat's project picker and chips know of the projects. */
export interface ProjectsHost {
  /** The projects, by name (a broken project note is reported, not offered). */
  list(): Promise<readonly ProjectChoice[]>;
  /** Told when the projects folder changed. */
  subscribe(listener: () => void): () => void;
  /** The MCP servers switched on in the settings (inside a project only those it lists keep their tools). */
  mcpServers(): string[];
  /** Of these paths, the ones outside the project (a chip attached by hand says so). */
  outside(project: string, paths: readonly string[]): Promise<string[]>;
}

/** What the "Chat history" panel does with the saved chats. */
export interface ChatHistoryHost {
  /** The chats newest first, those the filter keeps; with a query, those whose name or text matches it. */
  list(query: string, filter?: ChatFilter): Promise<ChatListing>;
  /** Shows a saved chat in this view, to go on with; writes nothing. */
  open(path: string): Promise<void>;
  rename(path: string, title: string): Promise<string>;
  /** Moves the chat's note to the trash. */
  remove(path: string): Promise<void>;
}

export const ChatHostContext = createContext<ChatHost | null>(null);

export function useChatHost(): ChatHost {
  const host = useContext(ChatHostContext);
  if (!host) throw new Error("The chat's components need a ChatHostContext provider (CopilotView gives one).");
  return host;
}
