/**
 * Projects in the chat view, in headless Chromium over the browser demo: the user picks the
 * project "Тезис" in the header, asks, and sees only its notes cited (Vault QA's "Searched notes",
 * the agent's search banner); the requests the model got hold nothing of the notes outside it; a
 * note outside it attached by hand says so on its chip; Chat history lists the project's chats.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { INSIDE_NOTES, leaksIn, PROJECT_NAME, projectVaultNotes, shownToModel } from "../helpers/projectVault";
import { chooseMode, conversation, lastAnswer, sendMessage, waitUntilIdle } from "./chatPage";
import { useScriptedDemo } from "./scriptedDemo";

jest.setTimeout(120_000);

/** The titles of the project's notes, as the view shows a note (its name without ".md"). */
const INSIDE_TITLES = new Set(Object.keys(INSIDE_NOTES).map((path) => (path.split("/").pop() ?? path).replace(/\.md$/, "").normalize("NFC")));

describe("projects in the chat view", () => {
  const scripted = useScriptedDemo(projectVaultNotes(), { modelTakesTools: true });
  const { queue, open } = scripted;

  async function openInProject(): Promise<Page> {
    const page = await open();
    const picker = page.getByRole("combobox", { name: "Project" });
    await picker.locator("option", { hasText: PROJECT_NAME }).waitFor({ state: "attached" });
    await picker.selectOption({ label: PROJECT_NAME });
    await page.getByRole("note").filter({ hasText: `Project ${PROJECT_NAME}` }).waitFor();
    return page;
  }

  it("Vault QA in a project cites only the project's notes, and the model is sent nothing from outside it", async () => {
    const page = await openInProject();
    await chooseMode(page, "Vault QA");
    const before = scripted.model.requests.length;
    queue.push({ text: "См. [[Глава 1]]." });
    const question = "методах methods 方法 планы";
    await sendMessage(page, question);
    await waitUntilIdle(page);
    const sources = lastAnswer(page).locator("details").filter({ hasText: "Searched notes" });
    await sources.locator("summary").click();
    const cited = await sources.getByRole("link").allInnerTexts();
    expect(cited.length).toBeGreaterThan(0);
    for (const title of cited) expect(INSIDE_TITLES.has(title.normalize("NFC"))).toBe(true);
    const request = scripted.model.requests[before]!;
    expect(leaksIn(shownToModel(request, [question]))).toEqual([]);
    expect(String(request.body.messages[0]?.content)).toContain(`# The project "${PROJECT_NAME}"`);
    await page.close();
  });

  it("the agent's search banner in a project lists only its notes, though the words are all over the vault", async () => {
    const page = await openInProject();
    await chooseMode(page, "Agent");
    const before = scripted.model.requests.length;
    queue.push({ toolCalls: [{ name: "localSearch", arguments: JSON.stringify({ query: "методах methods 方法", salientTerms: ["методах", "methods", "方法"] }) }] }, { text: "Готово." });
    await sendMessage(page, "Где я писал о методах?");
    await waitUntilIdle(page);
    const banner = lastAnswer(page).getByRole("group").filter({ hasText: "Searched your notes" });
    await banner.click();
    const hits = await banner.getByRole("link").allInnerTexts();
    expect(hits.length).toBeGreaterThan(0);
    for (const title of hits) expect(INSIDE_TITLES.has(title.normalize("NFC"))).toBe(true);
    const own = ["методах methods 方法", "методах", "methods", "方法"];
    for (const request of scripted.model.requests.slice(before)) expect(leaksIn(shownToModel(request, own))).toEqual([]);
    await page.close();
  });

  it("'@' offers only the project's notes; an open note outside it says so on its chip; the chat is kept in the project, Chat history filters by it, and reopening brings it back", async () => {
    const page = await openInProject();
    const box = page.getByRole("textbox", { name: "Message" });
    const suggestions = page.getByRole("listbox", { name: "Context suggestions" });
    await box.fill("@Глав");
    await suggestions.getByRole("option").first().waitFor();
    expect((await suggestions.getByRole("option").allInnerTexts()).join("\n")).toContain("Глава 1");
    await box.fill("@Зарплат");
    await suggestions.getByText("No").first().waitFor();
    expect(await suggestions.getByRole("option").count()).toBe(0);
    await box.fill("");

    // The note open in the editor goes with the message unless removed: outside the project, its chip says so.
    await page.evaluate(async () => {
      const file = window.app.vault.getFileByPath("Работа/Зарплата.md");
      if (!file) throw new Error("no note");
      await window.app.workspace.openFile(file);
    });
    const chips = page.getByRole("list", { name: "Context for the next message" });
    await chips.getByText("current note, outside the project", { exact: false }).waitFor();
    await page.getByRole("button", { name: "Remove Зарплата from the context" }).click();

    await chooseMode(page, "Chat");
    queue.push({ text: "Проектный ответ." });
    await sendMessage(page, "Привет из проекта");
    await waitUntilIdle(page);
    await page.getByRole("button", { name: "New chat" }).click();
    await page.getByRole("combobox", { name: "Project" }).selectOption({ label: "No project" });
    await page.getByRole("button", { name: "Chat history" }).click();
    const panel = page.getByRole("region", { name: "Saved chats" });
    const saved = panel.getByRole("button", { name: "Привет из проекта", exact: true });
    await saved.waitFor();
    const filter = page.getByRole("combobox", { name: "Chats of project" });
    await filter.selectOption({ label: "No project" });
    await saved.waitFor({ state: "detached" });
    await filter.selectOption({ label: PROJECT_NAME });
    await saved.click();
    await conversation(page).getByText("Проектный ответ.").waitFor();
    expect(await page.getByRole("combobox", { name: "Project" }).inputValue()).toBe(PROJECT_NAME);
    await page.close();
  });

  it("a folder's menu makes a project of it, the chat switches to it, and the command Switch project goes back to no project", async () => {
    const page = await open();
    // The file explorer's menu, as Obsidian builds it for a folder: the plugin adds its item.
    const titles = await page.evaluate(() => {
      const folder = window.app.vault.getFolderByPath("论文");
      if (!folder) throw new Error("no folder");
      const items: { title: string; click: () => void }[] = [];
      const menu = {
        addItem(build: (item: unknown) => void) {
          const entry: { title: string; click: () => void } = { title: "", click: () => undefined };
          const item = {
            setTitle: (title: string) => ((entry.title = title), item),
            setIcon: () => item,
            onClick: (click: () => void) => ((entry.click = click), item),
          };
          build(item);
          items.push(entry);
          return menu;
        },
      };
      window.app.workspace.trigger("file-menu", menu, folder, "file-explorer");
      items.find((entry) => entry.title === "New project from folder")?.click();
      return items.map((entry) => entry.title);
    });
    expect(titles).toContain("New project from folder");
    const picker = page.getByRole("combobox", { name: "Project" });
    await page.waitForFunction(() => document.querySelector<HTMLSelectElement>('select[aria-label="Project"]')?.value === "论文");
    expect(readFileSync(join(scripted.vault.root, "copilot/projects/论文.md"), "utf8")).toBe('---\nfolders:\n  - "论文"\n---\n\nInstructions for the project\'s chats go here.\n');
    await page.getByRole("note").filter({ hasText: "Project 论文" }).waitFor();

    await page.evaluate(() => window.demo.plugin?.runCommand("switch-project"));
    await page.getByRole("dialog").or(page.locator(".modal")).getByText("No project").waitFor();
    await page.locator(".modal").getByRole("button", { name: "Choose" }).first().click();
    await page.waitForFunction(() => document.querySelector<HTMLSelectElement>('select[aria-label="Project"]')?.value === "");
    expect(await picker.inputValue()).toBe("");
    await page.close();
  });
});
