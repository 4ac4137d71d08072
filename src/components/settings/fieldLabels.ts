import type { z } from "zod";
import { ENGLISH } from "../../i18n/languages";
import { currentLanguage, t } from "../../i18n/t";
import type { ModelPrices, ProviderSettings, StdioMcpServerSettings, HttpMcpServerSettings } from "../../settings/settingsSchema";
import { zodIssueText } from "./zodIssueText";

type ServerField = keyof StdioMcpServerSettings | keyof HttpMcpServerSettings;

/** A model's fields by the names its form and the settings tab give them. */
const MODEL_FIELDS: Record<keyof ProviderSettings, () => string> = {
  preset: () => t("settings.provider.name"),
  baseUrl: () => t("settings.baseUrl.name"),
  model: () => t("header.model"),
  apiKeySecretId: () => t("settings.apiKey.name"),
  temperature: () => t("settings.temperature.name"),
  maxTokens: () => t("settings.maxTokens.name"),
  contextWindowTokens: () => t("settings.contextWindow.name"),
  prices: () => t("settings.prices.name"),
};

const PRICE_FIELDS: Record<keyof ModelPrices, () => string> = {
  input: () => t("prices.input"),
  output: () => t("prices.output"),
  cacheRead: () => t("prices.cacheRead"),
  cacheWrite: () => t("prices.cacheWrite"),
};

/** An MCP server's fields by the names its form gives them. */
const SERVER_FIELDS: Record<ServerField, () => string> = {
  name: () => t("mcpForm.name"),
  enabled: () => t("mcpForm.on"),
  transport: () => t("mcpForm.transport"),
  command: () => t("mcpForm.command"),
  args: () => t("mcpForm.arguments"),
  env: () => t("mcpForm.environment"),
  url: () => t("mcpForm.url"),
  headers: () => t("mcpForm.headers"),
};

/** The label of the field at `path` inside one model (`["temperature"]`, `["prices", "input"]`), or undefined. */
export function modelFieldLabel(path: readonly PropertyKey[]): string | undefined {
  const [field, part] = path;
  if (field === "prices" && typeof part === "string" && part in PRICE_FIELDS) return t("prices.label", { label: PRICE_FIELDS[part as keyof ModelPrices]() });
  return typeof field === "string" && field in MODEL_FIELDS ? MODEL_FIELDS[field as keyof ProviderSettings]() : undefined;
}

/** The label of the field at `path` inside one MCP server (`["command"]`, `["env", "TOKEN"]`), or undefined. */
export function serverFieldLabel(path: readonly PropertyKey[]): string | undefined {
  const [field] = path;
  return typeof field === "string" && field in SERVER_FIELDS ? SERVER_FIELDS[field as ServerField]() : undefined;
}

/**
 * The label of the setting at `path` in the whole settings (`["provider", "temperature"]`,
 * `["models", 1, "model"]`, `["mcpServers", 0, "name"]`), or undefined where the tab has none.
 */
export function settingLabel(path: readonly PropertyKey[]): string | undefined {
  const [group, ...rest] = path;
  if (group === "provider") return modelFieldLabel(rest);
  if (group === "models" && typeof rest[0] === "number") return modelFieldLabel(rest.slice(1));
  if (group === "mcpServers" && typeof rest[0] === "number") return serverFieldLabel(rest.slice(1));
  return undefined;
}

/**
 * "field: what is wrong" for a form's or a save's refusal. English writes `englishField` (the
 * setting's id) and zod's message, as the forms always did; another language names the field by
 * `label` (its id where it has none) and says what is wrong in that language.
 */
export function fieldIssueText(issue: z.core.$ZodIssue, englishField: string, label: string | undefined): string {
  if (currentLanguage() === ENGLISH) return `${englishField}: ${issue.message}.`;
  return t("settings.fieldIssue", { field: label ?? englishField, reason: zodIssueText(issue) });
}
