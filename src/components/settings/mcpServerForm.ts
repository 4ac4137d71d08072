import { mcpServerSettingsSchema, type McpServerSettings } from "../../settings/settingsSchema";
import { zodIssueClause } from "./zodIssueText";
import { t } from "../../i18n/t";

/** An MCP server as its form holds it: every field as typed, both transports' at once. */
export interface McpServerDraft {
  name: string;
  enabled: boolean;
  transport: "stdio" | "http";
  command: string;
  /** One argument per line. */
  args: string;
  /** One `NAME=secret-id` per line. */
  env: string;
  url: string;
  /** One `Header=secret-id` per line. */
  headers: string;
}

export const EMPTY_SERVER_DRAFT: McpServerDraft = { name: "", enabled: true, transport: "stdio", command: "", args: "", env: "", url: "", headers: "" };

/** A server's settings as its form shows them. */
export function draftOf(server: McpServerSettings): McpServerDraft {
  if (server.transport === "stdio") {
    return { ...EMPTY_SERVER_DRAFT, name: server.name, enabled: server.enabled, transport: "stdio", command: server.command, args: server.args.join("\n"), env: pairLines(server.env) };
  }
  return { ...EMPTY_SERVER_DRAFT, name: server.name, enabled: server.enabled, transport: "http", url: server.url, headers: pairLines(server.headers) };
}

/**
 * The server a form describes, checked as the settings check it; throws with a sentence naming
 * the field to mend. Only the chosen transport's fields count.
 */
export function serverOf(draft: McpServerDraft, takenNames: readonly string[]): McpServerSettings {
  const name = draft.name.trim();
  if (name === "") throw new Error(t("mcpForm.enterName"));
  if (!/^[A-Za-z0-9-]+$/.test(name)) throw new Error(t("mcpForm.badName", { name }));
  if (takenNames.includes(name)) throw new Error(t("mcpForm.taken", { name }));
  const server: McpServerSettings =
    draft.transport === "stdio"
      ? { name, enabled: draft.enabled, transport: "stdio", command: draft.command.trim(), args: argumentLines(draft.args), env: pairs(draft.env, "Environment", "NAME") }
      : { name, enabled: draft.enabled, transport: "http", url: draft.url.trim(), headers: pairs(draft.headers, "Headers", "Header") };
  if (server.transport === "stdio" && server.command === "") throw new Error(t("mcpForm.enterCommand"));
  const checked = mcpServerSettingsSchema.safeParse(server);
  if (!checked.success) {
    const field = checked.error.issues[0]?.path[0];
    if (field === "url") throw new Error(t("mcpForm.enterUrl"));
    const issue = checked.error.issues[0];
    throw new Error(`${String(field ?? t("mcpForm.theServer"))}: ${issue === undefined ? `${t("settings.valueUnusableLower")}.` : zodIssueClause(issue)}`);
  }
  return checked.data;
}

/** Arguments one per line; blank lines dropped, each kept as typed otherwise (spaces inside an argument are its own). */
function argumentLines(text: string): string[] {
  return text.split("\n").map((line) => line.replace(/\r$/, "")).filter((line) => line.trim() !== "");
}

/** `NAME=secret-id` lines as a record; throws naming the line that is not one. */
function pairs(text: string, field: string, keyWord: string): Record<string, string> {
  const record: Record<string, string> = {};
  text.split("\n").forEach((raw, index) => {
    const line = raw.trim();
    if (line === "") return;
    const equals = line.indexOf("=");
    const key = equals === -1 ? "" : line.slice(0, equals).trim();
    const id = equals === -1 ? "" : line.slice(equals + 1).trim();
    if (key === "" || id === "") throw new Error(`${field}, line ${index + 1}: write ${keyWord}=the id of a secret in Obsidian's secret storage.`);
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(id)) throw new Error(`${field}, line ${index + 1}: "${id}" is not a secret's id (lowercase letters, digits and dashes), and never the secret itself.`);
    record[key] = id;
  });
  return record;
}

function pairLines(record: Readonly<Record<string, string>>): string {
  return Object.entries(record)
    .map(([key, id]) => `${key}=${id}`)
    .join("\n");
}

/** The line a server shows in the list: how it is reached. */
export function serverSummary(server: McpServerSettings): string {
  const where = server.transport === "stdio" ? [server.command, ...server.args].join(" ") : server.url;
  return t(server.transport === "stdio" ? "settings.mcpServers.program" : "settings.mcpServers.url", { where }) + (server.enabled ? "" : t("settings.mcpServers.off"));
}
