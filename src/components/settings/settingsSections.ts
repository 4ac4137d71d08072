import { isValidTimeZone, resolveTimeZone } from "../../time/zonedTime";
import { createElement } from "react";
import { createRoot } from "react-dom/client";
import { ALLOW_HIDDEN_FOLDERS_SETTING_NAME } from "../../tools/edit/editTarget";
import type { ToolRegistry } from "../../tools/ToolRegistry";
import type { ChatModelPorts } from "../../LLMProviders/chatModelFactory";
import { mcpSection, type McpStatusSource } from "./mcpSettingsSection";
import { imageInputRow, localServersRow, otherModelsRow, pricesRow, testConnectionRow } from "./modelSettingsRows";
import { semanticSearchSection, type IndexHealthSource } from "./semanticSearchSection";
import { completionSection, type CompletionUsageSource } from "./completionSection";
import { PROVIDER_PRESET_DETAILS, type ProviderPresetId } from "./providerPresets";
import { DEFAULT_CONTEXT_WINDOW_TOKENS } from "../../chat/fitHistory";
import {
  dropdownRow,
  fieldRow,
  parseDecimal,
  parseLines,
  parseWholeNumber,
  save,
  secretRow,
  shownWhen,
  toggleRow,
  type RowContext,
  type SettingsRow,
  type SettingsSection,
} from "./settingRows";
import { CHAT_MODE_NAMES } from "../../settings/chatModes";
import {
  CHAT_MODES,
  type ChatTextSize,
  copilotSettingsSchema,
  providerSettingsSchema,
  historySettingsSchema,
  promptSettingsSchema,
  projectSettingsSchema,
  searchSettingsSchema,
  webSearchSettingsSchema,
  webPageSettingsSchema,
  type ChatMode,
} from "../../settings/settingsSchema";
import { ToolSettingsSection } from "./v2/components/ToolSettingsSection";

export interface SectionsContext extends RowContext {
  registry: ToolRegistry;
  /** How the model rows reach servers (Test connection, local servers); absent, those rows are left out. */
  connection?: ChatModelPorts;
  /** The index's figures for "Index health"; absent, that row is left out. */
  indexHealth?: IndexHealthSource;
  /** The live MCP connections, for the status row (absent in contexts without a hub). */
  mcp?: McpStatusSource;
  /** What inline completion used; absent, that row is left out. */
  completionUsage?: CompletionUsageSource;
}

const presetChoices = Object.fromEntries(
  Object.entries(PROVIDER_PRESET_DETAILS).map(([id, preset]) => [id, preset.label]),
) as Record<ProviderPresetId, string>;

const modeChoices = Object.fromEntries(CHAT_MODES.map((mode) => [mode, CHAT_MODE_NAMES[mode].description])) as Record<ChatMode, string>;

const webSearchChoices = { none: "Off", searxng: "SearXNG", brave: "Brave Search", tavily: "Tavily" } as const;

const identity = (text: string) => text.trim();

function providerSection(context: SectionsContext): SettingsSection {
  const provider = providerSettingsSchema.shape;
  return {
    heading: "Model provider",
    rows: [
      dropdownRow(context, {
        name: "Provider",
        desc: "Choosing a provider fills in its address.",
        choices: presetChoices,
        read: (s) => s.provider.preset,
        write: (s, preset) => ({
          ...s,
          provider: { ...s.provider, preset, baseUrl: PROVIDER_PRESET_DETAILS[preset].baseUrl ?? s.provider.baseUrl },
        }),
      }),
      fieldRow(context, {
        name: "Base URL",
        desc: "The provider's API root: for an OpenAI-compatible server it ends before /chat/completions (usually in /v1).",
        read: (s) => s.provider.baseUrl,
        write: (s, baseUrl) => ({ ...s, provider: { ...s.provider, baseUrl } }),
        schema: provider.baseUrl,
        parse: identity,
        format: String,
        inputType: "url",
      }),
      fieldRow(context, {
        name: "Model",
        desc: "The model name the provider knows it by.",
        read: (s) => s.provider.model,
        write: (s, model) => ({ ...s, provider: { ...s.provider, model } }),
        schema: provider.model,
        parse: identity,
        format: String,
      }),
      fieldRow(context, {
        name: "Temperature",
        desc: "0 gives the most predictable answers, 2 the most varied (0 to 2).",
        read: (s) => s.provider.temperature,
        write: (s, temperature) => ({ ...s, provider: { ...s.provider, temperature } }),
        schema: provider.temperature,
        parse: parseDecimal,
        format: String,
        inputType: "number",
      }),
      fieldRow(context, {
        name: "Longest answer",
        desc: "The most tokens the model may write in one answer.",
        read: (s) => s.provider.maxTokens,
        write: (s, maxTokens) => ({ ...s, provider: { ...s.provider, maxTokens } }),
        schema: provider.maxTokens,
        parse: parseWholeNumber,
        format: String,
        inputType: "number",
      }),
      fieldRow(context, {
        name: "Context window",
        desc: "The most tokens the model reads in one request. A longer chat sends its latest exchanges that fit, and says how many it left out.",
        read: (s) => s.provider.contextWindowTokens ?? DEFAULT_CONTEXT_WINDOW_TOKENS,
        write: (s, contextWindowTokens) => ({ ...s, provider: { ...s.provider, contextWindowTokens } }),
        schema: provider.contextWindowTokens,
        parse: parseWholeNumber,
        format: String,
        inputType: "number",
      }),
      secretRow(context, {
        name: "API key",
        desc: "Kept in Obsidian's secret storage, not in the plugin's settings file. Local servers usually need none.",
        read: (s) => s.provider.apiKeySecretId,
        write: (s, apiKeySecretId) => ({ ...s, provider: { ...s.provider, apiKeySecretId } }),
      }),
      imageInputRow(context),
      pricesRow(context),
      ...(context.connection ? [testConnectionRow(context, context.connection), localServersRow(context, context.connection)] : []),
      otherModelsRow(context),
    ],
  };
}

