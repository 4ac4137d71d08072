import type { McpServerStatus } from "../../mcp/McpHub";
import type { McpServerFailure } from "../../mcp/mcpFailure";
import { ENGLISH } from "../../i18n/languages";
import { currentLanguage, t } from "../../i18n/t";

/** One server's line in the MCP status: its state and why it failed, and the server's own words for Details where the line says them otherwise. */
export interface McpStatusLine {
  text: string;
  details?: string;
}

/**
 * A server's status in the interface's language. English, and a failure the view does not know,
 * show the state and the error as the hub wrote it; another language says a common failure by its
 * case and keeps the error's own words (the server's, or the SDK's) for Details.
 */
export function mcpStatusLine(status: McpServerStatus): McpStatusLine {
  const state = status.state === "connected" ? t("settings.mcpStatus.connected", { name: status.name, count: status.toolIds.length }) : t(`settings.mcpStatus.${status.state}`, { name: status.name });
  if (!status.error) return { text: state };
  if (currentLanguage() === ENGLISH || status.failure === undefined) return { text: `${state} (${status.error})` };
  return { text: t("settings.mcpStatus.withReason", { state, reason: mcpFailureText(status.failure) }), details: status.error };
}

/** Why a server failed, by its case, in the interface's language. */
function mcpFailureText(failure: McpServerFailure): string {
  switch (failure.kind) {
    case "could-not-start":
      return t("settings.mcpFailure.could-not-start", { command: failure.command });
    case "exited":
      // As text: an exit code is a name for what happened, not a quantity to group in thousands.
      return t("settings.mcpFailure.exited", { code: String(failure.code) });
    case "timeout":
      return t("settings.mcpFailure.timeout", { count: failure.seconds });
    case "http-status":
      return t("settings.mcpFailure.http-status", { status: String(failure.status) });
    case "closed":
      return t("settings.mcpFailure.closed");
  }
}
