import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ChatRunner } from "../chat/ChatController";
import { createChatRunner, type ChatRunnerParts } from "../chat/createChatRunner";
import { errorMessage } from "../errorMessage";
import { PromptPayloadRecorder } from "../context/promptPayloadRecorder";
import { ChatHistory } from "../history/ChatHistory";
import { createChatModel } from "../LLMProviders/chatModelFactory";
import { listServerModels, type ServerModels } from "../LLMProviders/listModels";
import { configuredModelNames, knownToTakeImages, knownToTakeTools, modelSettingsFor, toolSupportKey, withListedImageSupport, withToolSupport } from "../LLMProviders/modelChoice";
import type { RetryPolicy } from "../net/retryPolicy";
import type { McpServerConfig } from "../mcp/mcpConfig";
import { McpHub } from "../mcp/McpHub";
import type { RunApprovals } from "../ports/approval";
import type { Clock } from "../ports/Clock";
import { plainHttp } from "../net/plainHttp";
import type { SecretStore } from "../ports/SecretStore";
import type { PromptNoteError } from "../prompts/customPrompt";
import { PromptLibrary } from "../prompts/PromptLibrary";
import { storedSecretValues } from "../settings/secrets";
import type { ChatMode } from "../settings/settingsSchema";
import { BUILTIN_TOOLS, createBuiltinToolDefinitions, initializeBuiltinTools } from "../tools/builtinTools";
import type { ToolDependencies } from "../tools/toolDependencies";
import type { ProjectPrompt } from "../context/systemPrompt";
import { projectToolSource } from "../projects/projectTools";
import { EditHistory } from "../tools/edit/EditHistory";
import type { PomodoroTimer } from "../tools/pomodoro/PomodoroTimer";
import type { ToolRegistry, ToolSource } from "../tools/ToolRegistry";
import type { VaultPort } from "../vault/VaultPort";
import { createSearchServices, type ProjectSearch, type SearchPorts, type SearchServices, type SettingsSource } from "./createSearchServices";
import { readChipArtifacts, type ReadChips } from "../chat/chipArtifacts";
import type { ContextChip } from "../chat/chatTypes";
import type { ImageScaler } from "../ports/imageScaler";
import type { PlainHttp } from "../net/plainHttp";
import type { CopilotSettings } from "../settings/settingsSchema";
import { readWebPage, WebPageError, type HtmlReader, type WebPage } from "../tools/web/webPage";

export type { SettingsSource };

/**
 * What the services are built from: the platform's side of everything. The plugin hands in
 * Obsidian's vault, SecretStorage, the CORS-free fetch and the approval dialogs; the CLI a folder,
 * the flags' settings and keys, Node's fetch and the approvals its flags chose; the tests the same
 * over a temporary folder and a scripted server.
 */
export interface ServicePorts extends SearchPorts {
  /** Asked by a tool run that no chat started (a chat's run asks in the chat). */
  approvals: RunApprovals;
  /** The app's registry (the plugin's singleton; a fresh one in the CLI and tests). */
  registry: ToolRegistry;
  /** Makes the transport of an MCP server. */
  createMcpTransport: (config: McpServerConfig) => Promise<Transport>;
  /** The pomodoro timer, made with the services' clock (Obsidian's shows itself in the status bar). */
  pomodoroTimer?: (clock: Clock) => PomodoroTimer;
  /** Problems of prompt notes (a broken one is reported, the others load). */
  onPromptProblems?: (problems: PromptNoteError[]) => void;
  retryPolicy?: RetryPolicy;
  /** Secret values the settings do not name (the CLI's: an MCP config file's env and headers), kept out like theirs. */
  moreSecretValues?: () => readonly string[];
  /** Model names the server lists, for the picker, with what the list says of image input (the server's own list by default). */
  listServerModels?: () => Promise<ServerModels>;
  /** How web pages become documents and Markdown here (absent: URL chips and readWebPage say pages cannot be read). */
  html?: HtmlReader;
  /** Scales large images down (the plugin's canvas); absent, an image over the limits is left out, saying why. */
  imageScaler?: ImageScaler;
}

/** How a message's chips are read (see Services.readContext). */
export interface ReadContextOptions {
  /** Leave every image out, for this reason (the CLI's --no-images): each is named in a problem. */
  leaveImagesOut?: string;
  /** The chat's project's vault: folders and tags list only its notes, and images, PDFs and canvases outside it are refused (absent: the whole vault). */
  listing?: VaultPort;
}

