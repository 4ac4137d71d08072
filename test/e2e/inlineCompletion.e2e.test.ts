/**
 * Inline completion in the demo's note editor (a real CodeMirror 6 editor carrying the plugin's
 * registered editor extensions) in headless Chromium, against a scripted model server: typing,
 * a pause, ghost text; Tab takes it (the note on disk has it once saved), Escape dismisses it,
 * typing its own characters keeps it, and a key typed while the request is in flight aborts it
 * (the server sees the connection closed).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { startOpenAIServer, type RecordedChatRequest, type ScriptedResponse } from "../helpers/openAIServer";
import { screenshotPath } from "./demoHarness";
import { useDemo } from "./scriptedDemo";

jest.setTimeout(120_000);

const NOTE = "# Дневник\n\nСегодня утром";
const GHOST = ".vault-copilot-ghost-text";

describe("inline completion in the demo's note editor", () => {
  let page: Page;
  let consoleErrors: string[];
  /**
   * The answers and the waits, each for the request whose text before the cursor ends with its key.
   * On a loaded machine a pause can fall between two of Playwright's steps (after the click, within
   * "ом"): that request, for a line not yet typed to its end, gets an empty suggestion instead of
   * taking the answer meant for the next one.
   */
  let answers = new Map<string, ScriptedResponse>();
  let arrivals = new Map<string, (request: RecordedChatRequest) => void>();
  const completionRequests = () => suite.model.requests.filter(isCompletion);

  function isCompletion(request: RecordedChatRequest): boolean {
    return JSON.stringify(request.body.messages ?? []).includes("<cursor/>");
  }

  function textBeforeCursor(request: RecordedChatRequest): string {
    const user = request.body.messages.find((message) => message.role === "user");
    const note = typeof user?.content === "string" ? user.content : "";
    return note.slice(0, note.indexOf("<cursor/>"));
  }

  /** Takes the entry whose key ends `text`, if any. */
  function takeFor<T>(entries: Map<string, T>, text: string): T | undefined {
    const key = [...entries.keys()].find((end) => text.endsWith(end));
    if (key === undefined) return undefined;
    const value = entries.get(key);
    entries.delete(key);
    return value;
  }

  const suite = useDemo(
    { "Welcome.md": NOTE },
    () =>
      startOpenAIServer((request) => {
        if (!isCompletion(request)) return { text: "A chat answer." };
        const before = textBeforeCursor(request);
        takeFor(arrivals, before)?.(request);
        return takeFor(answers, before) ?? { text: "" };
      }),
    { completionModel: "small-model" },
  );

  beforeAll(async () => {
    ({ page, consoleErrors } = await suite.openPage());
  });

  const editor = () => page.getByRole("textbox", { name: "Note editor" });
  /** The completion request made with `textBefore` (its end) before the cursor. */
  const requestAfter = (textBefore: string) => new Promise<RecordedChatRequest>((resolve) => arrivals.set(textBefore, resolve));
  const editorText = () => page.locator(".markdown-source-view .cm-content").first().textContent();
  const saved = () =>
    page.evaluate(async () => {
      const view = window.app.workspace.getActiveViewOfType(window.demo.obsidian.MarkdownView)!;
      await view.saved();
      return view.editor.getValue();
    });

  /** Waits until the ghost text reads `expected` in full: it streams in, so a first look may catch only its start. */
  async function ghostReads(expected: string): Promise<void> {
    try {
      await page.waitForFunction(([selector, text]) => document.querySelector(selector)?.textContent === text, [GHOST, expected] as const, { timeout: 30_000 });
    } catch (error) {
      const shown = await page.locator(GHOST).textContent({ timeout: 1_000 }).catch(() => null);
      throw new Error(`The ghost text never read ${JSON.stringify(expected)}; it reads ${JSON.stringify(shown)}`, { cause: error });
    }
  }

  async function typeAtEnd(text: string): Promise<void> {
    await editor().click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type(text);
  }

  it("shows the suggestion as ghost text after a pause, and Tab puts it into the note, which is saved with it", async () => {
    // The pause after Tab's insertion asks again; its empty suggestion shows nothing.
    answers = new Map([["Сегодня утром,", { text: " мы пошли гулять в парк." }]]);
    const arrived = requestAfter("Сегодня утром,");
    await typeAtEnd(",");
    const request = await arrived;
    expect(request.body.tools).toBeUndefined();
    expect(JSON.stringify(request.body.messages)).toContain("Сегодня утром,<cursor/>");
    await ghostReads(" мы пошли гулять в парк.");
    await page.screenshot({ path: screenshotPath("inline-completion-ghost.png") });
    // The ghost is shown, not written: the note does not have it yet.
    expect(await saved()).toBe(`${NOTE},`);

    const afterTab = requestAfter("в парк.");
    await page.keyboard.press("Tab");
    await page.locator(GHOST).waitFor({ state: "detached" });
    await afterTab;
    expect(await saved()).toBe(`${NOTE}, мы пошли гулять в парк.`);
    expect(readFileSync(join(suite.vault.root, "Welcome.md"), "utf8")).toBe(`${NOTE}, мы пошли гулять в парк.`);
  });

  it("keeps the ghost text while the user types its own next characters, and Escape dismisses it without a change", async () => {
    answers = new Map([["в парк. ", { text: " Потом был дождь." }]]);
    const arrived = requestAfter("в парк. ");
    await typeAtEnd(" ");
    await arrived;
    await ghostReads("Потом был дождь.");
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
    // The first answer's text waits until the key is typed: streamed at once, it could show before
    // the key and the key (a space, its own first character) would then keep it instead.
    let keyTyped!: () => void;
    const afterKey = new Promise<void>((resolve) => (keyTyped = resolve));
    answers = new Map<string, ScriptedResponse>([
      ["Потом", { text: " never shown", pauseAfterChunks: 1, resumeWhen: afterKey, holdOpen: true }],
      ["Потом ", { text: " и всё." }],
    ]);
    const first = requestAfter("Потом");
    const second = requestAfter("Потом ");
    await typeAtEnd("ом");
    const request = await first;
    await page.keyboard.type(" ");
    keyTyped();
    await request.closed;
    await second;
    await ghostReads("и всё.");
    expect(await editorText()).not.toContain("never shown");
    expect(consoleErrors).toEqual([]);
  });
});
