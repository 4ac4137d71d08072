/**
 * "Edit selection with Copilot" as the user meets it: the command's box takes the focus and shows
 * what will change; the edit runs as an exchange of its own (a new chat, the open one kept in its
 * note), its question the instruction as typed, its answer shown once, as the diff. The real
 * CopilotView and prompt commands on the Obsidian double, the real runners and tools, the scripted
 * server on 127.0.0.1 and a real folder.
 */
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { Plugin as ObsidianPlugin } from "obsidian";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { chatViewSession } from "../../test/helpers/chatViewSession";
import type { Script } from "../../test/helpers/openAIServer";
import { contentText } from "../../test/helpers/runnerHarness";
import { MarkdownView, Plugin, TFile } from "../../test/obsidian/obsidian";
import { registerPromptCommands } from "./promptCommands";

jest.setTimeout(30_000);

const DRAFT = "# Черновик\n\nЭто предложениe с ошибкой.\nВторая строка остаётся.\n";
const session = chatViewSession({ settings: { defaultMode: "chat" } });
/** A bound for a loaded machine, not a measurement: each wait ends as soon as the view shows it. */
const patiently = { timeout: 10_000 };

/** The view with the plugin's prompt commands, the draft open in an editor and its second sentence selected. */
async function open(script: Script) {
  const chat = await session.open(script, { notes: { "Заметки/Черновик.md": DRAFT } });
  const plugin = new Plugin(chat.app, { id: "vault-copilot", name: "Vault Copilot", version: "0", minAppVersion: "0", author: "", description: "" });
  const view = chat.view;
  registerPromptCommands(plugin as unknown as ObsidianPlugin, {
    prompts: chat.services.prompts,
    vault: chat.services.vault,
    promptsFolder: () => "copilot/prompts",
    openChatView: () => Promise.resolve(view),
    findChatView: () => view,
  });
  const file = chat.app.vault.getAbstractFileByPath("Заметки/Черновик.md");
  if (!(file instanceof TFile)) throw new Error("no draft");
  await act(() => chat.app.workspace.openFile(file));
  chat.app.workspace.getActiveViewOfType(MarkdownView)!.editor.setSelection({ line: 2, ch: 0 }, { line: 2, ch: 26 });
  return { chat, plugin };
}

const box = () => screen.getByRole("textbox", { name: "Message" });
const conversation = () => screen.getByRole("log", { name: "Conversation" });
const idle = () => waitFor(() => expect(screen.getByRole("button", { name: "Send" })).toBeTruthy(), patiently);
const note = () => readFileSync(join(session.chat.vault.root, "Заметки/Черновик.md"), "utf8");

async function ask(text: string): Promise<void> {
  await act(() => fireEvent.change(box(), { target: { value: text } }));
  await act(() => fireEvent.keyDown(box(), { key: "Enter" }));
}