/** A project opened for a chat: what it searches, the tools it binds, its part of L1. */
export interface ProjectWorkspace extends ProjectSearch {
  tools: ToolSource;
  prompt: ProjectPrompt;
}

/** Everything the chat, the commands and the settings reach, built once. */
export interface Services extends SearchServices {
  settings: SettingsSource;
  vault: VaultPort;
  secrets: SecretStore;
  registry: ToolRegistry;
  editHistory: EditHistory;
  mcpHub: McpHub;
  /** The last request, layer by layer, keys redacted ("Show last request"). */
  recorder: PromptPayloadRecorder;
  history: ChatHistory;
  prompts: PromptLibrary;
  /** The runner of a chat mode, answering with `model`, inside `project` when one is named (null: the whole vault). */
  createRunner(mode: ChatMode, model: string, project?: string | null): ChatRunner;
  /** A project opened for a chat: its scope, its vault and search, the tools that see only it, its part of L1. Throws ProjectNotFoundError. */
  openProject(name: string): Promise<ProjectWorkspace>;
  /** Reads a message's chips into its artifacts: notes, web pages, images (what cannot be read is a problem, not a throw). */
  readContext(chips: readonly ContextChip[], signal?: AbortSignal, options?: ReadContextOptions): Promise<ReadChips>;
  /** The model names to offer: the configured ones (the default first), then what the default's server lists. */
  listModels(): Promise<string[]>;
  /** The values of every secret the settings name (kept out of saved chats, logs and the request view). */
  secretValues(): string[];
  /** Starts what runs in the background: the note index, embedding and MCP servers, each following the settings. */
  start(): void;
  /** Stops all of it and lets go of the registry's built-in tools; what is stored stays stored. */
  dispose(): Promise<void>;
}

/**
 * The service graph, one place for the plugin, the CLI and the tests: the note index (with
 * embeddings when switched on), the registry's built-in tools, the runners, the chats kept as
 * notes, the user's prompts, the MCP servers. Nothing slow runs here; `start` begins the
 * background work.
 */
