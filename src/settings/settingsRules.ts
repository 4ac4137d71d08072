import type { z } from "zod";

/** SecretStorage ids: lowercase letters, digits and dashes (what `setSecret` accepts), or "" for none. */
export const SECRET_ID_PATTERN = /^([a-z0-9]+(-[a-z0-9]+)*)?$/;

/**
 * An MCP server's name: letters, digits and "-". It becomes part of tool ids (`mcp_<name>_<tool>`),
 * and without "_" one server's prefix can never match another's tools.
 */
export const SERVER_NAME_PATTERN = /^[A-Za-z0-9-]+$/;

/**
 * A rule the settings schema adds beyond zod's own checks, by case and values. zod's issue holds
 * only the rule's English sentence (or, for a pattern, zod's own); this names the rule, so a view
 * can say it in its own language.
 */
export type SettingsRule = { rule: "duplicate-model"; name: string } | { rule: "duplicate-server"; name: string } | { rule: "secret-id" } | { rule: "server-name" };

/** The rule of ours that `issue` reports, with its values; undefined for zod's own checks. */
export function settingsRuleOf(issue: z.core.$ZodIssue): SettingsRule | undefined {
  if (issue.code === "custom") {
    const params = issue.params as Partial<SettingsRule> | undefined;
    if ((params?.rule === "duplicate-model" || params?.rule === "duplicate-server") && typeof params.name === "string") return { rule: params.rule, name: params.name };
    return undefined;
  }
  if (issue.code === "invalid_format" && issue.format === "regex") {
    if (issue.pattern === String(SECRET_ID_PATTERN)) return { rule: "secret-id" };
    if (issue.pattern === String(SERVER_NAME_PATTERN)) return { rule: "server-name" };
  }
  return undefined;
}
