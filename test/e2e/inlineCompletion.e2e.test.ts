/**
 * Inline completion in the demo's note editor (a real CodeMirror 6 editor carrying the plugin's
 * registered editor extensions) in headless Chromium, against a scripted model server: typing,
 * a pause, ghost text; Tab takes it (the note on disk has it once saved), Escape dismisses it,
 * typing its own characters keeps it, and a key typed while the request is in flight aborts it
 * (the server sees the connection closed).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { startOpenAIServer, type OpenAIServer, type RecordedChatRequest, type ScriptedResponse } from "../helpers/openAIServer";
import { makeTempVault, type TempVault } from "../helpers/tempVault";
import { launchChromium, openDemoPage, screenshotPath, startDemo, type RunningDemo } from "./demoHarness";

jest.setTimeout(120_000);

const NOTE = "# Дневник\n\nСегодня утром";
const GHOST = ".vault-copilot-ghost-text";

describe("inline completion in the demo's note editor", () => {
  let vault: TempVault;
  let model: OpenAIServer;
  let demo: RunningDemo;
  let browser: Browser;
  let page: Page;
  let consoleErrors: string[];
  /** What the next completion request is answered with, and who waits for it to arrive. */
  let answers: ScriptedResponse[] = [];
  let arrivals: Array<(request: RecordedChatRequest) => void> = [];
  const completionRequests = () => model.requests.filter(isCompletion);

  function isCompletion(request: RecordedChatRequest): boolean {
    return JSON.stringify(request.body.messages ?? []).includes("<cursor/>");
  }

  beforeAll(async () => {
    vault = makeTempVault({ "Welcome.md": NOTE });
    model = await startOpenAIServer((request) => {
      if (!isCompletion(request)) return { text: "A chat answer." };
      arrivals.shift()?.(request);
      return answers.shift() ?? { status: 500, message: "no completion scripted" };
    });
    demo = await startDemo({ vault: vault.root, baseUrl: model.baseUrl, model: "scripted-model", completionModel: "small-model" });
    browser = await launchChromium();
    ({ page, consoleErrors } = await openDemoPage(browser, demo.url));
  });

  afterAll(async () => {
    await browser?.close();
    await demo?.stop();
    await model?.close();
    vault?.remove();
  });

  const editor = () => page.getByRole("textbox", { name: "Note editor" });
  const nextRequest = () => new Promise<RecordedChatRequest>((resolve) => arrivals.push(resolve));
  const editorText = () => page.locator(".markdown-source-view .cm-content").first().textContent();
  const saved = () =>
    page.evaluate(async () => {
      const view = window.app.workspace.getActiveViewOfType(window.demo.obsidian.MarkdownView)!;
      await view.saved();
      return view.editor.getValue();
    });

  async function typeAtEnd(text: string): Promise<void> {
    await editor().click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type(text);
  }

  it("shows the suggestion as ghost text after a pause, and Tab puts it into the note, which is saved with it", async () => {
    // The second answer is the pause after Tab's insertion: an empty suggestion shows nothing.
    answers = [{ text: " мы пошли гулять в парк." }, { text: "" }];
    const arrived = nextRequest();
    await typeAtEnd(",");
    const request = await arrived;
    expect(request.body.tools).toBeUndefined();
    expect(JSON.stringify(request.body.messages)).toContain("Сегодня утром,<cursor/>");
    await page.locator(GHOST).waitFor();
    expect(await page.locator(GHOST).textContent()).toBe(" мы пошли гулять в парк.");
    await page.screenshot({ path: screenshotPath("inline-completion-ghost.png") });
    // The ghost is shown, not written: the note does not have it yet.
    expect(await saved()).toBe(`${NOTE},`);

    const afterTab = nextRequest();
    await page.keyboard.press("Tab");
    await page.locator(GHOST).waitFor({ state: "detached" });
    await afterTab;
    expect(await saved()).toBe(`${NOTE}, мы пошли гулять в парк.`);
    expect(readFileSync(join(vault.root, "Welcome.md"), "utf8")).toBe(`${NOTE}, мы пошли гулять в парк.`);
  });

  it("keeps the ghost text while the user types its own next characters, and Escape dismisses it without a change", async () => {
    answers = [{ text: " Потом был дождь." }];
    const arrived = nextRequest();
    await typeAtEnd(" ");
    await arrived;
    await page.locator(GHOST).waitFor();
    expect(await page.locator(GHOST).textContent()).toBe("Потом был дождь.");
    const sent = completionRequests().length;
    await page.keyboard.type("Пот");
    expect(await page.locator(GHOST).textContent()).toBe("ом был дождь.");
    await page.keyboard.press("Escape");
    await page.locator(GHOST).waitFor({ state: "detached" });
    expect(await saved()).toBe(`${NOTE}, мы пошли гулять в парк. Пот`);
    // Typing the suggestion's own characters asked nothing new.
    expect(completionRequests().length).toBe(sent);
  });

  it("a key typed while the request is in flight aborts it: the server sees the connection closed, and no ghost appears", async () => {
    answers = [{ text: " never shown", holdOpen: true }, { text: " и всё." }];
    const first = nextRequest();
    await typeAtEnd("ом");
    const request = await first;
    const second = nextRequest();
    await page.keyboard.type(" ");
    await request.closed;
    await second;
    await page.locator(GHOST).waitFor();
    expect(await page.locator(GHOST).textContent()).toBe("и всё.");
    expect(await editorText()).not.toContain("never shown");
    expect(consoleErrors).toEqual([]);
  });
});