export function createServices(ports: ServicePorts): Services {
  const { vault, dataStore, secrets, settings, registry } = ports;
  const search = createSearchServices(ports);
  const { clock, noteIndex, noteSearch } = search;
  const secretValues = () => [...storedSecretValues(settings.get(), secrets), ...(ports.moreSecretValues?.() ?? [])];
  const editHistory = new EditHistory(vault, dataStore);
  // The tools' plain requests (web search, transcripts, web pages) go through the same fetch as the model's.
  const http = plainHttp(ports.fetch);
  const toolDependencies: ToolDependencies = {
    vault,
    clock,
    http,
    ...(ports.html ? { html: ports.html } : {}),
    secrets,
    approval: ports.approvals,
    getSettings: () => settings.get(),
    editHistory,
    ...(ports.pomodoroTimer ? { pomodoroTimer: ports.pomodoroTimer(clock) } : {}),
    search: noteSearch,
    documents: search.documents,
  };
  initializeBuiltinTools(registry, toolDependencies);
  const mcpHub = new McpHub({
    registry,
    createTransport: ports.createMcpTransport,
    approval: ports.approvals,
    isAutoApproved: (toolId) => settings.get().autoApproveToolIds.includes(toolId),
  });
  const recorder = new PromptPayloadRecorder(secretValues);
  // What the default server's list said of image input, for models the settings say nothing of.
  const listedImageInput = new Map<string, boolean>();
  const takesImages = (model: string) => {
    const current = settings.get();
    return knownToTakeImages(current, model) ?? listedImageInput.get(toolSupportKey(modelSettingsFor(current, model))) ?? false;
  };
  const runnerParts: ChatRunnerParts = {
    takesImages,
    getSettings: () => settings.get(),
    createModel: (model) => createChatModel(modelSettingsFor(settings.get(), model), { fetch: ports.fetch, secrets }),
    registry,
    getSearcher: () => noteSearch,
    recorder,
    ...(ports.retryPolicy ? { retryPolicy: ports.retryPolicy } : {}),
    ...(ports.idleTimeoutMs !== undefined ? { modelIdleTimeoutMs: ports.idleTimeoutMs } : {}),
    // A model seen calling a tool is known to take them: new chats with it may start in Agent.
    onToolCallSeen: (model) => {
      if (knownToTakeTools(settings.get(), model) !== true) void settings.update((current) => withToolSupport(current, model, true));
    },
  };
  const history = new ChatHistory({ vault, folder: () => settings.get().history.folder, searcher: () => noteIndex, secrets: secretValues });
  const prompts = new PromptLibrary(vault, () => settings.get().prompts.folder, ports.onPromptProblems);
  const listServer = ports.listServerModels ?? (() => listServerModels(settings.get().provider, { fetch: ports.fetch, secrets }));
  const serverModels = async () => {
    const provider = settings.get().provider;
    const listed = await listServer();
    for (const [model, takes] of Object.entries(listed.imageInput)) listedImageInput.set(toolSupportKey({ ...provider, model }), takes);
    // The configured models get the list's word as their "Takes images" setting, where the user set none.
    const configured = new Set(configuredModelNames(settings.get()));
    const forConfigured = Object.fromEntries(Object.entries(listed.imageInput).filter(([model]) => configured.has(model)));
    if (Object.keys(forConfigured).length > 0) void settings.update((current) => withListedImageSupport(current, provider, forConfigured));
    return listed.models;
  };
  const following: Array<() => void> = [];
  // One set of tools per opened project: the built-in tools made again over the project's vault and search.
  const projectWorkspaces = new WeakMap<ProjectSearch, ProjectWorkspace>();
  async function openProject(name: string): Promise<ProjectWorkspace> {
    const opened = await search.openProjectSearch(name);
    const known = projectWorkspaces.get(opened);
    if (known) return known;
    const scopedBuiltins = createBuiltinToolDefinitions({ ...toolDependencies, vault: opened.vault, search: opened.search });
    const { project } = opened;
    const workspace: ProjectWorkspace = {
      ...opened,
      tools: projectToolSource(registry, scopedBuiltins, project.mcp),
      prompt: { name: project.name, instructions: project.instructions, urls: project.urls },
    };
    projectWorkspaces.set(opened, workspace);
    return workspace;
  }
  /** A chat in a project: the project is opened when the turn runs, so a note changed since is read again. */
  const projectRunner = (name: string, mode: ChatMode, model: string): ChatRunner => ({
    async run(input) {
      const workspace = await openProject(name);
      const parts: ChatRunnerParts = { ...runnerParts, registry: workspace.tools, getSearcher: () => workspace.search, project: workspace.prompt };
      return createChatRunner(parts, mode, model).run(input);
    },
  });

  return {
    ...search,
    settings,
    vault,
    secrets,
    registry,
    editHistory,
    mcpHub,
    recorder,
    history,
    prompts,
    createRunner: (mode, model, project) => (project ? projectRunner(project, mode, model) : createChatRunner(runnerParts, mode, model)),
    openProject,
    readContext: (chips, signal, options = {}) =>
      readChipArtifacts(vault, chips, signal, {
        ...(options.listing ? { listing: options.listing } : {}),
        documents: search.documents,
        ...(ports.html ? { webPage: attachedPageReader(http, ports.html, () => settings.get().webPages) } : {}),
        images: { ...(ports.imageScaler ? { scaler: ports.imageScaler } : {}), ...(options.leaveImagesOut ? { leaveOut: options.leaveImagesOut } : {}) },
      }),
    listModels: async () => [...configuredModelNames(settings.get()), ...(await serverModels())],
    secretValues,
    start() {
      noteIndex.start().catch((error: unknown) => ports.onProblem?.(`the search index did not start: ${errorMessage(error)}`));
      const onChange = (listener: () => void) => settings.subscribe(listener);
      following.push(
        search.semantic.embedder.follow(onChange),
        mcpHub.follow(() => settings.get().mcpServers, onChange),
      );
    },
    async dispose() {
      for (const stop of following.splice(0)) stop();
      prompts.dispose();
      // Each part is closed whatever the others do; the first failure (an index that could not be saved) is the caller's to report.
      const closed = await Promise.allSettled([search.dispose(), mcpHub.closeAll()]);
      registry.unregister(BUILTIN_TOOLS.map((entry) => entry.metadata.id));
      const failure = closed.find((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
      if (failure) throw failure.reason;
    },
  };
}

/**
 * A page the user attached (a URL chip): their own choice, so the private-address rule for
 * model-chosen URLs does not apply; the settings' switch and length limit do.
 */
function attachedPageReader(http: PlainHttp, html: HtmlReader, settings: () => CopilotSettings["webPages"]): (url: string, signal?: AbortSignal) => Promise<WebPage> {
  return (url, signal) => {
    const { enabled, maxCharacters } = settings();
    if (!enabled) return Promise.reject(new WebPageError(`${url} was not attached: reading web pages is switched off (Settings → Vault Copilot → Web pages).`));
    return readWebPage(url, { http, html, signal: signal ?? new AbortController().signal, maxCharacters });
  };
}
