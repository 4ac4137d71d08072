/**
 * What the Chromium suites share: for the `describe` it is called in, a vault of the suite's
 * notes, a model server on 127.0.0.1 (the scripted chat-completions server whose answers each test
 * queues, or one the suite starts), the demo over both, one headless Chromium, and pages of the
 * demo; all of it stopped and removed after the suite.
 */
import type { Browser, Page } from "playwright-core";
import { startOpenAIServer, type OpenAIServer, type ScriptedResponse } from "../helpers/openAIServer";
import { makeTempVault, type TempVault } from "../helpers/tempVault";
import { conversation } from "./chatPage";
import { launchChromium, openDemoPage, startDemo, type DemoOptions, type DemoPage, type RunningDemo } from "./demoHarness";

export interface DemoPageOptions {
  /** Added to the demo's address: "?mobile=1", "?lang=zh", … */
  query?: string;
  theme?: "dark" | "light";
  width?: number;
  viewport?: { width: number; height: number };
  /** A phone's page: touch events, a coarse pointer (for `?mobile=1`). */
  touch?: boolean;
  /** Another demo's address (one a test started itself) in place of the suite's. */
  demoUrl?: string;
}

export interface DemoSuite<Server> {
  /** The parts, once the suite's beforeAll has run (reading one before fails, naming the hook). */
  readonly vault: TempVault;
  /** The server the demo sends model requests to. */
  readonly model: Server;
  readonly demo: RunningDemo;
  readonly browser: Browser;
  /** Console errors of every page `open` gave, added when the page closes (a suite's last test expects none). */
  readonly sessionErrors: string[];
  /** A page of the demo with the chat view open; its console errors go to `sessionErrors` when it closes. */
  open: (options?: DemoPageOptions) => Promise<Page>;
  /** A page of the demo and its own console errors, for a suite that checks them page by page. */
  openPage: (options?: DemoPageOptions) => Promise<DemoPage>;
}

export interface ScriptedDemo extends DemoSuite<OpenAIServer> {
  /** What the model server answers next, in order; emptied before each test. */
  readonly queue: ScriptedResponse[];
}

/** What the demo is started with, besides the vault and the model server's address. */
export type DemoSettings = Omit<DemoOptions, "vault" | "baseUrl" | "model"> & {
  /** The model's name in the plugin's settings ("scripted-model" when left out). */
  modelName?: string;
};

/**
 * The demo over `notes` and the scripted model server, for the `describe` it is called in
 * (beforeAll, beforeEach, afterAll). A request the test queued no answer for gets a 500 that says so.
 */
export function useScriptedDemo(notes: Record<string, string | Uint8Array>, settings: DemoSettings = {}): ScriptedDemo {
  const queue: ScriptedResponse[] = [];
  const suite = useDemo(notes, () => startOpenAIServer(() => queue.shift() ?? { status: 500, message: "openAIServer: the test queued no answer" }), settings);
  beforeEach(() => {
    // What a failed test left queued is not the next test's answer.
    queue.length = 0;
  });
  return Object.assign(suite, { queue });
}

/**
 * The demo over `notes` and the model server `startModel` starts (its `baseUrl` is the demo's
 * --base-url), for the `describe` it is called in.
 */
export function useDemo<Server extends { baseUrl: string; close(): Promise<void> }>(
  notes: Record<string, string | Uint8Array>,
  startModel: () => Promise<Server>,
  settings: DemoSettings = {},
): DemoSuite<Server> {
  let parts: { vault: TempVault; model?: Server; demo?: RunningDemo; browser?: Browser } | undefined;
  const sessionErrors: string[] = [];
  const started = () => {
    if (!parts?.model || !parts.demo || !parts.browser) throw new Error("The demo has not started: useDemo's beforeAll runs before the suite's own hooks and tests");
    return { vault: parts.vault, model: parts.model, demo: parts.demo, browser: parts.browser };
  };

  beforeAll(async () => {
    const { modelName = "scripted-model", ...demoSettings } = settings;
    parts = { vault: makeTempVault(notes) };
    parts.model = await startModel();
    parts.demo = await startDemo({ ...demoSettings, vault: parts.vault.root, baseUrl: parts.model.baseUrl, model: modelName });
    parts.browser = await launchChromium();
  });

  afterAll(async () => {
    // In order, and each part even when one before it failed to stop; the first failure is then thrown.
    const failures: unknown[] = [];
    const stops = [() => parts?.browser?.close(), () => parts?.demo?.stop(), () => parts?.model?.close(), () => parts?.vault.remove()];
    for (const stop of stops) {
      try {
        await stop();
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length > 0) throw failures[0];
  });

  const openPage = ({ query = "", demoUrl, ...pageOptions }: DemoPageOptions = {}) => {
    const { browser, demo } = started();
    return openDemoPage(browser, `${demoUrl ?? demo.url}${query}`, pageOptions);
  };

  return {
    get vault() {
      return started().vault;
    },
    get model() {
      return started().model;
    },
    get demo() {
      return started().demo;
    },
    get browser() {
      return started().browser;
    },
    sessionErrors,
    openPage,
    open: async (options) => {
      const { page, consoleErrors } = await openPage(options);
      page.on("close", () => sessionErrors.push(...consoleErrors));
      await conversation(page).waitFor({ state: "attached" });
      return page;
    },
  };
}
