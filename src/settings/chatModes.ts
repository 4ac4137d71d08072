import { CHAT_MODES, type ChatMode } from "./settingsSchema";

/**
 * The chat modes' names, one table for every place a person meets them: `label` in the chat
 * view's Mode menu, `description` in the settings' choice of the mode a new chat starts in. A
 * mode's id (`CHAT_MODES`: "chat", "vault-qa", "agent") is the word that is stored: in data.json,
 * in a saved chat's frontmatter and answer headings, in a prompt note's `mode:`; the CLI runs a
 * mode by its command (`chat`, `qa`, `agent`).
 */
export const CHAT_MODE_NAMES: Readonly<Record<ChatMode, { readonly label: string; readonly description: string }>> = {
  chat: { label: "Chat", description: "Chat" },
  "vault-qa": { label: "Vault QA", description: "Questions about the vault" },
  agent: { label: "Agent", description: "Agent (uses tools)" },
};

/** Whether `value` is a mode's id. */
export function isChatMode(value: unknown): value is ChatMode {
  return typeof value === "string" && (CHAT_MODES as readonly string[]).includes(value);
}

/** The modes' ids in a sentence, for an error that names what would have been accepted: "chat, vault-qa, agent". */
export function chatModeList(): string {
  return CHAT_MODES.join(", ");
}
