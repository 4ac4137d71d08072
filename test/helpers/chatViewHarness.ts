import type { WorkspaceLeaf as ObsidianLeaf } from "obsidian";
import { App, type View, type WorkspaceLeaf } from "../obsidian/obsidian";
import { createChatRunner } from "../../src/chat/createChatRunner";
import { CHAT_VIEW_TYPE } from "../../src/constants";
import { CopilotView } from "../../src/components/CopilotView";
import { ChatHistory } from "../../src/history/ChatHistory";
import { PromptLibrary } from "../../src/prompts/PromptLibrary";
import { searchOutsideChats } from "../../src/history/searchOutsideChats";
import http from "node:http";
import https from "node:https";
import { createChatModel } from "../../src/LLMProviders/chatModelFactory";
import { configuredModelNames, modelSettingsFor } from "../../src/LLMProviders/modelChoice";
import { createNodeHttpFetch } from "../../src/net/nodeHttpFetch";
import type { CopilotSettings } from "../../src/settings/settingsSchema";
import { MapSecretStore } from "../../src/ports/SecretStore";
import { storedSecretValues } from "../../src/settings/secrets";
import { makeChat, type ChatSetup } from "./chatHarness";
import type { OpenAIServer } from "./openAIServer";
import { FAST_RETRIES, TEST_API_KEY } from "./runnerHarness";

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
    modelIdleTimeoutMs?: number;
    /** Secrets the plugin holds besides the test key (SecretStorage id -> value), as the settings name them. */
    secrets?: Record<string, string>;
  } = {},
): Promise<ChatViewSetup> {
  const setup = makeChat(server, options);
  // The chat setup's own controller is not used: the view makes its own, as in the plugin.
  const { controller: _unused, ...parts } = setup;
  const secrets = new MapSecretStore();
  secrets.set("test-key", TEST_API_KEY);
  for (const [id, value] of Object.entries(options.secrets ?? {})) secrets.set(id, value);
  const app = new App();
  for (const [path, text] of Object.entries(options.notes ?? {})) app.vault.seedFile(path, text, { ctime: Date.now(), mtime: Date.now() });
  const registry = parts.registry;
  const services = {
    settings: { get: () => parts.settings, subscribe: () => () => undefined },
    createRunner: (mode: CopilotSettings["defaultMode"], model: string) =>
      createChatRunner(
        {
          getSettings: () => parts.settings,
          createModel: (name: string) => createChatModel(modelSettingsFor(parts.settings, name), { fetch: desktopFetch, secrets }),
          registry,
          getSearcher: () => searchOutsideChats(parts.index, () => parts.settings.history.folder, parts.fsVault.configDir),
          recorder: parts.recorder,
          retryPolicy: FAST_RETRIES,
          ...(options.modelIdleTimeoutMs !== undefined ? { modelIdleTimeoutMs: options.modelIdleTimeoutMs } : {}),
        },
        mode,
        model,
      ),
    vault: parts.fsVault,
    editHistory: parts.editHistory,
    registry,
    // As the plugin offers them: the configured models, then what the default's server lists.
    listModels: () => Promise.resolve([...configuredModelNames(parts.settings), ...(options.knownModels ?? [])]),
    // As main.ts gives them: every secret the settings name.
    secretValues: () => storedSecretValues(parts.settings, secrets),
    related: { similar: (path: string, signal: AbortSignal) => parts.index.similar(path, { limit: 10, signal, outsideFolder: parts.settings.history.folder }) },
    prompts: new PromptLibrary(parts.fsVault, () => parts.settings.prompts.folder),
    history: new ChatHistory({ vault: parts.fsVault, folder: () => parts.settings.history.folder, searcher: () => parts.index, secrets: () => storedSecretValues(parts.settings, secrets) }),
  };
  // The double's leaf and view stand for Obsidian's (typed against obsidian.d.ts, not identical to it).
  app.workspace.registerViewType(CHAT_VIEW_TYPE, (leaf) => new CopilotView(leaf as unknown as ObsidianLeaf, services) as unknown as View);
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
