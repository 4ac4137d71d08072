import { z } from "zod";
import { SECRET_ID_PATTERN, SERVER_NAME_PATTERN, type SettingsRule } from "./settingsRules";

/** The version of the shape below; `loadSettings` migrates a `data.json` of an older one. */
export const SETTINGS_VERSION = 2;

/**
 * The shape of `data.json`. Secrets are never part of it: fields ending in `SecretId` hold the
 * *name* of a secret in Obsidian's SecretStorage, never its value.
 */
export const PROVIDER_PRESETS = ["openai", "anthropic", "gemini", "ollama", "lmstudio", "openrouter", "custom"] as const;
export const CHAT_MODES = ["chat", "vault-qa", "agent"] as const;
export const WEB_SEARCH_PROVIDERS = ["none", "searxng", "brave", "tavily"] as const;
/** The chat's text size: the interface's small or medium size, or the notes' own (large). */
export const CHAT_TEXT_SIZES = ["small", "normal", "large"] as const;

/** SecretStorage ids: lowercase letters, digits and dashes (what `setSecret` accepts), or "" for none. */
export const secretIdSchema = z.string().regex(SECRET_ID_PATTERN, "lowercase letters, digits and dashes only");

/** A price in US dollars per million tokens, or null where the user entered none. */
const priceSchema = z.number().min(0).max(100_000).nullable();

/**
 * What a model costs, as the user entered it from their provider's price page (there is no
 * built-in table to go stale). Cache prices default to the input price where left empty.
 */
export const modelPricesSchema = z.object({ input: priceSchema, output: priceSchema, cacheRead: priceSchema, cacheWrite: priceSchema });

export const NO_PRICES = { input: null, output: null, cacheRead: null, cacheWrite: null } as const;

/** One configured model: the server it is reached at (the preset says its wire format), its name there, its settings. */
export const providerSettingsSchema = z.object({
  preset: z.enum(PROVIDER_PRESETS),
  baseUrl: z.url(),
  model: z.string().trim().min(1),
  apiKeySecretId: secretIdSchema,
  temperature: z.number().min(0).max(2),
  maxTokens: z.number().int().positive().max(1_000_000),
  /** The model's context window in tokens: a long chat's oldest exchanges are left out of a request to fit it (128k when absent). */
  contextWindowTokens: z.number().int().min(1000).max(100_000_000).optional(),
  prices: modelPricesSchema.default(NO_PRICES),
});

/** Models configured besides the default one; a chat picks any of them by name, so names are unique. */
export const otherModelsSchema = z.array(providerSettingsSchema).superRefine((models, context) => {
  const seen = new Set<string>();
  models.forEach((model, index) => {
    const rule: SettingsRule = { rule: "duplicate-model", name: model.model };
    if (seen.has(model.model)) context.addIssue({ code: "custom", path: [index, "model"], message: `Two models are named "${model.model}".`, params: rule });
    seen.add(model.model);
  });
});

export const searchSettingsSchema = z.object({
  excludedFolders: z.array(z.string()),
  excludedPatterns: z.array(z.string()),
  maxResults: z.number().int().min(1).max(100),
});

/**
 * Semantic search. Off unless the user switches it on: the text of their notes then goes, section
 * by section, to the embeddings server named here (on this computer with Ollama or LM Studio).
 */
export const embeddingSettingsSchema = z.object({
  enabled: z.boolean(),
  /** An OpenAI-compatible API root (`{baseUrl}/embeddings`). */
  baseUrl: z.url(),
  model: z.string().trim().min(1),
  apiKeySecretId: secretIdSchema,
  /** Only notes in these folders are embedded (all notes when empty); the search exclusions apply too. */
  includeFolders: z.array(z.string()),
});

export const historySettingsSchema = z.object({
  /** Where chats are kept as notes (vault-relative). */
  folder: z.string().trim().min(1),
  /** Each chat is saved as a note as it goes (after each question and answer). */
  autosave: z.boolean(),
});

export const promptSettingsSchema = z.object({
  /** Where the user's own prompts are kept as notes (vault-relative). */
  folder: z.string().trim().min(1),
});

export const projectSettingsSchema = z.object({
  /** Where projects are kept as notes (vault-relative): a note's name is its project's name. */
  folder: z.string().trim().min(1),
});

export const webSearchSettingsSchema = z.object({
  provider: z.enum(WEB_SEARCH_PROVIDERS),
  searxngUrl: z.url(),
  braveApiKeySecretId: secretIdSchema,
  tavilyApiKeySecretId: secretIdSchema,
  /** The Brave Search API's origin; changeable for a proxy (and for tests on 127.0.0.1). */
  braveBaseUrl: z.url(),
  /** The Tavily API's origin; changeable for a proxy (and for tests on 127.0.0.1). */
  tavilyBaseUrl: z.url(),
  /** Most results handed to the model per search. */
  maxResults: z.number().int().min(1).max(20),
});

/** Web pages read for the model: the ones the user attaches, and those the agent's readWebPage reads. */
export const webPageSettingsSchema = z.object({
  /** Off: no page is fetched, neither for a URL chip nor for the agent. */
  enabled: z.boolean(),
  /** Longest page text handed to the model, in characters; a longer page is cut and says so. */
  maxCharacters: z.number().int().min(1_000).max(500_000),
});

/** Letters, digits and "-" (see SERVER_NAME_PATTERN). */
const mcpServerNameSchema = z.string().regex(SERVER_NAME_PATTERN);

