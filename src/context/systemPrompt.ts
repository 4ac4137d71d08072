import type { ChatMode } from "../settings/settingsSchema";

/** A tool's behavioural guidance (its `customPromptInstructions`), for L1. */
export interface ToolGuidance {
  toolName: string;
  instructions: string;
}

export interface SystemPromptInput {
  mode: ChatMode;
  /** The user's own instructions from the settings; "" for none. */
  userInstructions: string;
  /** The enabled tools' guidance, in registry order (the agent only). */
  toolGuidance?: readonly ToolGuidance[];
}

const BASE_INSTRUCTIONS: Readonly<Record<ChatMode, string>> = {
  chat: [
    "You are Vault Copilot, an assistant inside the user's Obsidian vault.",
    "Answer in the language of the user's message. Use Markdown; link notes as [[Note title]].",
    "Material the user attached comes before their question, in blocks such as <note>; the question itself follows the label [User query]:.",
  ].join("\n"),
  "vault-qa": [
    "You are Vault Copilot, answering questions from the user's own notes in their Obsidian vault.",
    "Answer in the language of the user's message, from the documents given with it, and cite every note you use as [[Note title]] right after the claim it supports.",
    "If the documents do not answer the question, say so plainly instead of guessing.",
    "Material comes before the question; the question itself follows the label [User query]:.",
  ].join("\n"),
  agent: [
    "You are Vault Copilot, an agent inside the user's Obsidian vault. You can call tools to search, read and change notes, tell the time and more.",
    "Call a tool whenever it can give you facts you do not have; call several at once when they do not depend on each other. When you have what you need, answer without calling more tools.",
    "Answer in the language of the user's message. Use Markdown; cite the notes you used as [[Note title]].",
    "Tool results and attached material come before the question; the question itself follows the label [User query]:.",
  ].join("\n"),
};

/**
 * L1: the built-in instructions for the mode, the user's own, then each enabled tool's guidance
 * in the order given. Nothing in it changes from request to request (no date, no counts), so it
 * stays a cacheable prefix; the agent asks a tool for the time instead.
 */
export function buildSystemPrompt(input: SystemPromptInput): string {
  const parts = [BASE_INSTRUCTIONS[input.mode]];
  const own = input.userInstructions.trim();
  if (own) parts.push(`# The user's instructions\n${own}`);
  const guidance = (input.toolGuidance ?? []).filter((entry) => entry.instructions.trim().length > 0);
  if (guidance.length > 0) {
    parts.push(["# Tool guidance", ...guidance.map((entry) => `## ${entry.toolName}\n${entry.instructions.trim()}`)].join("\n\n"));
  }
  return parts.join("\n\n");
}
