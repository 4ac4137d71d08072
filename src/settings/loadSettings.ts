import { z } from "zod";
import { copilotSettingsSchema, SETTINGS_VERSION, type CopilotSettings } from "./settingsSchema";

/**
 * A problem with the settings file, by case: `setting` is the setting's path in data.json
 * ("provider.temperature"), as the English sentence names it too. `cause` (and `copyCause`) are
 * the platform's or the JSON parser's own words for what failed, kept as they are in every language.
 */
export type SettingsProblem =
  | { code: "file-not-object" }
  | { code: "unreadable" | "secret-not-moved" | "not-saved"; cause: string }
  | { code: "not-json-kept"; cause: string; backup: string }
  | { code: "not-json-no-copy"; cause: string; copyCause: string }
  | { code: "duplicate-server"; name: string }
  | { code: "part-not-object" | "invalid"; setting: string }
  | { code: "items-dropped"; setting: string; count: number };

/** One problem with the settings file: the English sentence, and its case for a view that says it in its own language. */
export interface SettingsFileProblem {
  text: string;
  reason: SettingsProblem;
}

/** The problems found so far, in the order they were found. */
class Problems {
  readonly found: SettingsFileProblem[] = [];
  add(text: string, reason: SettingsProblem): void {
    this.found.push({ text, reason });
  }
}

export interface LoadedSettings {
  settings: CopilotSettings;
  /** One per part that was unreadable and fell back to its default, for a notice: the sentence and its case. */
  problems: SettingsFileProblem[];
  /** Keys found in plain text in an older data.json, to move into SecretStorage. */
  secretsToStore: { id: string; value: string }[];
  /** True when what was loaded differs from what should be saved (a migration or a repair). */
  needsSave: boolean;
}

/**
 * Turns whatever `data.json` held into valid settings. Never throws: missing parts take their
 * defaults, unreadable parts take their defaults with a problem in `problems`, list items that do
 * not fit are dropped one by one, and older shapes are migrated. Keys the schema does not know
 * are dropped, so a plain-text API key can never be saved back.
 *
 * `defaults` are the plugin's `DEFAULT_SETTINGS` (constants.ts), handed in: they name the tools a
 * new install switches on, read from the tools themselves, and the settings sit below the tools.
 */
export function loadSettings(raw: unknown, defaults: CopilotSettings): LoadedSettings {
  const problems = new Problems();
  const secretsToStore: { id: string; value: string }[] = [];
  if (raw !== null && raw !== undefined && !isRecord(raw)) {
    problems.add("The settings file did not hold an object; all settings were reset to their defaults.", { code: "file-not-object" });
  }
  const record = isRecord(raw) ? { ...raw } : {};
  // A file without a version predates versioning: it has the first shape.
  const version = typeof record.settingsVersion === "number" ? record.settingsVersion : 1;
  if (Object.keys(record).length > 0 && version < SETTINGS_VERSION) migrateFromV1(record, secretsToStore, defaults.provider.apiKeySecretId);
  record.settingsVersion = SETTINGS_VERSION;
  if (Array.isArray(record.mcpServers)) record.mcpServers = migrateMcpServers(record.mcpServers, problems);

  const settings = repair(copilotSettingsSchema, record, defaults, "", problems) as CopilotSettings;
  const needsSave = JSON.stringify(settings) !== JSON.stringify(raw);
  return { settings, problems: problems.found, secretsToStore, needsSave };
}

/**
 * The pre-SecretStorage shape (before Obsidian 1.11.4): provider fields at the top level, the key
 * in plain text, and the tool list under `enabledToolIds`.
 */