/** A server the desktop app starts as a process. `env`: variable name -> SecretStorage id. */
export const stdioMcpServerSettingsSchema = z.strictObject({
  name: mcpServerNameSchema,
  enabled: z.boolean(),
  transport: z.literal("stdio"),
  command: z.string().min(1),
  args: z.array(z.string()),
  env: z.record(z.string(), secretIdSchema),
});

/** A server reached over Streamable HTTP. `headers`: header name -> SecretStorage id holding its value. */
export const httpMcpServerSettingsSchema = z.strictObject({
  name: mcpServerNameSchema,
  enabled: z.boolean(),
  transport: z.literal("http"),
  url: z.url(),
  headers: z.record(z.string(), secretIdSchema),
});

export const mcpServerSettingsSchema = z.discriminatedUnion("transport", [stdioMcpServerSettingsSchema, httpMcpServerSettingsSchema]);

/** The configured servers; a name is the key of a server's tools, so no two may share one. */
export const mcpServerListSchema = z.array(mcpServerSettingsSchema).superRefine((servers, context) => {
  const seen = new Set<string>();
  servers.forEach((server, index) => {
    const rule: SettingsRule = { rule: "duplicate-server", name: server.name };
    if (seen.has(server.name)) context.addIssue({ code: "custom", path: [index, "name"], message: `Two servers are named "${server.name}".`, params: rule });
    seen.add(server.name);
  });
});

/**
 * Inline completion (ghost text) while writing. Off unless the user switches it on: the note's
 * title, up to 2,000 characters before the cursor and 500 after it then go to the completion
 * model named here (its own, ideally a small fast or local one) after each pause in typing.
 */
export const completionSettingsSchema = z.object({
  enabled: z.boolean(),
  model: providerSettingsSchema,
  /** Send the text after the cursor as `suffix` to `/completions` (OpenAI-compatible servers whose model fills in the middle). */
  fillInTheMiddle: z.boolean(),
  /** Send up to three passages of the user's other notes that match what is being written (not with fill in the middle). */
  relatedNotes: z.boolean(),
  /** Quiet after the last key before a suggestion is asked for. */
  pauseMs: z.number().int().min(100).max(10_000),
  /** Completion on phones and tablets (off by default: mobile data and battery). */
  onMobile: z.boolean(),
  /** Requests per day, after which completion pauses until the next day with a notice. */
  dailyRequestCap: z.number().int().min(1).max(100_000),
});

export const copilotSettingsSchema = z.object({
  settingsVersion: z.number().int(),
  /** The default model: new chats use it, and it answers for any model name not configured below. */
  provider: providerSettingsSchema,
  /** More models a chat may switch to (a different provider each, if wanted). */
  models: otherModelsSchema,
  /** A new chat's mode; Agent only for a model known to take tools (see `modelToolSupport`), else Chat. */
  defaultMode: z.enum(CHAT_MODES),
  /**
   * What is known of each model's tool calling, by `toolSupportKey` (provider, server and name, so
   * a changed model is unknown again): true once Test connection or an agent step saw it call a
   * tool, false when Test connection saw it refuse tools. Unknown models start new chats in Chat.
   */
  modelToolSupport: z.record(z.string(), z.boolean()),
  /**
   * What is known of each model's image input, by the same key: true or false as the user set it
   * ("Takes images") or as the provider's model list says. Images go only to a model known to take
   * them; for any other they are left out with a notice (a server that takes none refuses the request).
   */
  modelImageSupport: z.record(z.string(), z.boolean()),
  /** Added to the system prompt (L1) after the built-in instructions. */
  systemPrompt: z.string(),
  autonomousAgentEnabledToolIds: z.array(z.string()),
  autonomousAgentMaxIterations: z.number().int().min(1).max(50),
  /** Tools whose edits are applied without asking: empty unless the user opts in, tool by tool. */
  autoApproveToolIds: z.array(z.string()),
  toolTimeoutSeconds: z.number().int().min(1).max(600),
  /** Lets the edit tools write in folders (and files) whose name starts with "."; the config folder stays off limits. */
  allowWritesToHiddenFolders: z.boolean(),
  /** IANA time zone for the time tools; "" means the system's. */
  timeZone: z.string(),
  search: searchSettingsSchema,
  embeddings: embeddingSettingsSchema,
  history: historySettingsSchema,
  prompts: promptSettingsSchema,
  projects: projectSettingsSchema,
  webSearch: webSearchSettingsSchema,
  webPages: webPageSettingsSchema,
  mcpServers: mcpServerListSchema,
  completion: completionSettingsSchema,
  /** How large answers and questions are drawn in the chat view (the sidebar is narrow: "normal" is the interface's size). */
  chatTextSize: z.enum(CHAT_TEXT_SIZES),
});

export type CopilotSettings = z.infer<typeof copilotSettingsSchema>;
export type ProviderSettings = z.infer<typeof providerSettingsSchema>;
export type ModelPrices = z.infer<typeof modelPricesSchema>;
export type CompletionSettings = z.infer<typeof completionSettingsSchema>;
export type EmbeddingSettings = z.infer<typeof embeddingSettingsSchema>;
export type McpServerSettings = z.infer<typeof mcpServerSettingsSchema>;
export type StdioMcpServerSettings = z.infer<typeof stdioMcpServerSettingsSchema>;
export type HttpMcpServerSettings = z.infer<typeof httpMcpServerSettingsSchema>;
export type ChatMode = (typeof CHAT_MODES)[number];
export type ChatTextSize = (typeof CHAT_TEXT_SIZES)[number];
