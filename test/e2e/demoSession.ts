import type { Browser, Page } from "playwright-core";
import { startOpenAIServer, type OpenAIServer } from "../helpers/openAIServer";
import { makeTempVault, type TempVault } from "../helpers/tempVault";
import { launchChromium, openDemoPage, startDemo, type RunningDemo } from "./demoHarness";

/** The demo over a two-note vault and a scripted model, open in Chromium (the demo's own tests). */
export interface DemoSession {
  vault: TempVault;
  model: OpenAIServer;
  demo: RunningDemo;
  browser: Browser;
  page: Page;
  consoleErrors: string[];
  /**
   * A page of the demo's origin whose console is not watched, for requests the server must refuse
   * (the browser logs each refused request as an error).
   */
  scratchPage(): Promise<Page>;
  close(): Promise<void>;
}

/** Starts it: the model streams one answer held open, then answers 401; the key comes from the demo's environment. */
export async function openDemoSession(apiKey: string): Promise<DemoSession> {
  const vault = makeTempVault({
    "Welcome.md": "# Welcome\n\nSee [[Projects/Plan]].\n",
    "Projects/Plan.md": "---\ntags: [plan]\n---\nThe plan. #garden\n",
  });
  const model = await startOpenAIServer([{ text: "streamed answer in pieces", holdOpen: true }, { status: 401, message: "Incorrect API key provided" }]);
  const demo = await startDemo({ vault: vault.root, baseUrl: model.baseUrl, model: "scripted-model", apiKeyEnv: "DEMO_TEST_KEY", env: { DEMO_TEST_KEY: apiKey } });
  const browser = await launchChromium();
  const { page, consoleErrors } = await openDemoPage(browser, demo.url, { theme: "dark", width: 340 });
  return {
    vault,
    model,
    demo,
    browser,
    page,
    consoleErrors,
    scratchPage: async () => {
      const scratch = await browser.newPage();
      await scratch.goto(new URL("api/config", demo.url).href);
      return scratch;
    },
    close: async () => {
      await browser.close();
      await demo.stop();
      await model.close();
      vault.remove();
    },
  };
}
