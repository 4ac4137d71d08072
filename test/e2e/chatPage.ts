/**
 * How the chat view's end-to-end tests reach its controls: only by role and accessible name (the
 * view's contract with screen readers and with these tests), never by class names.
 */
import type { Locator, Page } from "playwright-core";

export function conversation(page: Page): Locator {
  return page.getByRole("log", { name: "Conversation" });
}

/** The latest answer (article "Copilot"). */
export function lastAnswer(page: Page): Locator {
  return conversation(page).getByRole("article", { name: "Copilot" }).last();
}

/** Types a message into the "Message" box and presses Send. */
export async function sendMessage(page: Page, text: string): Promise<void> {
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("button", { name: "Send" }).click();
}

/** Resolves once no reply is running: Send is back (disabled while the box is empty). */
export async function waitUntilIdle(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Send" }).waitFor();
}

export async function chooseMode(page: Page, mode: "Chat" | "Vault QA" | "Agent"): Promise<void> {
  await page.getByRole("combobox", { name: "Mode", exact: true }).selectOption({ label: mode });
}