function agentSection(context: RowContext): SettingsSection {
  const shape = copilotSettingsSchema.shape;
  return {
    heading: "Agent",
    rows: [
      dropdownRow(context, {
        name: "Mode for new chats",
        desc: "Chat answers from the model alone; the agent may search, read and edit notes with the tools below. A new chat starts in Agent only with a model known to take tools (Test connection says so, or the model called a tool in an agent chat); until then it starts in Chat.",
        choices: modeChoices,
        read: (s) => s.defaultMode,
        write: (s, defaultMode) => ({ ...s, defaultMode }),
      }),
      fieldRow(context, {
        name: "Your instructions",
        desc: "Added to the model's instructions in every mode, e.g. the language to answer in or how to format notes.",
        read: (s) => s.systemPrompt,
        write: (s, systemPrompt) => ({ ...s, systemPrompt }),
        schema: shape.systemPrompt,
        parse: (text) => text,
        format: String,
        multiline: true,
      }),
      fieldRow(context, {
        name: "Steps per answer",
        desc: "The most tool-using steps the agent takes before it must answer (1 to 50).",
        read: (s) => s.autonomousAgentMaxIterations,
        write: (s, autonomousAgentMaxIterations) => ({ ...s, autonomousAgentMaxIterations }),
        schema: shape.autonomousAgentMaxIterations,
        parse: parseWholeNumber,
        format: String,
        inputType: "number",
      }),
      fieldRow(context, {
        name: "Tool time limit",
        desc: "Seconds a single tool call may take before it is stopped (1 to 600).",
        read: (s) => s.toolTimeoutSeconds,
        write: (s, toolTimeoutSeconds) => ({ ...s, toolTimeoutSeconds }),
        schema: shape.toolTimeoutSeconds,
        parse: parseWholeNumber,
        format: String,
        inputType: "number",
      }),
      toggleRow(context, {
        name: ALLOW_HIDDEN_FOLDERS_SETTING_NAME,
        desc: 'Lets the agent edit files in folders whose name starts with "." (such as .github, .vscode or another profile\'s settings), which Obsidian does not show. Edits there are approved like any other edit. Obsidian\'s own settings folder stays off limits.',
        read: (s) => s.allowWritesToHiddenFolders,
        write: (s, allowWritesToHiddenFolders) => ({ ...s, allowWritesToHiddenFolders }),
      }),
      fieldRow(context, {
        name: "Time zone",
        desc: "For the time tools, e.g. Europe/Berlin. Leave empty to use this device's.",
        read: (s) => s.timeZone,
        write: (s, timeZone) => ({ ...s, timeZone }),
        schema: shape.timeZone,
        parse: parseTimeZone,
        format: String,
        placeholder: "Europe/Berlin",
      }),
    ],
  };
}

