import type { WorkspaceLeaf as ObsidianLeaf } from "obsidian";
import { App, type View, type WorkspaceLeaf } from "../obsidian/obsidian";
import { CHAT_VIEW_TYPE } from "../../src/constants";
import { CopilotView } from "../../src/components/CopilotView";
import { obsidianHtmlReader } from "../../src/components/obsidianHtmlReader";
import http from "node:http";
import https from "node:https";
import { createNodeHttpFetch } from "../../src/net/nodeHttpFetch";
import type { CopilotSettings } from "../../src/settings/settingsSchema";
import { makeChat, type ChatSetup } from "./chatHarness";
import type { OpenAIServer } from "./openAIServer";

export interface ChatViewSetup extends Omit<ChatSetup, "controller"> {
  app: App;
  leaf: WorkspaceLeaf;
  view: CopilotView;
  /** Closes the view (as Obsidian does when its leaf closes) and removes the folder. */
  close: () => Promise<void>;
}

/**
 * The real CopilotView in the Obsidian double's workspace (its element in document.body), over
 * real parts: the three runners against the test server (through Node's http client, as on
 * Obsidian desktop), the built-in tools and the note index
 * over a temporary folder, approvals asked in the chat whose run asks. The double's MarkdownRenderer draws.
 */
/** What the plugin streams with on Obsidian desktop: Node's http client (see obsidianFetch.ts). */
const desktopFetch = createNodeHttpFetch({ http: http, https: https });

export async function openChatView(
  server: Pick<OpenAIServer, "baseUrl">,
  options: {
    notes?: Record<string, string>;
    settings?: Partial<CopilotSettings>;
    knownModels?: string[];
    listServerModels?: () => Promise<string[]>;
    modelIdleTimeoutMs?: number;
    /** Secrets the plugin holds besides the test key (SecretStorage id -> value), as the settings name them. */
    secrets?: Record<string, string>;
    /** Files besides the notes (images), as bytes. */
    files?: Record<string, Uint8Array>;
  } = {},
): Promise<ChatViewSetup> {
  // The services as the plugin builds them, streaming as on Obsidian desktop; web pages read as the plugin reads them.
  const setup = makeChat(server, { ...options, fetch: desktopFetch, html: obsidianHtmlReader() });
  // The chat setup's own controller is not used: the view makes its own, as in the plugin.
  const { controller: _unused, ...parts } = setup;
  const app = new App();
  for (const [path, text] of Object.entries(options.notes ?? {})) app.vault.seedFile(path, text, { ctime: Date.now(), mtime: Date.now() });
  for (const path of Object.keys(options.files ?? {})) app.vault.seedFile(path, "", { ctime: Date.now(), mtime: Date.now() });
  // The double's leaf and view stand for Obsidian's (typed against obsidian.d.ts, not identical to it).
  app.workspace.registerViewType(CHAT_VIEW_TYPE, (leaf) => new CopilotView(leaf as unknown as ObsidianLeaf, parts.services) as unknown as View);
  const leaf = app.workspace.getRightLeaf(false);
  await leaf.setViewState({ type: CHAT_VIEW_TYPE, active: true });
  const view = leaf.view as unknown as CopilotView;
  return {
    ...parts,
    app,
    leaf,
    view,
    close: async () => {
      await leaf.close();
      await parts.dispose();
    },
  };
}
