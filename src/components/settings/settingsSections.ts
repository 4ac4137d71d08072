import { isValidTimeZone, resolveTimeZone } from "../../time/zonedTime";
import { createElement } from "react";
import { createRoot } from "react-dom/client";
import type { ToolRegistry } from "../../tools/ToolRegistry";
import type { ChatModelPorts } from "../../LLMProviders/chatModelFactory";
import { mcpSection, type McpStatusSource } from "./mcpSettingsSection";
import { imageInputRow, localServersRow, otherModelsRow, pricesRow, testConnectionRow } from "./modelSettingsRows";
import { semanticSearchSection, type IndexHealthSource } from "./semanticSearchSection";
import { completionSection, type CompletionUsageSource } from "./completionSection";
import { PROVIDER_PRESET_DETAILS, presetChoices } from "./providerPresets";
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
import { t } from "../../i18n/t";

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

const modeChoices = (): Record<ChatMode, string> => Object.fromEntries(CHAT_MODES.map((mode) => [mode, t(`mode.${mode}.description`)])) as Record<ChatMode, string>;

const webSearchChoices = () => ({ none: t("settings.webService.off"), searxng: "SearXNG", brave: "Brave Search", tavily: "Tavily" }) as const;

const identity = (text: string) => text.trim();

function providerSection(context: SectionsContext): SettingsSection {
  const provider = providerSettingsSchema.shape;
  return {
    heading: t("settings.provider"),
    rows: [
      dropdownRow(context, {
        name: t("settings.provider.name"),
        desc: t("settings.provider.desc"),
        choices: presetChoices(),
        read: (s) => s.provider.preset,
        write: (s, preset) => ({
          ...s,
          provider: { ...s.provider, preset, baseUrl: PROVIDER_PRESET_DETAILS[preset].baseUrl ?? s.provider.baseUrl },
        }),
      }),
      fieldRow(context, {
        name: t("settings.baseUrl.name"),
        desc: t("settings.baseUrl.desc"),
        read: (s) => s.provider.baseUrl,
        write: (s, baseUrl) => ({ ...s, provider: { ...s.provider, baseUrl } }),
        schema: provider.baseUrl,
        parse: identity,
        format: String,
        inputType: "url",
      }),
      fieldRow(context, {
        name: t("settings.model.name"),
        desc: t("settings.model.desc"),
        read: (s) => s.provider.model,
        write: (s, model) => ({ ...s, provider: { ...s.provider, model } }),
        schema: provider.model,
        parse: identity,
        format: String,
      }),
      fieldRow(context, {
        name: t("settings.temperature.name"),
        desc: t("settings.temperature.desc"),
        read: (s) => s.provider.temperature,
        write: (s, temperature) => ({ ...s, provider: { ...s.provider, temperature } }),
        schema: provider.temperature,
        parse: parseDecimal,
        format: String,
        inputType: "number",
      }),
      fieldRow(context, {
        name: t("settings.maxTokens.name"),
        desc: t("settings.maxTokens.desc"),
        read: (s) => s.provider.maxTokens,
        write: (s, maxTokens) => ({ ...s, provider: { ...s.provider, maxTokens } }),
        schema: provider.maxTokens,
        parse: parseWholeNumber,
        format: String,
        inputType: "number",
      }),
      fieldRow(context, {
        name: t("settings.contextWindow.name"),
        desc: t("settings.contextWindow.desc"),
        read: (s) => s.provider.contextWindowTokens ?? DEFAULT_CONTEXT_WINDOW_TOKENS,
        write: (s, contextWindowTokens) => ({ ...s, provider: { ...s.provider, contextWindowTokens } }),
        schema: provider.contextWindowTokens,
        parse: parseWholeNumber,
        format: String,
        inputType: "number",
      }),
      secretRow(context, {
        name: t("settings.apiKey.name"),
        desc: t("settings.apiKey.desc"),
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
    heading: t("settings.agent"),
    rows: [
      dropdownRow(context, {
        name: t("settings.defaultMode.name"),
        desc: t("settings.defaultMode.desc"),
        choices: modeChoices(),
        read: (s) => s.defaultMode,
        write: (s, defaultMode) => ({ ...s, defaultMode }),
      }),
      fieldRow(context, {
        name: t("settings.instructions.name"),
        desc: t("settings.instructions.desc"),
        read: (s) => s.systemPrompt,
        write: (s, systemPrompt) => ({ ...s, systemPrompt }),
        schema: shape.systemPrompt,
        parse: (text) => text,
        format: String,
        multiline: true,
      }),
      fieldRow(context, {
        name: t("settings.steps.name"),
        desc: t("settings.steps.desc"),
        read: (s) => s.autonomousAgentMaxIterations,
        write: (s, autonomousAgentMaxIterations) => ({ ...s, autonomousAgentMaxIterations }),
        schema: shape.autonomousAgentMaxIterations,
        parse: parseWholeNumber,
        format: String,
        inputType: "number",
      }),
      fieldRow(context, {
        name: t("settings.toolTimeout.name"),
        desc: t("settings.toolTimeout.desc"),
        read: (s) => s.toolTimeoutSeconds,
        write: (s, toolTimeoutSeconds) => ({ ...s, toolTimeoutSeconds }),
        schema: shape.toolTimeoutSeconds,
        parse: parseWholeNumber,
        format: String,
        inputType: "number",
      }),
      toggleRow(context, {
        name: t("settings.hiddenFolders.name"),
        desc: t("settings.hiddenFolders.desc"),
        read: (s) => s.allowWritesToHiddenFolders,
        write: (s, allowWritesToHiddenFolders) => ({ ...s, allowWritesToHiddenFolders }),
      }),
      fieldRow(context, {
        name: t("settings.timeZone.name"),
        desc: t("settings.timeZone.desc"),
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
    heading: t("settings.search"),
    rows: [
      fieldRow(context, {
        name: t("settings.excludedFolders.name"),
        desc: t("settings.excludedFolders.desc"),
        read: (s) => s.search.excludedFolders,
        write: (s, excludedFolders) => ({ ...s, search: { ...s.search, excludedFolders } }),
        schema: search.excludedFolders,
        parse: parseLines,
        format: (lines) => lines.join("\n"),
        multiline: true,
      }),
      fieldRow(context, {
        name: t("settings.excludedPatterns.name"),
        desc: t("settings.excludedPatterns.desc"),
        read: (s) => s.search.excludedPatterns,
        write: (s, excludedPatterns) => ({ ...s, search: { ...s.search, excludedPatterns } }),
        schema: search.excludedPatterns,
        parse: parseLines,
        format: (lines) => lines.join("\n"),
        multiline: true,
      }),
      fieldRow(context, {
        name: t("settings.maxResults.name"),
        desc: t("settings.maxResults.desc"),
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
    heading: t("settings.history"),
    rows: [
      toggleRow(context, {
        name: t("settings.autosave.name"),
        desc: t("settings.autosave.desc"),
        read: (s) => s.history.autosave,
        write: (s, autosave) => ({ ...s, history: { ...s.history, autosave } }),
      }),
      fieldRow(context, {
        name: t("settings.historyFolder.name"),
        desc: t("settings.historyFolder.desc"),
        read: (s) => s.history.folder,
        write: (s, folder) => ({ ...s, history: { ...s.history, folder } }),
        schema: history.folder,
        parse: (text) => text.trim().replace(/^\/+|\/+$/g, ""),
        format: String,
        placeholder: "copilot/chats",
      }),
      fieldRow(context, {
        name: t("settings.promptsFolder.name"),
        desc: t("settings.promptsFolder.desc"),
        read: (s) => s.prompts.folder,
        write: (s, folder) => ({ ...s, prompts: { ...s.prompts, folder } }),
        schema: prompts.folder,
        parse: (text) => text.trim().replace(/^\/+|\/+$/g, ""),
        format: String,
        placeholder: "copilot/prompts",
      }),
      fieldRow(context, {
        name: t("settings.projectsFolder.name"),
        desc: t("settings.projectsFolder.desc"),
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

const textSizeChoices = (): Record<ChatTextSize, string> => ({ small: t("settings.textSize.small"), normal: t("settings.textSize.normal"), large: t("settings.textSize.large") });

function chatViewSection(context: RowContext): SettingsSection {
  return {
    heading: t("settings.chatView"),
    rows: [
      dropdownRow(context, {
        name: t("settings.textSize.name"),
        desc: t("settings.textSize.desc"),
        choices: textSizeChoices(),
        read: (s) => s.chatTextSize,
        write: (s, chatTextSize) => ({ ...s, chatTextSize }),
      }),
    ],
  };
}

function webSearchSection(context: RowContext): SettingsSection {
  const web = webSearchSettingsSchema.shape;
  return {
    heading: t("settings.web"),
    rows: [
      dropdownRow(context, {
        name: t("settings.webService.name"),
        desc: t("settings.webService.desc"),
        choices: webSearchChoices(),
        read: (s) => s.webSearch.provider,
        write: (s, provider) => ({ ...s, webSearch: { ...s.webSearch, provider } }),
      }),
      shownWhen(
        context,
        fieldRow(context, {
          name: t("settings.searxng.name"),
          desc: t("settings.searxng.desc"),
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
          name: t("settings.braveKey.name"),
          desc: t("settings.secretKept"),
          read: (s) => s.webSearch.braveApiKeySecretId,
          write: (s, braveApiKeySecretId) => ({ ...s, webSearch: { ...s.webSearch, braveApiKeySecretId } }),
        }),
        (s) => s.webSearch.provider === "brave",
      ),
      shownWhen(
        context,
        secretRow(context, {
          name: t("settings.tavilyKey.name"),
          desc: t("settings.secretKept"),
          read: (s) => s.webSearch.tavilyApiKeySecretId,
          write: (s, tavilyApiKeySecretId) => ({ ...s, webSearch: { ...s.webSearch, tavilyApiKeySecretId } }),
        }),
        (s) => s.webSearch.provider === "tavily",
      ),
      fieldRow(context, {
        name: t("settings.webResults.name"),
        desc: t("settings.webResults.desc"),
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
    heading: t("settings.webPages"),
    rows: [
      toggleRow(context, {
        name: t("settings.readPages.name"),
        desc: t("settings.readPages.desc"),
        read: (s) => s.webPages.enabled,
        write: (s, enabled) => ({ ...s, webPages: { ...s.webPages, enabled } }),
      }),
      fieldRow(context, {
        name: t("settings.pageLength.name"),
        desc: t("settings.pageLength.desc"),
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
    name: t("settings.tools.name"),
    desc: t("settings.tools.desc"),
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
    { heading: t("settings.tools"), rows: [toolsRow(context)] },
    mcpSection(context, context.mcp),
  ];
}

/** "" (this device's) or a time zone this device knows; refuses anything else with a message. */
export function parseTimeZone(text: string): string {
  const zone = text.trim();
  if (zone === "") return "";
  if (!isValidTimeZone(zone)) throw new Error(t("settings.timeZone.invalid", { zone }));
  return resolveTimeZone(zone);
}
