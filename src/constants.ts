import { NO_PRICES, SETTINGS_VERSION, type CopilotSettings } from "./settings/settingsSchema";
import { defaultEnabledToolIds } from "./tools/builtinTools";

export const PLUGIN_ID = "vault-copilot";
export const CHAT_VIEW_TYPE = "vault-copilot-chat-view";
export const RELATED_VIEW_TYPE = "vault-copilot-related-view";
/** How many related notes the view and the chat's section list. */
export const RELATED_NOTES_SHOWN = 10;

/**
 * The tools switched on for a new install, read from each built-in tool's `enabledByDefault`
 * flag (the always-enabled time tools need no entry).
 */
export const DEFAULT_ENABLED_TOOL_IDS: readonly string[] = defaultEnabledToolIds();

export const DEFAULT_SETTINGS: CopilotSettings = {
  settingsVersion: SETTINGS_VERSION,
  provider: {
    preset: "openai",
    baseUrl: "https://api.openai.com/v1",
    model: "gpt-4.1-mini",
    apiKeySecretId: "vault-copilot-openai",
    temperature: 0.2,
    maxTokens: 4096,
    prices: { ...NO_PRICES },
  },
  models: [],
  defaultMode: "agent",
  modelToolSupport: {},
  modelImageSupport: {},
  systemPrompt: "",
  autonomousAgentEnabledToolIds: [...DEFAULT_ENABLED_TOOL_IDS],
  autonomousAgentMaxIterations: 8,
  autoApproveToolIds: [],
  toolTimeoutSeconds: 60,
  allowWritesToHiddenFolders: false,
  timeZone: "",
  search: {
    excludedFolders: [],
    excludedPatterns: [],
    maxResults: 10,
  },
  embeddings: {
    enabled: false,
    baseUrl: "http://127.0.0.1:11434/v1",
    model: "nomic-embed-text",
    apiKeySecretId: "",
    includeFolders: [],
  },
  history: {
    folder: "copilot/chats",
    autosave: true,
  },
  prompts: {
    folder: "copilot/prompts",
  },
  projects: {
    folder: "copilot/projects",
  },
  webSearch: {
    provider: "none",
    searxngUrl: "http://127.0.0.1:8080",
    braveApiKeySecretId: "vault-copilot-brave",
    tavilyApiKeySecretId: "vault-copilot-tavily",
    braveBaseUrl: "https://api.search.brave.com",
    tavilyBaseUrl: "https://api.tavily.com",
    maxResults: 5,
  },
  webPages: {
    enabled: true,
    maxCharacters: 40_000,
  },
  mcpServers: [],
  completion: {
    enabled: false,
    model: {
      preset: "ollama",
      baseUrl: "http://127.0.0.1:11434/v1",
      model: "qwen2.5:1.5b",
      apiKeySecretId: "",
      temperature: 0.2,
      // A sentence or two: a suggestion is read at a glance, and a small answer comes back fast.
      maxTokens: 64,
      prices: { ...NO_PRICES },
    },
    fillInTheMiddle: false,
    // Off: passages of other notes go to the completion model only when the user asks for it.
    relatedNotes: false,
    pauseMs: 600,
    onMobile: false,
    dailyRequestCap: 500,
  },
  chatTextSize: "normal",
};
