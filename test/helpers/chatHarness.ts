import { ChatController, type ChatControllerDependencies, type ChatRunner } from "../../src/chat/ChatController";
import type { ChatState } from "../../src/chat/chatTypes";
import { readChipArtifacts } from "../../src/chat/chipArtifacts";
import { createChatRunner } from "../../src/chat/createChatRunner";
import { PromptPayloadRecorder } from "../../src/context/promptPayloadRecorder";
import { createChatModel } from "../../src/LLMProviders/chatModelFactory";
import { searchOutsideChats } from "../../src/history/searchOutsideChats";
import { NoteIndex } from "../../src/search/NoteIndex";
import type { ChatMode, CopilotSettings } from "../../src/settings/settingsSchema";
import { MapSecretStore } from "../../src/ports/SecretStore";
import { refuseAll, refuseAllToolCalls, type RunApprovals } from "../../src/ports/approval";
import { initializeBuiltinTools } from "../../src/tools/builtinTools";
import { EditHistory } from "../../src/tools/edit/EditHistory";
import { ToolRegistry } from "../../src/tools/ToolRegistry";
import { FsVault } from "../../src/vault/FsVault";
import { FsDataStore, pluginDataFolder } from "../../src/vault/fsDataStore";
import type { OpenAIServer } from "./openAIServer";
import { FAST_RETRIES, settingsFor, TEST_API_KEY } from "./runnerHarness";
import { makeTempVault, type TempVault } from "./tempVault";
import { makeToolDependencies } from "./toolHarness";

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
  /** Resolves once the controller's state satisfies `condition` (checked on every change). */
  until: (condition: (state: ChatState) => boolean) => Promise<ChatState>;
  /** The runner of a mode, as the chats get it (for a run no chat starts, as a command's). */
  createRunner: (mode: ChatMode, model: string) => ChatRunner;
  /** Another chat over the same tools, runners and folder (a second chat view); disposed with the setup. */
  anotherChat: () => { controller: ChatController; until: (condition: (state: ChatState) => boolean) => Promise<ChatState> };
  dispose: () => Promise<void>;
}

/**
 * A chat over real parts, as main.ts wires it: the three runners against the test server, the
 * built-in tools and the note index over a temporary folder, approvals asked in the chat whose run asks.
 */
export function makeChat(server: Pick<OpenAIServer, "baseUrl">, options: { notes?: Record<string, string>; settings?: Partial<CopilotSettings>; controller?: Partial<ChatControllerDependencies> } = {}): ChatSetup {
  const vault = makeTempVault(options.notes ?? {});
  const fsVault = new FsVault(vault.root);
  const settings = settingsFor(server, options.settings);
  const secrets = new MapSecretStore();
  secrets.set("test-key", TEST_API_KEY);
  const fallbackApprovals: RunApprovals = {
    requestApproval: (proposal, signal) => refuseAll("no chat is running").requestApproval(proposal, signal),
    requestToolCallApproval: (proposal, signal) => refuseAllToolCalls("no chat is running").requestToolCallApproval(proposal, signal),
  };
  const dataStore = new FsDataStore(pluginDataFolder(fsVault.root, fsVault.configDir));
  const editHistory = new EditHistory(fsVault, dataStore);
  const index = new NoteIndex({ vault: fsVault, store: dataStore, getSettings: () => settings.search, timeZone: () => "UTC" });
  const registry = new ToolRegistry();
  // As the plugin wires it: the agent's search and vault QA leave the saved chats out.
  const noteSearch = searchOutsideChats(index, () => settings.history.folder, fsVault.configDir);
  initializeBuiltinTools(registry, makeToolDependencies({ vault: fsVault, settings, approval: fallbackApprovals, editHistory, search: noteSearch }));
  const recorder = new PromptPayloadRecorder(() => [TEST_API_KEY]);
  const parts = {
    getSettings: () => settings,
    createModel: (model: string) => createChatModel({ ...settings.provider, model }, { fetch: globalThis.fetch, secrets }),
    registry,
    getSearcher: () => noteSearch,
    recorder,
    retryPolicy: FAST_RETRIES,
  };
  const makeController = () =>
    new ChatController({
      createRunner: (mode, model) => createChatRunner(parts, mode, model),
      readContext: (chips, signal) => readChipArtifacts(fsVault, chips, signal),
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
    recorder,
    fallbackApprovals,
    editHistory,
    registry,
    index,
    until,
    createRunner: (mode, model) => createChatRunner(parts, mode, model),
    anotherChat,
    dispose: async () => {
      await controller.dispose();
      for (const other of others) await other.dispose();
      await index.dispose();
      vault.remove();
    },
  };
}
