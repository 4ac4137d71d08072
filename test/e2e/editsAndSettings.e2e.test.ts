/**
 * What issue 27 left for the view, in the browser demo driven in headless Chromium as a user
 * would: "Edit selection with Copilot" as an exchange of its own, an edit of several changes
 * accepted change by change, a prompt's question showing what the user wrote, the text size
 * setting, and the settings forms (a model, the prices, an MCP server with its JSON, the tests of
 * the servers, Obsidian's toggles) in the demo's Obsidian-like Settings window. Controls are found
 * by role and accessible name. Real servers on 127.0.0.1: the scripted chat-completions server,
 * the embeddings server; a temporary copy of a small vault.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { startEmbeddingServer } from "../helpers/embeddingServer";
import { conversation, lastAnswer, sendMessage, waitUntilIdle } from "./chatPage";
import { CHAT_VIEW_SELECTOR, screenshotPath } from "./demoHarness";
import { useDemo, useScriptedDemo } from "./scriptedDemo";

jest.setTimeout(120_000);

const JOURNAL_LINES = Array.from({ length: 24 }, (_, index) => `${["запись", "εγγραφή", "سجل"][index % 3]} ${index + 1}`);
const NOTES: Record<string, string> = {
  "Welcome.md": "# Welcome\n\nStart with [[Garden/Roses]].\n",
  "Garden/Roses.md": "# Roses\n\nPrune roses in early spring, just above an outward-facing bud.\n",
  "Edits/Черновик.md": "# Черновик\n\nЭто предложениe с ошибкой.\nВторая строка остаётся.\n",
  "Edits/Journal.md": `${JOURNAL_LINES.join("\n")}\n`,
  "copilot/prompts/Summarize.md": "---\ndescription: Summarize the note\n---\nSummarize {{activeNote}}.\n",
};

/** Opens a note in the demo's editor and selects text on one of its lines (0-based line, characters). */
async function selectInNote(page: Page, path: string, line: number, from: number, to: number): Promise<void> {
  await page.evaluate(
    async ({ path, line, from, to }) => {
      const file = window.app.vault.getFileByPath(path);
      if (!file) throw new Error(`no note ${path}`);
      await window.app.workspace.openFile(file);
      window.app.workspace.getActiveViewOfType(window.demo.obsidian.MarkdownView)?.editor.setSelection({ line, ch: from }, { line, ch: to });
    },
    { path, line, from, to },
  );
}

/** A command of the plugin, run from the demo's command list (as the command palette would). */
async function runCommand(page: Page, name: string): Promise<void> {
  await page.getByRole("navigation", { name: "Commands" }).getByRole("button", { name, exact: true }).click();
}

/** Opens the demo's Settings window at the plugin's tab. */
async function openSettings(page: Page): Promise<Locator> {
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const settings = page.getByRole("dialog", { name: "Settings" });
  await settings.getByRole("tab", { name: "Vault Copilot", selected: true }).waitFor();
  return settings;
}

/** A settings row by its name. */
function row(scope: Locator, name: string): Locator {
  return scope.locator(".setting-item").filter({ has: scope.page().locator(".setting-item-name", { hasText: new RegExp(`^${name}$`) }) });
}