describe("Edit selection with Copilot", () => {
  it("asks in a box that has the focus and shows the note, lines and text; runs as a chat of its own, the instruction as its question, the rewrite shown once as the diff", async () => {
    const { chat, plugin } = await open([{ text: "Розы любят солнце." }, { text: "Это предложение без ошибки." }]);
    await ask("Где растут розы?");
    await idle();
    const folder = join(chat.vault.root, "copilot/chats");
    const chatNotes = () => readdirSync(folder).filter((name) => name.endsWith(".md"));
    await waitFor(() => expect(chatNotes()).toHaveLength(1), patiently);

    expect(await act(() => plugin.runCommand("edit-selection"))).toBe(true);
    const dialog = document.querySelector<HTMLElement>(".modal-container .vault-copilot-edit-instruction")!;
    expect(dialog.querySelector(".vault-copilot-edit-place")?.textContent).toBe("Заметки/Черновик.md, line 3");
    expect(within(dialog).getByRole("figure", { name: "Selected text" }).textContent).toBe("Это предложениe с ошибкой.");
    const instruction = within(dialog).getByRole("textbox", { name: "Instruction" });
    expect(document.activeElement).toBe(instruction);

    await act(() => fireEvent.input(instruction, { target: { value: "Исправь ошибку 🙂" } }));
    await act(() => fireEvent.keyDown(instruction, { key: "Enter" }));
    expect(document.querySelector(".modal-container")).toBeNull();
    // A chat of its own: the earlier exchange is not in it, and stays in its note.
    const card = await within(conversation()).findByRole("region", { name: "Edit Заметки/Черновик.md?" }, patiently);
    expect(conversation().textContent).not.toContain("Где растут розы?");
    const questions = within(conversation()).getAllByRole("article", { name: "You" });
    expect(questions.map((question) => question.querySelector(".vault-copilot-user-text")?.textContent)).toEqual(["Исправь ошибку 🙂"]);
    // The model read the filled instruction: the selection attached, the rewrite asked for.
    const sent = contentText(session.server.requests[1]!.body.messages.at(-1)!.content);
    expect(sent).toContain("Это предложениe с ошибкой.");
    expect(sent).toContain("[User query]: Исправь ошибку 🙂\n\nthe selected text (attached above)");
    // The rewrite is shown once: as the card's diff, not as answer text beside it.
    const answer = within(conversation()).getByRole("article", { name: "Copilot" });
    expect(answer.querySelector(":scope > .vault-copilot-markdown")).toBeNull();
    expect(within(card).getByRole("table", { name: "Proposed change" }).textContent).toContain("Это предложение без ошибки.");

    const accept = within(card).getByRole("button", { name: "Accept" });
    await waitFor(() => expect(accept.getAttribute("aria-disabled")).toBe("false"), patiently);
    await act(() => fireEvent.click(accept));
    await idle();
    expect(note()).toBe("# Черновик\n\nЭто предложение без ошибки.\nВторая строка остаётся.\n");
    expect(answer.querySelector(":scope > .vault-copilot-markdown")).toBeNull();
    expect(answer.querySelector(".vault-copilot-tool-title")?.textContent).toBe("Edited +1 −1 · Заметки/Черновик.md");
    // Two notes: the first chat as it was, and the edit's own, named from the instruction.
    await waitFor(() => expect(chatNotes()).toHaveLength(2), patiently);
    expect(chatNotes().some((name) => name.endsWith(" Исправь ошибку 🙂.md"))).toBe(true);
  });

  it("Regenerate after a rejected rewrite proposes a new rewrite, again as a diff", async () => {
    const { plugin } = await open([{ text: "Первый вариант." }, { text: "Второй вариант." }]);
    await act(() => plugin.runCommand("edit-selection"));
    const instruction = screen.getByRole("textbox", { name: "Instruction" });
    await act(() => fireEvent.input(instruction, { target: { value: "Перепиши" } }));
    await act(() => fireEvent.keyDown(instruction, { key: "Enter" }));
    const first = await within(conversation()).findByRole("region", { name: "Edit Заметки/Черновик.md?" }, patiently);
    await act(() => fireEvent.click(within(first).getByRole("button", { name: "Reject" })));
    await idle();
    await act(() => fireEvent.click(screen.getByRole("button", { name: "Regenerate" })));
    const second = await within(conversation()).findByRole("region", { name: "Edit Заметки/Черновик.md?" }, patiently);
    expect(within(second).getByRole("table", { name: "Proposed change" }).textContent).toContain("Второй вариант.");
    expect(within(conversation()).getByRole("article", { name: "Copilot" }).querySelector(":scope > .vault-copilot-markdown")).toBeNull();
    await act(() => fireEvent.click(within(second).getByRole("button", { name: "Reject" })));
    await idle();
    expect(note()).toBe(DRAFT);
  });

  it("is refused when it would drop a chat that is not saved", async () => {
    const { plugin } = await open([{ text: "Ответ." }]);
    await act(() => session.chat.services.settings.update((settings) => ({ ...settings, history: { ...settings.history, autosave: false } })));
    await ask("Вопрос без сохранения");
    await idle();
    await act(() => plugin.runCommand("edit-selection"));
    expect(document.querySelector(".modal-container")).toBeNull();
    expect(document.querySelector(".notice-container")?.textContent).toContain("The open chat is not saved");
    expect(within(conversation()).getByText("Вопрос без сохранения")).toBeTruthy();
  });

  it("is refused before anything is typed while the open chat still answers, and that answer goes on", async () => {
    const { plugin } = await open([{ text: "Долгий ответ", holdOpen: true }]);
    await ask("Расскажи подробно");
    await within(conversation()).findByText("Долгий ответ", undefined, patiently);
    expect(await act(() => plugin.runCommand("edit-selection"))).toBe(true);
    expect(document.querySelector(".modal-container")).toBeNull();
    expect(document.querySelector(".notice-container")?.textContent).toContain("Copilot is still answering in the chat");
    expect(screen.getByRole("button", { name: "Stop" })).toBeTruthy();
    expect(within(conversation()).getAllByRole("article", { name: "You" })).toHaveLength(1);
    await act(() => fireEvent.click(screen.getByRole("button", { name: "Stop" })));
    await idle();
    expect(note()).toBe(DRAFT);
  });
});
