import { mcpServerSettingsSchema, type McpServerSettings } from "../../settings/settingsSchema";
import { SECRET_ID_PATTERN, SERVER_NAME_PATTERN } from "../../settings/settingsRules";
import { fieldIssueText, serverFieldLabel } from "./fieldLabels";
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
  if (!SERVER_NAME_PATTERN.test(name)) throw new Error(t("mcpForm.badName", { name }));
  if (takenNames.includes(name)) throw new Error(t("mcpForm.taken", { name }));
  const server: McpServerSettings =
    draft.transport === "stdio"
      ? { name, enabled: draft.enabled, transport: "stdio", command: draft.command.trim(), args: argumentLines(draft.args), env: pairs(draft.env, t("mcpForm.environment"), "NAME") }
      : { name, enabled: draft.enabled, transport: "http", url: draft.url.trim(), headers: pairs(draft.headers, t("mcpForm.headers"), "Header") };
  if (server.transport === "stdio" && server.command === "") throw new Error(t("mcpForm.enterCommand"));
  const checked = mcpServerSettingsSchema.safeParse(server);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    if (issue?.path[0] === "url") throw new Error(t("mcpForm.enterUrl"));
    if (issue === undefined) throw new Error(`${t("mcpForm.theServer")}: ${t("settings.valueUnusableLower")}.`);
    throw new Error(fieldIssueText(issue, String(issue.path[0] ?? t("mcpForm.theServer")), serverFieldLabel(issue.path)));
  }
  return checked.data;
}

/** Arguments one per line; blank lines dropped, each kept as typed otherwise (spaces inside an argument are its own). */
function argumentLines(text: string): string[] {
  return text.split("\n").map((line) => line.replace(/\r$/, "")).filter((line) => line.trim() !== "");
}

/** `NAME=secret-id` lines as a record; throws naming the line that is not one (`field`: the form's label of the lines). */
function pairs(text: string, field: string, keyWord: string): Record<string, string> {
  const record: Record<string, string> = {};
  text.split("\n").forEach((raw, index) => {
    const line = raw.trim();
    if (line === "") return;
    const equals = line.indexOf("=");
    const key = equals === -1 ? "" : line.slice(0, equals).trim();
    const id = equals === -1 ? "" : line.slice(equals + 1).trim();
    if (key === "" || id === "") throw new Error(t("mcpForm.badPair", { field, line: index + 1, key: keyWord }));
    if (!SECRET_ID_PATTERN.test(id)) throw new Error(t("mcpForm.notSecretId", { field, line: index + 1, id }));
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