function searchSection(context: RowContext): SettingsSection {
  const search = searchSettingsSchema.shape;
  return {
    heading: "Note search",
    rows: [
      fieldRow(context, {
        name: "Excluded folders",
        desc: "Notes in these folders are never searched. One folder per line.",
        read: (s) => s.search.excludedFolders,
        write: (s, excludedFolders) => ({ ...s, search: { ...s.search, excludedFolders } }),
        schema: search.excludedFolders,
        parse: parseLines,
        format: (lines) => lines.join("\n"),
        multiline: true,
      }),
      fieldRow(context, {
        name: "Excluded patterns",
        desc: "Notes whose path matches one of these patterns are never searched, e.g. *.excalidraw.md. One per line.",
        read: (s) => s.search.excludedPatterns,
        write: (s, excludedPatterns) => ({ ...s, search: { ...s.search, excludedPatterns } }),
        schema: search.excludedPatterns,
        parse: parseLines,
        format: (lines) => lines.join("\n"),
        multiline: true,
      }),
      fieldRow(context, {
        name: "Results per search",
        desc: "The most notes one search hands to the model (1 to 100).",
        read: (s) => s.search.maxResults,
        write: (s, maxResults) => ({ ...s, search: { ...s.search, maxResults } }),
        schema: search.maxResults,
        parse: parseWholeNumber,
        format: String,
        inputType: "number",
      }),
    ],
  };
}

function historySection(context: RowContext): SettingsSection {
  const history = historySettingsSchema.shape;
  const prompts = promptSettingsSchema.shape;
  return {
    heading: "Chat history and prompts",
    rows: [
      toggleRow(context, {
        name: "Save chats automatically",
        desc: "Each chat is kept as a note, saved after every question and while an answer arrives. Off: nothing is written, and a chat is gone once a new one starts.",
        read: (s) => s.history.autosave,
        write: (s, autosave) => ({ ...s, history: { ...s.history, autosave } }),
      }),
      fieldRow(context, {
        name: "Chat history folder",
        desc: "Where chat notes are kept. A chat note moved elsewhere is still found.",
        read: (s) => s.history.folder,
        write: (s, folder) => ({ ...s, history: { ...s.history, folder } }),
        schema: history.folder,
        parse: (text) => text.trim().replace(/^\/+|\/+$/g, ""),
        format: String,
        placeholder: "copilot/chats",
      }),
      fieldRow(context, {
        name: "Prompts folder",
        desc: 'Your own prompts, one note each: its name is the command, its text the prompt ({{selection}}, {{activeNote}}, {{[[Note]]}}, {{#tag}}, {{folder/}}, {{date}}). Type "/" in the message box to run one. The command "Create starter prompts" adds a few to start from.',
        read: (s) => s.prompts.folder,
        write: (s, folder) => ({ ...s, prompts: { ...s.prompts, folder } }),
        schema: prompts.folder,
        parse: (text) => text.trim().replace(/^\/+|\/+$/g, ""),
        format: String,
        placeholder: "copilot/prompts",
      }),
      fieldRow(context, {
        name: "Projects folder",
        desc: "Your projects, one note each: its name is the project, its properties what the project holds (folders, tags, notes, urls) and which model, mode and MCP servers it uses, its text the project's instructions. Inside a project the model sees and changes only the project's notes.",
        read: (s) => s.projects.folder,
        write: (s, folder) => ({ ...s, projects: { ...s.projects, folder } }),
        schema: projectSettingsSchema.shape.folder,
        parse: (text) => text.trim().replace(/^\/+|\/+$/g, ""),
        format: String,
        placeholder: "copilot/projects",
      }),
    ],
  };
}

const textSizeChoices: Record<ChatTextSize, string> = { small: "Small", normal: "Normal", large: "Large (as your notes)" };

function chatViewSection(context: RowContext): SettingsSection {
  return {
    heading: "Chat view",
    rows: [
      dropdownRow(context, {
        name: "Text size",
        desc: "How large answers and questions are in the chat. Normal is the size of Obsidian's interface, which suits a narrow sidebar; Large is the size of your notes.",
        choices: textSizeChoices,
        read: (s) => s.chatTextSize,
        write: (s, chatTextSize) => ({ ...s, chatTextSize }),
      }),
    ],
  };
}