function migrateFromV1(record: Record<string, unknown>, secretsToStore: { id: string; value: string }[], keySecretId: string): void {
  const provider: Record<string, unknown> = isRecord(record.provider) ? { ...record.provider } : {};
  for (const [oldKey, newKey] of [
    ["baseUrl", "baseUrl"],
    ["model", "model"],
    ["temperature", "temperature"],
    ["maxTokens", "maxTokens"],
  ] as const) {
    if (oldKey in record && !(newKey in provider)) provider[newKey] = record[oldKey];
    delete record[oldKey];
  }
  for (const keyField of ["apiKey", "openAIApiKey"]) {
    const value = record[keyField];
    if (typeof value === "string" && value.length > 0) {
      secretsToStore.push({ id: keySecretId, value });
      provider.apiKeySecretId = keySecretId;
    }
    delete record[keyField];
  }
  if (Object.keys(provider).length > 0) record.provider = provider;
  if (Array.isArray(record.enabledToolIds) && !("autonomousAgentEnabledToolIds" in record)) {
    record.autonomousAgentEnabledToolIds = record.enabledToolIds;
  }
  delete record.enabledToolIds;
}

/**
 * MCP servers were once one flat record for both transports (stdio servers carried `url: ""`, and
 * `env` doubled as the HTTP headers); now each transport has its own fields. Records of the old
 * shape are moved over field by field; records of the new shape pass unchanged. A repeated name
 * keeps its first server (the schema refuses two): the tools of both would share one id prefix.
 */
function migrateMcpServers(servers: unknown[], problems: Problems): unknown[] {
  const names = new Set<string>();
  const kept: unknown[] = [];
  for (const server of servers) {
    if (!isRecord(server)) {
      kept.push(server);
      continue;
    }
    const migrated = migrateMcpServer(server);
    if (typeof migrated.name === "string") {
      if (names.has(migrated.name)) {
        problems.add(`Two MCP servers were named "${migrated.name}"; the second was dropped.`, { code: "duplicate-server", name: migrated.name });
        continue;
      }
      names.add(migrated.name);
    }
    kept.push(migrated);
  }
  return kept;
}

function migrateMcpServer(server: Record<string, unknown>): Record<string, unknown> {
  const transport = server.transport ?? (typeof server.command === "string" && server.command !== "" ? "stdio" : "http");
  const { name, enabled } = server;
  if (transport === "stdio") {
    return { name, enabled, transport, command: server.command, args: server.args, env: server.env };
  }
  if (transport === "http") {
    // The old record kept the headers in `env`.
    return { name, enabled, transport, url: server.url, headers: server.headers ?? server.env };
  }
  return server;
}

/** Keeps what fits `schema`, falling back to `fallback` part by part. */
function repair(schema: z.ZodType, value: unknown, fallback: unknown, where: string, problems: Problems): unknown {
  if (value === undefined) return structuredClone(fallback);
  const direct = schema.safeParse(value);
  if (direct.success) return direct.data;

  if (schema instanceof z.ZodObject && isRecord(fallback)) {
    if (!isRecord(value)) {
      problems.add(`${label(where)} was not an object; its defaults were used.`, { code: "part-not-object", setting: where });
      return structuredClone(fallback);
    }
    const shape = schema.shape as Record<string, z.ZodType>;
    const out: Record<string, unknown> = {};
    for (const [key, fieldSchema] of Object.entries(shape)) {
      out[key] = repair(fieldSchema, value[key], fallback[key], where ? `${where}.${key}` : key, problems);
    }
    return out;
  }

  if (schema instanceof z.ZodArray && Array.isArray(value)) {
    const element = schema.element as z.ZodType;
    // Item by item, so that a rule over the whole list (unique names) drops the later of two.
    const kept: unknown[] = [];
    for (const item of value) {
      const parsed = element.safeParse(item);
      if (parsed.success && schema.safeParse([...kept, parsed.data]).success) kept.push(parsed.data);
    }
    problems.add(`${label(where)}: ${value.length - kept.length} unreadable item(s) were dropped.`, { code: "items-dropped", setting: where, count: value.length - kept.length });
    return kept;
  }

  problems.add(`${label(where)} was not valid (${describe(direct.error)}); the default was used.`, { code: "invalid", setting: where });
  return structuredClone(fallback);
}

function label(where: string): string {
  return where ? `Setting "${where}"` : "The settings";
}

function describe(error: z.ZodError): string {
  return error.issues[0]?.message ?? "invalid";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