/** What `read` gives once it equals `expected` (a save reaches data.json a moment after the click), or what it gave last after a bound for a loaded machine. */
async function eventually<T>(read: () => Promise<T>, expected: T, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (JSON.stringify(value) === JSON.stringify(expected) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The computed colour of an element and the colour a CSS variable resolves to there, to compare. */
async function colours(element: Locator, variable: string): Promise<{ shown: string; expected: string }> {
  return element.evaluate((node, name) => {
    const probe = node.ownerDocument.createElement("span");
    probe.style.color = `var(${name})`;
    node.appendChild(probe);
    const expected = getComputedStyle(probe).color;
    probe.remove();
    return { shown: getComputedStyle(node).color, expected };
  }, variable);
}

describe("edits and prompts in the browser demo", () => {
  const scripted = useScriptedDemo(NOTES, { modelTakesTools: true });
  const { queue, sessionErrors, open } = scripted;

  describe.each(["dark", "light"] as const)("at 300 px, %s theme", (theme) => {
    const shoot = (page: Page, name: string) => page.locator(CHAT_VIEW_SELECTOR).screenshot({ path: screenshotPath(`chat-${name}-${theme}.png`) });

    it('"Edit selection with Copilot": the box has the focus and shows what will change; the edit is a chat of its own, the instruction its question, the rewrite shown once, as the diff', async () => {
      const draftPath = join(scripted.vault.root, "Edits/Черновик.md");
      const before = readFileSync(draftPath, "utf8");
      const page = await open({ theme, width: 300 });
      queue.push({ text: "Earlier answer about roses." });
      await sendMessage(page, "Tell me about roses");
      await waitUntilIdle(page);

      await selectInNote(page, "Edits/Черновик.md", 2, 0, 26);
      await runCommand(page, "Edit selection with Copilot");
      const dialog = page.getByRole("dialog", { name: "Edit selection with Copilot" });
      await expect(dialog.getByText("Edits/Черновик.md, line 3", { exact: true }).count()).resolves.toBe(1);
      await expect(dialog.getByRole("figure", { name: "Selected text" }).innerText()).resolves.toBe("Это предложениe с ошибкой.");
      // The box has the focus: what is typed goes into it, with no click first.
      queue.push({ text: "Это предложение без ошибки." });
      await page.keyboard.type("Исправь опечатку");
      await expect(dialog.getByRole("textbox", { name: "Instruction" }).inputValue()).resolves.toBe("Исправь опечатку");
      await page.keyboard.press("Enter");
      await dialog.waitFor({ state: "detached" });

      const card = lastAnswer(page).getByRole("region", { name: "Edit Edits/Черновик.md?" });
      await card.waitFor();
      // A chat of its own: the roses exchange is not in it; the question is the instruction as typed, with the note and the selected line attached.
      await expect(conversation(page).getByRole("article", { name: "You" }).allInnerTexts()).resolves.toEqual(["Исправь опечатку\nЧерновик\nЧерновик (line 3)"]);
      expect(await conversation(page).innerText()).not.toContain("Earlier answer about roses.");
      // Shown once: in the diff, not as answer text too.
      await expect(lastAnswer(page).locator(":scope > .vault-copilot-markdown").count()).resolves.toBe(0);
      expect(await card.getByRole("table", { name: "Proposed change" }).innerText()).toContain("без ошибки");
      await card.getByRole("button", { name: "Accept", disabled: false }).waitFor();
      await shoot(page, "edit-selection");
      await card.getByRole("button", { name: "Accept" }).click();
      await waitUntilIdle(page);
      await lastAnswer(page).getByText("Edited +1 −1 · Edits/Черновик.md").waitFor();
      expect(readFileSync(draftPath, "utf8")).toBe(before.replace("предложениe с ошибкой", "предложение без ошибки"));
      // Put back for the other theme's run.
      await lastAnswer(page).getByRole("button", { name: "Undo" }).click();
      await lastAnswer(page).getByRole("status").filter({ hasText: "previous text is back" }).waitFor();
      expect(readFileSync(draftPath, "utf8")).toBe(before);
      await page.close();
    });

    it("an edit of three changes: one left out by its checkbox, Accept writes the other two and the banner says so", async () => {
      const journalPath = join(scripted.vault.root, "Edits/Journal.md");
      const before = readFileSync(journalPath, "utf8");
      const page = await open({ theme, width: 300 });
      const changed = JOURNAL_LINES.map((line, index) => ([1, 12, 22].includes(index) ? `${line} ✓` : line)).join("\n");
      queue.push({ toolCalls: [{ name: "replaceInFile", arguments: JSON.stringify({ path: "Edits/Journal.md", oldText: JOURNAL_LINES.join("\n"), newText: changed }) }] }, { text: "Marked." });
      await sendMessage(page, "Mark lines 2, 13 and 23 as done");
      const card = lastAnswer(page).getByRole("region", { name: "Edit Edits/Journal.md?" });
      await card.waitFor();
      const boxes = card.getByRole("checkbox");
      await expect(boxes.evaluateAll((elements) => elements.map((element) => element.getAttribute("aria-label")))).resolves.toEqual([
        "Apply change 1 of 3 (line 2)",
        "Apply change 2 of 3 (line 13)",
        "Apply change 3 of 3 (line 23)",
      ]);
      await card.getByRole("checkbox", { name: "Apply change 2 of 3 (line 13)" }).uncheck();
      await card.getByText("in 3 changes: 2 chosen").waitFor();
      await card.getByRole("button", { name: "Accept", disabled: false }).waitFor();
      await shoot(page, "hunks");
      await card.getByRole("button", { name: "Accept" }).click();
      await waitUntilIdle(page);
      expect(readFileSync(journalPath, "utf8")).toBe(before.replace("εγγραφή 2\n", "εγγραφή 2 ✓\n").replace("εγγραφή 23\n", "εγγραφή 23 ✓\n"));
      await lastAnswer(page).getByText("Edited +2 −2 · Edits/Journal.md · 2 of 3 changes").waitFor();
      await lastAnswer(page).getByRole("button", { name: "Undo" }).click();
      await lastAnswer(page).getByRole("status").filter({ hasText: "(the 2 of 3 changes you had applied)" }).waitFor();
      expect(readFileSync(journalPath, "utf8")).toBe(before);
      await page.close();
    });
  });

  it('a prompt run from "/" shows "/Summarize · Roses" as the question and in Chat history; the model reads the filled prompt', async () => {
    const page = await open();
    await page.getByRole("navigation", { name: "Notes" }).getByRole("button", { name: "Garden/Roses", exact: true }).click();
    queue.push({ text: "Roses are pruned in spring." });
    await page.getByRole("textbox", { name: "Message" }).fill("/summ");
    await page.getByRole("listbox", { name: "Prompts" }).getByRole("option", { name: /Summarize/ }).waitFor();
    await page.getByRole("textbox", { name: "Message" }).press("Enter");
    await waitUntilIdle(page);
    await expect(conversation(page).getByRole("article", { name: "You" }).last().innerText()).resolves.toContain("/Summarize · Roses");
    expect(await conversation(page).innerText()).not.toContain("attached above");
    expect(JSON.stringify(scripted.model.requests.at(-1)!.body.messages.at(-1)!.content)).toContain("[User query]: Summarize the note [[Garden/Roses]] (attached above).");
    await page.getByRole("button", { name: "Chat history" }).click();
    await page.getByRole("region", { name: "Saved chats" }).getByRole("button", { name: "Summarize · Roses", exact: true }).waitFor();
    await page.close();
  });

  it("the text size setting sizes answers: small, normal and large (the notes' size)", async () => {
    const page = await open();
    queue.push({ text: "## Sizes\n\nThe answer's text." });
    await sendMessage(page, "How large is this text?");
    await waitUntilIdle(page);
    const paragraph = lastAnswer(page).getByText("The answer's text.");
    const heading = lastAnswer(page).getByRole("heading", { name: "Sizes" });
    const size = async (element: Locator) => Number.parseFloat(await element.evaluate((node) => getComputedStyle(node).fontSize));
    expect(await size(paragraph)).toBe(15);
    const settings = await openSettings(page);
    const choose = async (label: string) => {
      await row(settings, "Text size").getByRole("combobox").selectOption({ label });
    };
    await choose("Small");
    expect(await size(paragraph)).toBe(13);
    expect(await size(heading)).toBeCloseTo(13 * 1.2, 1);
    await choose("Large (as your notes)");
    expect(await size(paragraph)).toBe(16);
    await settings.getByRole("button", { name: "Close" }).click();
    await settings.waitFor({ state: "detached" });
    await page.close();
  });

  it("logged no console errors in any page of the session", () => {
    expect(sessionErrors).toEqual([]);
  });
});

describe("the settings tab in the demo's Settings window", () => {
  // The demo forwards requests only under its --base-url: the embeddings server stands there, and no chat model answers.
  const settingsDemo = useDemo({ "Welcome.md": "# Welcome\n" }, () => startEmbeddingServer({ dimensions: 32, knownModels: ["bge-m3"] }), { modelName: "no-chat-model" });
  const embeddings = () => settingsDemo.model;
  let page: Page;
  let consoleErrors: string[];

  beforeEach(async () => {
    ({ page, consoleErrors } = await settingsDemo.openPage({ viewport: { width: 1100, height: 800 } }));
  });

  afterEach(async () => {
    await page.close();
    expect(consoleErrors).toEqual([]);
  });

  const savedSettings = () => page.evaluate(async () => JSON.parse(await window.app.vault.adapter.read(".obsidian/plugins/vault-copilot/data.json")) as { models: unknown[]; mcpServers: unknown[]; provider: { prices: unknown }; autonomousAgentEnabledToolIds: string[] });

  it('"Add model" opens an empty form; the saved model is listed; the four prices are labelled fields', async () => {
    const settings = await openSettings(page);
    await row(settings, "Other models").getByRole("button", { name: "Add model" }).click();
    const form = page.getByRole("dialog", { name: "Add model" });
    await expect(form.getByRole("textbox", { name: "Model name" }).inputValue()).resolves.toBe("");
    await form.getByRole("combobox", { name: "Provider" }).selectOption({ label: "Ollama (on this computer)" });
    await expect(form.getByRole("textbox", { name: "Base URL" }).inputValue()).resolves.toBe("http://127.0.0.1:11434/v1");
    await form.getByRole("textbox", { name: "Model name" }).fill("qwen3:8b");
    await form.getByRole("textbox", { name: "Input price (dollars per million tokens)" }).fill("0.1");
    await form.getByRole("button", { name: "Save" }).click();
    await form.waitFor({ state: "detached" });
    await row(settings, "Other models").getByText("qwen3:8b (Ollama (on this computer))").waitFor();
    expect((await savedSettings()).models).toEqual([expect.objectContaining({ model: "qwen3:8b", preset: "ollama", prices: { input: 0.1, output: null, cacheRead: null, cacheWrite: null } })]);

    const prices = row(settings, "Prices");
    await expect(prices.locator(".vault-copilot-price-label").allInnerTexts()).resolves.toEqual(["Input", "Output", "Cache read", "Cache write"]);
    await prices.getByRole("textbox", { name: "Output price (dollars per million tokens)" }).fill("15");
    expect(await eventually(async () => (await savedSettings()).provider.prices, { input: null, output: 15, cacheRead: null, cacheWrite: null })).toEqual({ input: null, output: 15, cacheRead: null, cacheWrite: null });
  });

  it("an MCP server added through its form shows in the JSON view, and the JSON edited shows in the list", async () => {
    const settings = await openSettings(page);
    await row(settings, "Servers").getByRole("button", { name: "Add server" }).click();
    const form = page.getByRole("dialog", { name: "Add MCP server" });
    await form.getByRole("textbox", { name: "Name" }).fill("remote");
    await form.getByRole("combobox", { name: "Transport" }).selectOption("http");
    await expect(form.getByRole("textbox", { name: "Command" }).isVisible()).resolves.toBe(false);
    await form.getByRole("textbox", { name: "URL" }).fill("https://mcp.example.org/mcp");
    await form.getByRole("textbox", { name: "Headers" }).fill("Authorization=remote-token");
    await form.getByRole("button", { name: "Save" }).click();
    await form.waitFor({ state: "detached" });
    const server = { name: "remote", enabled: true, transport: "http", url: "https://mcp.example.org/mcp", headers: { Authorization: "remote-token" } };
    const json = row(settings, "Servers as JSON");
    await expect(json.getByRole("textbox").isVisible()).resolves.toBe(false);
    await json.getByRole("button", { name: "Show JSON" }).click();
    expect(JSON.parse(await json.getByRole("textbox").inputValue())).toEqual([server]);
    await json.getByRole("textbox").fill(JSON.stringify([{ ...server, enabled: false }]));
    await row(settings, "Servers").getByText("URL: https://mcp.example.org/mcp (off)").waitFor();
    expect((await savedSettings()).mcpServers).toEqual([{ ...server, enabled: false }]);
  });

  it("Test embeddings server makes a real request and says it works in green; Test connection's problem is red", async () => {
    const settings = await openSettings(page);
    await row(settings, "Embeddings base URL").getByRole("textbox").fill(embeddings().baseUrl);
    await row(settings, "Embeddings model").getByRole("textbox").fill("bge-m3");
    const test = row(settings, "Test embeddings server");
    await test.getByRole("button", { name: "Test" }).click();
    const works = test.getByText("The embeddings server works.");
    await works.waitFor();
    await test.getByText('✓ The server answered: "bge-m3" gives vectors of 32 numbers.').waitFor();
    const green = await colours(works, "--text-success");
    expect(green.shown).toBe(green.expected);
    expect(embeddings().requests.at(-1)).toMatchObject({ model: "bge-m3", input: ["Vault Copilot checks the embeddings server."] });

    // No chat model answers at this address: the connection's verdict is a problem, in the error colour.
    const connection = row(settings, "Test connection");
    await connection.getByRole("button", { name: "Test connection" }).click();
    const problem = connection.getByText("Connection has a problem.");
    await problem.waitFor({ timeout: 60_000 });
    const red = await colours(problem, "--text-error");
    expect(red.shown).toBe(red.expected);
  });

  it("the tool list's switches are Obsidian toggles: a click on one switches the tool", async () => {
    const settings = await openSettings(page);
    const toggle = settings.getByRole("checkbox", { name: "Use Read note" });
    const container = toggle.locator("xpath=..");
    const on = await toggle.isChecked();
    await expect(container.getAttribute("class")).resolves.toBe(on ? "checkbox-container is-enabled" : "checkbox-container");
    await container.click();
    expect(await eventually(async () => (await savedSettings()).autonomousAgentEnabledToolIds.includes("readNote"), !on)).toBe(!on);
    await expect(toggle.isChecked()).resolves.toBe(!on);
  });

  it.each(["dark", "light"] as const)("screenshot of the settings tab, %s theme", async (theme) => {
    await page.close();
    ({ page, consoleErrors } = await settingsDemo.openPage({ theme, viewport: { width: 1100, height: 800 } }));
    const settings = await openSettings(page);
    await row(settings, "Prices").scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath(`settings-${theme}.png`) });
    await row(settings, "Other models").getByRole("button", { name: "Add model" }).click();
    const form = page.getByRole("dialog", { name: "Add model" });
    await form.waitFor();
    await page.screenshot({ path: screenshotPath(`settings-model-form-${theme}.png`) });
    await form.getByRole("button", { name: "Close" }).click();
    await row(settings, "Tools the agent may use").getByRole("checkbox", { name: "Use Read note" }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath(`settings-tools-${theme}.png`) });
    await settings.getByRole("button", { name: "Close" }).click();
    // A notice, as Obsidian shows one.
    await runCommand(page, "Create starter prompts");
    await page.locator(".notice").first().waitFor();
    await page.screenshot({ path: screenshotPath(`notice-${theme}.png`) });
  });
});
