import { act, screen, waitFor, within } from "@testing-library/react";
import { readFileSync, readdirSync, existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Plugin as ObsidianPlugin } from "obsidian";
import { Plugin, MarkdownView } from "../../../test/obsidian/obsidian";
import { openChatView, type ChatViewSetup } from "../../../test/helpers/chatViewHarness";
import { startOpenAIServer, type OpenAIServer, type ScriptedResponse } from "../../../test/helpers/openAIServer";
import { approveEverything, refuseEverything } from "../../ports/approval";
import { languageFor } from "../../i18n/languages";
import type { MessageKey } from "../../i18n/messages";
import { translate } from "../../i18n/translate";
import { registerQuickQuestion } from "./quickQuestionCommand";

const NOTE_PATH = "Дневник/Встреча.md";
const NOTE = "# Встреча\n\nМы обсудили бюджет: 42 000 евро.\nРешение отложено до пятницы.\n";

describe("the quick question at the cursor", () => {
  let server: OpenAIServer;
  let setup: ChatViewSetup;
  let plugin: Plugin;
  let answers: ScriptedResponse[];
  let approve = true;
  let asked: string[] = [];

  beforeEach(async () => {
    answers = [];
    server = await startOpenAIServer(() => answers.shift() ?? { status: 500, message: "nothing scripted" });
    setup = await act(() => openChatView(server, { notes: { [NOTE_PATH]: NOTE } }));
    plugin = new Plugin(setup.app, { id: "vault-copilot", name: "Vault Copilot", version: "0", minAppVersion: "0", author: "", description: "" });
    registerQuickQuestion(plugin as unknown as ObsidianPlugin, {
      vault: setup.services.vault,
      createRunner: () => setup.services.createRunner("chat", setup.settings.provider.model),
      replaceInFile: () => setup.services.registry.getAllTools().find((definition) => definition.metadata.id === "replaceInFile")?.tool,
      toolTimeoutMs: () => 10_000,
      openChatView: () => Promise.resolve(setup.view),
      approvals: () => {
        const port = approve ? approveEverything : refuseEverything("The user said no.");
        return {
          ...port,
          requestApproval: (proposal, signal) => {
            asked.push(proposal.path);
            return port.requestApproval(proposal, signal);
          },
        };
      },
    });
    await plugin.enable();
    asked = [];
    await act(() => setup.app.workspace.openFile(setup.app.vault.getFileByPath(NOTE_PATH)!));
  });

  afterEach(async () => {
    plugin.unload();
    await act(() => setup.close());
    await server.close();
  });

  const editor = () => setup.app.workspace.getActiveViewOfType(MarkdownView)!.editor;
  const panel = () => screen.getByRole("dialog", { name: "Quick question" });

  async function ask(question: string): Promise<HTMLElement> {
    expect(await plugin.runCommand("quick-question")).toBe(true);
    const box = within(panel()).getByRole("textbox", { name: "Quick question" });
    expect(document.activeElement).toBe(box);
    act(() => {
      (box as HTMLInputElement).value = question;
      box.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    });
    await waitFor(() => expect(within(panel()).getByRole("button", { name: "Insert" })).toHaveProperty("disabled", false));
    return within(panel()).getByRole("region", { name: "Answer" });
  }

  it("sends the question with the note attached and no tools, and shows the answer rendered as untrusted output", async () => {
    answers = [{ text: "**42 000 евро.** ![pixel](http://127.0.0.1:9/pixel.png) <img src=x onerror=alert(1)>" }];
    editor().setCursor({ line: 2, ch: 10 });
    const answer = await ask("Сколько денег?");
    await waitFor(() => expect(answer.textContent).toContain("42 000 евро."));
    expect(answer.querySelector("strong")?.textContent).toBe("42 000 евро.");
    // Model output loads nothing: the image and the raw HTML are not elements that fetch; the HTML reads as text.
    expect(answer.querySelector("img")).toBeNull();
    expect(answer.textContent).toContain("<img src=x onerror=alert(1)>");
    const request = server.requests[0]!;
    expect(request.body.tools).toBeUndefined();
    expect(JSON.stringify(request.body.messages)).toContain("Решение отложено до пятницы.");
    expect(JSON.stringify(request.body.messages)).toContain("Сколько денег?");
  });

  it("Insert puts the answer into the note at the cursor and closes the panel", async () => {
    answers = [{ text: " (сумма подтверждена)" }];
    editor().setCursor({ line: 2, ch: "Мы обсудили бюджет: 42 000 евро.".length });
    await ask("Подтверждено?");
    act(() => within(panel()).getByRole("button", { name: "Insert" }).click());
    expect(screen.queryByRole("dialog", { name: "Quick question" })).toBeNull();
    expect(editor().getValue()).toBe(NOTE.replace("42 000 евро.", "42 000 евро. (сумма подтверждена)"));
  });

  it("Replace selection goes through the edit tool's approval: approved, the note on disk has the answer; refused, nothing changes", async () => {
    const selected = "Решение отложено до пятницы.";
    const disk = () => readFileSync(join(setup.vault.root, NOTE_PATH), "utf8");
    for (const [round, approved, expected] of [
      [1, false, NOTE],
      [2, true, NOTE.replace(selected, "Решение принято в четверг.")],
    ] as const) {
      approve = approved;
      answers = [{ text: "Решение принято в четверг." }];
      editor().setSelection({ line: 3, ch: 0 }, { line: 3, ch: selected.length });
      await ask("Перепиши: решение принято в четверг");
      act(() => within(panel()).getByRole("button", { name: "Replace selection" }).click());
      // The diff was asked about, for this note: the edit went through the approval.
      await waitFor(() => expect(asked).toHaveLength(round));
      expect(asked[round - 1]).toBe(NOTE_PATH);
      await waitFor(() => expect(disk()).toBe(expected));
    }
  });

  it("Open in chat shows the exchange in the sidebar without asking the model again, and saves it as a chat note", async () => {
    answers = [{ text: "Бюджет — 42 000 евро." }];
    await ask("Какой бюджет?");
    const sent = server.requests.length;
    act(() => within(panel()).getByRole("button", { name: "Open in chat" }).click());
    const log = screen.getByRole("log", { name: "Conversation" });
    await waitFor(() => expect(within(log).getByRole("article", { name: "Copilot" }).textContent).toContain("Бюджет — 42 000 евро."));
    expect(within(log).getByRole("article", { name: "You" }).textContent).toContain("Какой бюджет?");
    expect(server.requests).toHaveLength(sent);
    const folder = join(setup.vault.root, setup.settings.history.folder);
    const saved = () => (existsSync(folder) ? readdirSync(folder).map((name) => readFileSync(join(folder, name), "utf8")) : []);
    await waitFor(() => expect(saved()).toEqual([expect.stringContaining("Бюджет — 42 000 евро.")]));
    expect(saved()[0]).toContain("Какой бюджет?");
  });

  describe("its problems, in the interface's language", () => {
    afterEach(() => window.localStorage.removeItem("language"));
    const notices = () => [...document.body.querySelectorAll(".notice")].map((notice) => notice.textContent);

    /** Asks in `language`, the note at the cursor deleted from disk first; resolves with the Notice and the panel's answer region once the run ended. */
    async function askWithoutNote(language: string): Promise<{ notice: string | null | undefined; answer: string | null }> {
      if (language !== "en") window.localStorage.setItem("language", language);
      const words = (key: MessageKey) => translate(languageFor(language), key);
      rmSync(join(setup.vault.root, NOTE_PATH));
      expect(await plugin.runCommand("quick-question")).toBe(true);
      const dialog = screen.getByRole("dialog", { name: words("quick.title") });
      const box = within(dialog).getByRole<HTMLInputElement>("textbox", { name: words("quick.title") });
      act(() => {
        box.value = "Сколько денег? 💶";
        box.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
      });
      await waitFor(() => expect(within(dialog).getByRole("button", { name: words("quick.ask") })).toHaveProperty("disabled", false));
      return { notice: notices().at(-1), answer: within(dialog).getByRole("region", { name: words("quick.answer") }).textContent };
    }

    it("in English, the note that cannot be read and the model's refusal read as before", async () => {
      answers = [{ status: 401, message: "Incorrect API key provided" }];
      const { notice, answer } = await askWithoutNote("en");
      expect(notice).toBe(`Vault Copilot: ${NOTE_PATH}: No file at "${NOTE_PATH}"`);
      expect(answer).toMatch(/^No answer: .*HTTP 401/);
    });

    it("in German and in Russian, each by its case", async () => {
      answers = [{ status: 401, message: "Incorrect API key provided" }];
      expect(await askWithoutNote("de")).toEqual({
        notice: `Vault Copilot: „${NOTE_PATH}“ konnte nicht angehängt werden: Keine Notiz passt zu „${NOTE_PATH}“.`,
        answer: "Keine Antwort: Der Anbieter hat den API-Schlüssel abgelehnt. Prüfe ihn in den Einstellungen.",
      });
      document.querySelectorAll(".notice").forEach((notice) => notice.remove());
      act(() => {
        screen.getByRole("dialog").dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
      });
      setup.vault.write(NOTE_PATH, NOTE);
      answers = [{ status: 401, message: "Incorrect API key provided" }];
      expect(await askWithoutNote("ru")).toEqual({
        notice: `Vault Copilot: Не удалось прикрепить «${NOTE_PATH}»: Нет заметки, подходящей под «${NOTE_PATH}».`,
        answer: "Нет ответа: Провайдер отклонил API-ключ. Проверьте его в настройках.",
      });
    });
  });

  it("Escape closes the panel and stops an answer still coming", async () => {
    answers = [{ text: "never ends", holdOpen: true }];
    expect(await plugin.runCommand("quick-question")).toBe(true);
    const box = within(panel()).getByRole<HTMLInputElement>("textbox", { name: "Quick question" });
    act(() => {
      box.value = "Долгий вопрос?";
      box.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    });
    await waitFor(() => expect(server.requests).toHaveLength(1));
    act(() => {
      box.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    });
    expect(screen.queryByRole("dialog", { name: "Quick question" })).toBeNull();
    await server.requests[0]!.closed;
  });
});
