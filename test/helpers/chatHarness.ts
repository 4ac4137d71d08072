import { createServices, type Services } from "../../src/app/createServices";
import { ChatController, type ChatControllerDependencies, type ChatRunner } from "../../src/chat/ChatController";
import type { ChatState } from "../../src/chat/chatTypes";
import type { PromptPayloadRecorder } from "../../src/context/promptPayloadRecorder";
import type { FetchLike } from "../../src/ports/FetchLike";
import { nodeHtmlReader } from "../../src/cli/nodeHtmlReader";
import type { HtmlReader } from "../../src/tools/web/webPage";
import type { NoteIndex } from "../../src/search/NoteIndex";
import type { ChatMode, CopilotSettings } from "../../src/settings/settingsSchema";
import { MapSecretStore } from "../../src/ports/SecretStore";
import { refuseAll, refuseAllToolCalls, type RunApprovals } from "../../src/ports/approval";
import type { EditHistory } from "../../src/tools/edit/EditHistory";
import { ToolRegistry } from "../../src/tools/ToolRegistry";
import { FsVault } from "../../src/vault/FsVault";
import { FsDataStore, pluginDataFolder } from "../../src/vault/fsDataStore";
import type { OpenAIServer } from "./openAIServer";
import { FAST_RETRIES, settingsFor, TEST_API_KEY } from "./runnerHarness";
import { makeTempVault, type TempVault } from "./tempVault";
import { nodePdfText } from "../../src/documents/node/nodePdfText";
import { clockAt, TEST_NOW } from "./toolHarness";

export interface ChatSetup {
  controller: ChatController;
  vault: TempVault;
  fsVault: FsVault;
  settings: CopilotSettings;
  recorder: PromptPayloadRecorder;
  /** What the tools were built with: asked only by a tool run no chat started (it refuses, saying so). */
  fallbackApprovals: RunApprovals;
  editHistory: EditHistory;
  registry: ToolRegistry;
  index: NoteIndex;
  /** The service graph the chat runs on (as the plugin builds it). */
  services: Services;
  /** Resolves once the controller's state satisfies `condition` (checked on every change). */
  until: (condition: (state: ChatState) => boolean) => Promise<ChatState>;
  /** The runner of a mode, as the chats get it (for a run no chat starts, as a command's). */
  createRunner: (mode: ChatMode, model: string) => ChatRunner;
  /** Another chat over the same tools, runners and folder (a second chat view); disposed with the setup. */
  anotherChat: () => { controller: ChatController; until: (condition: (state: ChatState) => boolean) => Promise<ChatState> };
  dispose: () => Promise<void>;
}

/**
 * A chat over real parts, built as the plugin builds them (src/app/createServices): the three
 * runners against the test server, the built-in tools and the note index over a temporary folder,
 * approvals asked in the chat whose run asks.
 */
export function makeChat(
  server: Pick<OpenAIServer, "baseUrl">,
  options: {
    notes?: Record<string, string>;
    settings?: Partial<CopilotSettings>;
    controller?: Partial<ChatControllerDependencies>;
    /** The model client's fetch (Node's own by default). */
    fetch?: FetchLike;
    /** Model names the server lists, for the picker. */
    knownModels?: string[];
    /** How the server's models are listed (instead of answering `knownModels`), to see when the picker asks. */
    listServerModels?: () => Promise<string[]>;
    /** What the server's list says of those models' image input. */
    listedImageInput?: Record<string, boolean>;
    /** How long a model request may stay silent. */
    modelIdleTimeoutMs?: number;
    /** Secrets the plugin holds besides the test key (SecretStorage id -> value). */
    secrets?: Record<string, string>;
    /** How web pages are read (linkedom and turndown, as in the CLI, by default). */
    html?: HtmlReader;
    /** Files besides the notes: images and the like, as bytes. */
    files?: Record<string, Uint8Array>;
  } = {},
): ChatSetup {
  const vault = makeTempVault({ ...options.notes, ...options.files });
  const fsVault = new FsVault(vault.root);
  const settings = settingsFor(server, options.settings);
  const secrets = new MapSecretStore();
  secrets.set("test-key", TEST_API_KEY);
  for (const [id, value] of Object.entries(options.secrets ?? {})) secrets.set(id, value);
  const fallbackApprovals: RunApprovals = {
    requestApproval: (proposal, signal) => refuseAll("no chat is running").requestApproval(proposal, signal),
    requestToolCallApproval: (proposal, signal) => refuseAllToolCalls("no chat is running").requestToolCallApproval(proposal, signal),
  };
  const services = createServices({
    vault: fsVault,
    dataStore: new FsDataStore(pluginDataFolder(fsVault.root, fsVault.configDir)),
    secrets,
    settings: {
      get: () => settings,
      subscribe: () => () => undefined,
      update: (change) => {
        Object.assign(settings, change(settings));
        return Promise.resolve();
      },
    },
    fetch: options.fetch ?? globalThis.fetch,
    approvals: fallbackApprovals,
    registry: new ToolRegistry(),
    createMcpTransport: () => Promise.reject(new Error("no MCP servers in this test")),
    clock: clockAt(TEST_NOW, "UTC"),
    retryPolicy: FAST_RETRIES,
    ...(options.modelIdleTimeoutMs !== undefined ? { idleTimeoutMs: options.modelIdleTimeoutMs } : {}),
    listServerModels: async () => ({ models: await (options.listServerModels?.() ?? Promise.resolve(options.knownModels ?? [])), imageInput: options.listedImageInput ?? {} }),
    html: options.html ?? nodeHtmlReader(),
    // PDFs as the CLI reads them (the worker starts with the first PDF read).
    pdfText: nodePdfText(),
  });
  const makeController = () =>
    new ChatController({
      createRunner: (mode, model, project) => services.createRunner(mode, model, project),
      readContext: (chips, signal) => services.readContext(chips, signal),
      defaults: () => ({ mode: settings.defaultMode, model: settings.provider.model }),
      asksApprovals: true,
      ...options.controller,
    });
  const untilOf = (chat: ChatController) => (condition: (state: ChatState) => boolean) =>
    new Promise<ChatState>((resolve) => {
      if (condition(chat.getState())) return resolve(chat.getState());
      const unsubscribe = chat.subscribe(() => {
        if (!condition(chat.getState())) return;
        unsubscribe();
        resolve(chat.getState());
      });
    });
  const controller = makeController();
  const until = untilOf(controller);
  const others: ChatController[] = [];
  const anotherChat = () => {
    const other = makeController();
    others.push(other);
    return { controller: other, until: untilOf(other) };
  };
  return {
    controller,
    vault,
    fsVault,
    settings,
    services,
    recorder: services.recorder,
    fallbackApprovals,
    editHistory: services.editHistory,
    registry: services.registry,
    index: services.noteIndex,
    until,
    createRunner: (mode, model) => services.createRunner(mode, model),
    anotherChat,
    dispose: async () => {
      await controller.dispose();
      for (const other of others) await other.dispose();
      await services.dispose();
      vault.remove();
    },
  };
}