function webSearchSection(context: RowContext): SettingsSection {
  const web = webSearchSettingsSchema.shape;
  return {
    heading: "Web search",
    rows: [
      dropdownRow(context, {
        name: "Search service",
        desc: "What the web search tool asks. Off leaves the tool without results.",
        choices: webSearchChoices,
        read: (s) => s.webSearch.provider,
        write: (s, provider) => ({ ...s, webSearch: { ...s.webSearch, provider } }),
      }),
      shownWhen(
        context,
        fieldRow(context, {
          name: "SearXNG URL",
          desc: "The address of your SearXNG instance (its JSON output must be switched on).",
          read: (s) => s.webSearch.searxngUrl,
          write: (s, searxngUrl) => ({ ...s, webSearch: { ...s.webSearch, searxngUrl } }),
          schema: web.searxngUrl,
          parse: identity,
          format: String,
          inputType: "url",
        }),
        (s) => s.webSearch.provider === "searxng",
      ),
      shownWhen(
        context,
        secretRow(context, {
          name: "Brave Search API key",
          desc: "Kept in Obsidian's secret storage.",
          read: (s) => s.webSearch.braveApiKeySecretId,
          write: (s, braveApiKeySecretId) => ({ ...s, webSearch: { ...s.webSearch, braveApiKeySecretId } }),
        }),
        (s) => s.webSearch.provider === "brave",
      ),
      shownWhen(
        context,
        secretRow(context, {
          name: "Tavily API key",
          desc: "Kept in Obsidian's secret storage.",
          read: (s) => s.webSearch.tavilyApiKeySecretId,
          write: (s, tavilyApiKeySecretId) => ({ ...s, webSearch: { ...s.webSearch, tavilyApiKeySecretId } }),
        }),
        (s) => s.webSearch.provider === "tavily",
      ),
      fieldRow(context, {
        name: "Web results per search",
        desc: "The most web results one search hands to the model (1 to 20).",
        read: (s) => s.webSearch.maxResults,
        write: (s, maxResults) => ({ ...s, webSearch: { ...s.webSearch, maxResults } }),
        schema: web.maxResults,
        parse: parseWholeNumber,
        format: String,
        inputType: "number",
      }),
    ],
  };
}

function webPageSection(context: RowContext): SettingsSection {
  return {
    heading: "Web pages",
    rows: [
      toggleRow(context, {
        name: "Read web pages",
        desc: "A web address typed after @ (or pasted alone) attaches its page, and the agent may read pages you or your notes name; only the page's main text is kept. Off: no page is fetched.",
        read: (s) => s.webPages.enabled,
        write: (s, enabled) => ({ ...s, webPages: { ...s.webPages, enabled } }),
      }),
      fieldRow(context, {
        name: "Longest web page",
        desc: "The most characters of one page handed to the model (1000 to 500000); a longer page is cut, and the model is told.",
        read: (s) => s.webPages.maxCharacters,
        write: (s, maxCharacters) => ({ ...s, webPages: { ...s.webPages, maxCharacters } }),
        schema: webPageSettingsSchema.shape.maxCharacters,
        parse: parseWholeNumber,
        format: String,
        inputType: "number",
      }),
    ],
  };
}

/** The tool list, a React component generated from the registry. */
function toolsRow(context: SectionsContext): SettingsRow {
  return {
    name: "Tools the agent may use",
    desc: "Switched-off tools are never offered to the model. Tools from MCP servers appear here once their server is connected.",
    render(setting) {
      setting.settingEl.addClass("vault-copilot-tools-row");
      const root = createRoot(setting.settingEl.createDiv("vault-copilot-tools-host"));
      const draw = () => {
        const settings = context.store.get();
        root.render(
          createElement(ToolSettingsSection, {
            registry: context.registry,
            enabledToolIds: settings.autonomousAgentEnabledToolIds,
            autoApproveToolIds: settings.autoApproveToolIds,
            onChange: ({ enabledToolIds, autoApproveToolIds }) =>
              save(context.store, (s) => ({ ...s, autonomousAgentEnabledToolIds: enabledToolIds, autoApproveToolIds })),
          }),
        );
      };
      draw();
      const unsubscribe = context.store.subscribe(draw);
      return () => {
        unsubscribe();
        root.unmount();
      };
    },
  };
}

/** Every section of the settings tab, in order. */
export function buildSettingsSections(context: SectionsContext): SettingsSection[] {
  return [
    providerSection(context),
    agentSection(context),
    searchSection(context),
    semanticSearchSection(context, context.indexHealth, context.connection),
    completionSection(context, context.completionUsage),
    historySection(context),
    chatViewSection(context),
    webSearchSection(context),
    webPageSection(context),
    { heading: "Agent tools", rows: [toolsRow(context)] },
    mcpSection(context, context.mcp),
  ];
}

/** "" (this device's) or a time zone this device knows; refuses anything else with a message. */
export function parseTimeZone(text: string): string {
  const zone = text.trim();
  if (zone === "") return "";
  if (!isValidTimeZone(zone)) throw new Error(`"${zone}" is not a time zone this device knows (try e.g. Europe/Berlin).`);
  return resolveTimeZone(zone);
}
