/**
 * The browser demo (scripts/demo.mjs) in headless Chromium: the page comes up with the chat view
 * in the right sidebar, in both themes; its vault is the folder on disk (writes land there, paths
 * that leave the folder are refused, the config folder stays in memory); the canary and the
 * outside-request watcher that the chat view's tests use see what they should.
 * The model proxy has its own file (demoProxy.e2e.test.ts).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Browser, Page } from "playwright-core";
import type { TempVault } from "../helpers/tempVault";
import { CHAT_VIEW_SELECTOR, openDemoPage, screenshotPath, watchOutsideRequests, type RunningDemo } from "./demoHarness";
import { openDemoSession, type DemoSession } from "./demoSession";

jest.setTimeout(120_000);

const API_KEY = "sk-demo-test-key-0123456789";

describe("browser demo", () => {
  let vault: TempVault;
  let demo: RunningDemo;
  let browser: Browser;
  let page: Page;
  let consoleErrors: string[];

  let session: DemoSession;

  beforeAll(async () => {
    session = await openDemoSession(API_KEY);
    ({ vault, demo, browser, page, consoleErrors } = session);
  });

  const scratchPage = () => session.scratchPage();

  afterAll(() => session?.close());

  it("opens the chat view in the right sidebar, at the width asked for", async () => {
    await page.waitForSelector(CHAT_VIEW_SELECTOR);
    const width = await page.locator(".workspace-split.mod-right-split").evaluate((element) => element.getBoundingClientRect().width);
    expect(width).toBe(340);
    await page.screenshot({ path: screenshotPath("demo-dark.png") });
  });

  it("window.app is the double's App, holding the folder's notes and the active note", async () => {
    const seen = await page.evaluate(() => ({
      notes: window.app.vault.getMarkdownFiles().map((file) => file.path).sort(),
      active: window.app.workspace.getActiveFile()?.path,
      tags: window.app.metadataCache.getCache("Projects/Plan.md")?.tags?.map((tag) => tag.tag),
    }));
    expect(seen).toEqual({ notes: ["Projects/Plan.md", "Welcome.md"], active: "Welcome.md", tags: ["#plan", "#garden"] });
  });

  it("a note changed through app.vault.modify and process is on disk once the promise settles", async () => {
    await page.evaluate(async () => {
      const file = window.app.vault.getFileByPath("Projects/Plan.md")!;
      await window.app.vault.modify(file, "rewritten\n");
      await window.app.vault.process(file, (text) => `${text}appended\n`);
    });
    expect(readFileSync(join(vault.root, "Projects/Plan.md"), "utf8")).toBe("rewritten\nappended\n");
  });

  it("creates folders and notes on disk, and trashes into the vault's .trash folder", async () => {
    await page.evaluate(async () => {
      await window.app.vault.createFolder("New/Deeper");
      const note = await window.app.vault.create("New/Deeper/Note.md", "fresh");
      await window.app.vault.rename(note, "New/Moved.md");
      await window.app.fileManager.trashFile(window.app.vault.getFileByPath("New/Moved.md")!);
    });
    expect(existsSync(join(vault.root, "New/Deeper"))).toBe(true);
    expect(existsSync(join(vault.root, "New/Moved.md"))).toBe(false);
    expect(readFileSync(join(vault.root, ".trash/New/Moved.md"), "utf8")).toBe("fresh");
  });

  it("keeps the config folder in memory: the plugin's data.json never reaches the disk", async () => {
    const inMemory = await page.evaluate(() => window.app.vault.adapter.exists(".obsidian/plugins/vault-copilot/data.json"));
    expect(inMemory).toBe(true);
    expect(existsSync(join(vault.root, ".obsidian"))).toBe(false);
  });

  it("refuses a path that leaves the folder (also through a symbolic link), and changes not sent by the page", async () => {
    const outsideFolder = mkdtempSync(join(tmpdir(), "vault-copilot-outside-"));
    symlinkSync(outsideFolder, join(vault.root, "escape"));
    const scratch = await scratchPage();
    const answers = await scratch.evaluate(async () => {
      const send = (change: unknown, headers: Record<string, string>) =>
        fetch("/api/vault", { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(change) }).then(
          async (response) => ({ status: response.status, body: (await response.json()) as { error?: string } }),
        );
      const demoHeader = { "x-vault-copilot-demo": "1" };
      return {
        outside: await send({ type: "write", path: "../outside.md", data: "x" }, demoHeader),
        absolute: await send({ type: "write", path: "/tmp/outside.md", data: "x" }, demoHeader),
        config: await send({ type: "write", path: ".obsidian/app.json", data: "{}" }, demoHeader),
        renamedOut: await send({ type: "rename", path: "Welcome.md", newPath: "../Welcome.md" }, demoHeader),
        throughLink: await send({ type: "write", path: "escape/outside.md", data: "x" }, demoHeader),
        withoutHeader: await send({ type: "write", path: "ok.md", data: "x" }, {}),
      };
    });
    await scratch.close();
    expect(answers.outside).toEqual({ status: 403, body: { error: expect.stringContaining("leaves the vault folder") } });
    expect(answers.absolute.status).toBe(403);
    expect(answers.config.status).toBe(403);
    expect(answers.renamedOut.status).toBe(403);
    expect(answers.throughLink).toEqual({ status: 403, body: { error: expect.stringContaining("through a link") } });
    expect(existsSync(join(outsideFolder, "outside.md"))).toBe(false);
    expect(answers.withoutHeader.status).toBe(403);
    expect(existsSync(join(dirname(vault.root), "outside.md"))).toBe(false);
    expect(existsSync(join(vault.root, "ok.md"))).toBe(false);
    expect(existsSync(join(vault.root, "Welcome.md"))).toBe(true);
    rmSync(join(vault.root, "escape"));
    rmSync(outsideFolder, { recursive: true, force: true });
  });

  it("answers only to its own address (another host name is refused)", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL("api/notes", demo.url);
      httpRequest(url, { headers: { host: "attacker.example" } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      })
        .on("error", reject)
        .end();
    });
    expect(status).toBe(403);
  });

  it("renders in the light theme too", async () => {
    const { page: light, consoleErrors: lightErrors } = await openDemoPage(browser, demo.url, { theme: "light", width: 300 });
    await light.waitForSelector(CHAT_VIEW_SELECTOR);
    const look = await light.evaluate(() => ({
      light: document.body.classList.contains("theme-light"),
      background: getComputedStyle(document.body).getPropertyValue("--background-primary").trim(),
      width: document.querySelector(".mod-right-split")!.getBoundingClientRect().width,
    }));
    expect(look).toEqual({ light: true, background: "#ffffff", width: 300 });
    await light.screenshot({ path: screenshotPath("demo-light.png") });
    await light.close();
    expect(lightErrors).toEqual([]);
  });

  it("?canary=1 records when rendered Markdown reaches code other plugins would run; watchOutsideRequests sees a remote image load", async () => {
    const { page: canary, consoleErrors: canaryErrors } = await openDemoPage(browser, `${demo.url}?canary=1`);
    const calls = await canary.evaluate(async () => {
      const { MarkdownRenderer, Component } = window.demo.obsidian;
      const component = new Component();
      component.load();
      const el = document.body.createDiv();
      await MarkdownRenderer.render(window.app, "```dataviewjs\ndv.span(1)\n```\n\nName: `= this.file.name`, `$= dv.current()` and `plain`", el, "Chat.md", component);
      return window.demo.canaryCalls;
    });
    expect(calls).toEqual([
      { kind: "code-block", language: "dataviewjs", source: "dv.span(1)", sourcePath: "Chat.md" },
      { kind: "inline-query", source: "= this.file.name", sourcePath: "Chat.md" },
      { kind: "inline-query", source: "$= dv.current()", sourcePath: "Chat.md" },
    ]);
    expect(await page.evaluate(() => window.demo.canaryCalls)).toBeNull(); // off unless asked for

    // The double's renderer loads a remote image as Obsidian's does; the watcher sees it, offline.
    const outside = await watchOutsideRequests(canary);
    await canary.evaluate(async () => {
      const { MarkdownRenderer, Component } = window.demo.obsidian;
      const el = document.body.createDiv();
      const component = new Component();
      await MarkdownRenderer.render(window.app, "![pixel](https://images.example.invalid/p.png)", el, "Chat.md", component);
      const image = el.querySelector("img")!;
      if (!image.complete) await new Promise<void>((resolve) => image.addEventListener("load", () => resolve()));
      component.unload();
    });
    expect(outside).toEqual(["https://images.example.invalid/p.png"]);
    await canary.close();
    expect(canaryErrors).toEqual([]);
  });

  it("logged no errors in the console", () => {
    expect(consoleErrors).toEqual([]);
  });
});