import type { ChatMode } from "../settings/settingsSchema";

/** A tool's behavioural guidance (its `customPromptInstructions`), for L1. */
export interface ToolGuidance {
  toolName: string;
  instructions: string;
}

/** The project a chat is in, as L1 tells the model of it. */
export interface ProjectPrompt {
  name: string;
  /** The project note's text; "" for none. */
  instructions: string;
  /** The web pages the project note lists. */
  urls: readonly string[];
}

/** A piece of L1, labelled where the payload view shows it as a part of its own. */
export interface SystemPromptPart {
  text: string;
  label?: string;
}

/** The label of the project's part of L1 in "Show last request". */
export const PROJECT_PROMPT_LABEL = "project instructions";

export interface SystemPromptInput {
  mode: ChatMode;
  /** The user's own instructions from the settings; "" for none. */
  userInstructions: string;
  /** The project the chat is in: its part follows the user's own instructions. */
  project?: ProjectPrompt;
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
 * L1: the built-in instructions for the mode, the user's own, the project's (when the chat is in
 * one), then each enabled tool's guidance in the order given. Nothing in it changes from request
 * to request (no date, no counts), so it stays a cacheable prefix; the agent asks a tool for the
 * time instead.
 */
export function buildSystemPrompt(input: SystemPromptInput): string {
  return buildSystemPromptParts(input)
    .map((part) => part.text)
    .join("");
}

/**
 * L1 in parts, joined exactly into `buildSystemPrompt`'s text: one part, or with a project three
 * (what comes before the project's instructions, the project's part, what follows), so the payload
 * view shows the project's instructions as a part of its own.
 */
export function buildSystemPromptParts(input: SystemPromptInput): SystemPromptPart[] {
  const parts = [BASE_INSTRUCTIONS[input.mode]];
  const own = input.userInstructions.trim();
  if (own) parts.push(`# The user's instructions\n${own}`);
  const before = parts.join("\n\n");
  const guidance = (input.toolGuidance ?? []).filter((entry) => entry.instructions.trim().length > 0);
  const after =
    guidance.length > 0 ? `\n\n${["# Tool guidance", ...guidance.map((entry) => `## ${entry.toolName}\n${entry.instructions.trim()}`)].join("\n\n")}` : "";
  if (!input.project) return [{ text: before + after }];
  const project: SystemPromptPart = { text: `\n\n${projectSection(input.project)}`, label: PROJECT_PROMPT_LABEL };
  return after ? [{ text: before }, project, { text: after }] : [{ text: before }, project];
}

function projectSection(project: ProjectPrompt): string {
  const lines = [
    `# The project "${project.name}"`,
    `This chat is in the user's project "${project.name}". Only the project's notes are available: searches and tools see nothing outside it, and a link to a note outside it reads [[a note outside the project]]. Do not try to reach other notes; if the project's notes do not answer, say so.`,
  ];
  if (project.urls.length > 0) lines.push(`The project's web pages:\n${project.urls.map((url) => `- ${url}`).join("\n")}`);
  const instructions = project.instructions.trim();
  if (instructions) lines.push(`## The project's instructions\n${instructions}`);
  return lines.join("\n\n");
}
