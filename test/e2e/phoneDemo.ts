/**
 * What the phone tests share: the demo over a vault of their own and a scripted model server
 * whose answers each test queues, one Chromium, and pages opened as Obsidian on a phone
 * (`?mobile=1` in a touch-enabled page).
 */
import type { Browser, Page } from "playwright-core";
import { startOpenAIServer, type OpenAIServer, type ScriptedResponse } from "../helpers/openAIServer";
import { makeTempVault, type TempVault } from "../helpers/tempVault";
import { conversation } from "./chatPage";
import { launchChromium, openDemoPage, startDemo, type RunningDemo } from "./demoHarness";

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
  let vault: TempVault | undefined;
  let model: OpenAIServer | undefined;
  let demo: RunningDemo | undefined;
  let browser: Browser | undefined;
  const queue: ScriptedResponse[] = [];
  const sessionErrors: string[] = [];

  beforeAll(async () => {
    vault = makeTempVault(notes);
    model = await startOpenAIServer(() => queue.shift() ?? { status: 500, message: "openAIServer: the test queued no answer" });
    demo = await startDemo({ vault: vault.root, baseUrl: model.baseUrl, model: "scripted-model", ...(options.modelTakesTools !== undefined ? { modelTakesTools: options.modelTakesTools } : {}) });
    browser = await launchChromium();
  });

  beforeEach(() => {
    // What a failed test left queued is not the next test's answer.
    queue.length = 0;
  });

  afterAll(async () => {
    await browser?.close();
    await demo?.stop();
    await model?.close();
    vault?.remove();
  });

  return {
    queue,
    sessionErrors,
    model: () => {
      if (!model) throw new Error("The phone demo has not started (usePhoneDemo's beforeAll runs first)");
      return model;
    },
    openPhone: async ({ width = 390, height = 844, query = "", theme = "dark" } = {}) => {
      if (!browser || !demo) throw new Error("The phone demo has not started (usePhoneDemo's beforeAll runs first)");
      const { page, consoleErrors } = await openDemoPage(browser, `${demo.url}?mobile=1${query}`, { theme, viewport: { width, height }, touch: true });
      page.on("close", () => sessionErrors.push(...consoleErrors));
      await conversation(page).waitFor({ state: "attached" });
      return page;
    },
  };
}

/** Types `text` into the message box and taps Send, as a finger does (the reply is not awaited). */
export async function sendByTap(page: Page, text: string): Promise<void> {
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("button", { name: "Send" }).tap();
}
