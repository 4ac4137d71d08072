/**
 * What the phone tests share: the scripted demo (scriptedDemo.ts) with pages opened as Obsidian
 * on a phone (`?mobile=1` in a touch-enabled page).
 */
import type { Page } from "playwright-core";
import type { OpenAIServer, ScriptedResponse } from "../helpers/openAIServer";
import { useScriptedDemo } from "./scriptedDemo";

export interface PhoneDemo {
  /** What the model server answers next, in order; emptied before each test. */
  queue: ScriptedResponse[];
  /** The model server (its requests), once the suite has started. */
  model: () => OpenAIServer;
  /** Console errors of every page opened so far (the suite's last test expects none). */
  sessionErrors: string[];
  /** A page of the demo as a phone of `width`×`height` px; `query` is added after `?mobile=1`. */
  openPhone: (options?: { width?: number; height?: number; query?: string; theme?: "dark" | "light" }) => Promise<Page>;
}

/** Sets the demo up for the `describe` it is called in (beforeAll, beforeEach, afterAll). */
export function usePhoneDemo(notes: Record<string, string>, options: { modelTakesTools?: boolean } = {}): PhoneDemo {
  const scripted = useScriptedDemo(notes, options);
  return {
    queue: scripted.queue,
    sessionErrors: scripted.sessionErrors,
    model: () => scripted.model,
    openPhone: ({ width = 390, height = 844, query = "", theme = "dark" } = {}) =>
      scripted.open({ query: `?mobile=1${query}`, theme, viewport: { width, height }, touch: true }),
  };
}

/** Types `text` into the message box and taps Send, as a finger does (the reply is not awaited). */
export async function sendByTap(page: Page, text: string): Promise<void> {
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("button", { name: "Send" }).tap();
}
