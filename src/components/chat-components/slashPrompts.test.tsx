/**
 * The user's prompts in the chat view: "/" lists them (fuzzy), Enter runs one with the open note
 * and its selection; an edit prompt's rewrite is proposed as a diff in the conversation, written
 * exactly when accepted and not at all when rejected. The real CopilotView on the Obsidian double,
 * the real runners, the scripted server and a real folder.
 */
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { chatViewSession } from "../../../test/helpers/chatViewSession";
import type { Script } from "../../../test/helpers/openAIServer";
import { contentText } from "../../../test/helpers/runnerHarness";
import { MarkdownView, TFile } from "../../../test/obsidian/obsidian";
import { languageFor } from "../../i18n/languages";
import type { MessageKey, MessageValues } from "../../i18n/messages";
import { translate } from "../../i18n/translate";

jest.setTimeout(20_000);

const DRAFT = "# Draft\n\nThis sentense has a eror.\nThe second line stays.\n";
const NOTES = {
  "Notes/Draft.md": DRAFT,
  "copilot/prompts/Fix grammar.md": "---\ndescription: Fix spelling and grammar\nedit: true\n---\nFix the grammar of {{selection}}.\n",
  "copilot/prompts/Summarize.md": "---\ndescription: Summarize the note\n---\nSummarize {{activeNote}}.\n",
  "copilot/prompts/Translate.md": "Translate {{selection}} into French.\n",
};

const session = chatViewSession({ settings: { defaultMode: "chat" }, notes: NOTES });

/** The view, with the draft open in an editor and its first sentence selected. */
async function open(script: Script) {
  const chat = await session.open(script);
  const file = chat.app.vault.getAbstractFileByPath("Notes/Draft.md");
  if (!(file instanceof TFile)) throw new Error("no draft");
  await act(() => chat.app.workspace.openFile(file));
  chat.app.workspace.getActiveViewOfType(MarkdownView)!.editor.setSelection({ line: 2, ch: 0 }, { line: 2, ch: 25 });
  return chat;
}

const box = () => screen.getByRole("textbox", { name: "Message" });
const type = (text: string) => act(() => fireEvent.change(box(), { target: { value: text, selectionStart: text.length } }));
const options = () => within(screen.getByRole("listbox", { name: "Prompts" })).getAllByRole("option").map((option) => option.textContent);
const note = () => readFileSync(join(session.chat.vault.root, "Notes/Draft.md"), "utf8");

describe("prompts in the chat view", () => {
  it('"/" lists the prompts, fuzzy; Enter runs one with the open note attached before it', async () => {
    await open([{ text: "A short draft." }]);
    await type("/");
    await waitFor(() => expect(options()).toEqual(["edit Fix grammar — Fix spelling and grammar", "prompt Summarize — Summarize the note", "prompt Translate"]));
    await type("/smz");
    await waitFor(() => expect(options()).toEqual(["prompt Summarize — Summarize the note"]));
    await act(() => fireEvent.keyDown(box(), { key: "Enter" }));
    await waitFor(() => expect(screen.getByRole("button", { name: "Send" })).toBeTruthy());
    expect((box() as HTMLTextAreaElement).value).toBe("");
    const user = contentText(session.server.requests[0]!.body.messages.at(-1)!.content);
    expect(user.indexOf("This sentense has a eror.")).toBeGreaterThan(-1);
    expect(user.indexOf("[User query]: Summarize the note [[Notes/Draft]] (attached above).")).toBeGreaterThan(user.indexOf("This sentense has a eror."));
  });

  it('a prompt run from "/" shows "/Summarize · Черновик" as the question, in the chat, its note\'s name and Chat history; the model reads the filled prompt', async () => {
    const chat = await session.open([{ text: "Кратко: черновик." }, { text: "Ещё короче." }], { notes: { ...NOTES, "Notes/Черновик.md": DRAFT } });
    const file = chat.app.vault.getAbstractFileByPath("Notes/Черновик.md");
    if (!(file instanceof TFile)) throw new Error("no draft");
    await act(() => chat.app.workspace.openFile(file));
    await type("/smz");
    await waitFor(() => expect(options()).toHaveLength(1));
    await act(() => fireEvent.keyDown(box(), { key: "Enter" }));
    await waitFor(() => expect(screen.getByRole("button", { name: "Send" })).toBeTruthy());
    const question = () => within(screen.getByRole("log", { name: "Conversation" })).getAllByRole("article", { name: "You" })[0]!;
    expect(question().querySelector(".vault-copilot-user-text")?.textContent).toBe("/Summarize · Черновик");
    expect(question().textContent).not.toContain("attached above");
    // A prompt's question is asked again with Regenerate, not edited as typed words.
    expect(within(question()).queryByRole("button", { name: "Edit" })).toBeNull();
    expect(contentText(session.server.requests[0]!.body.messages.at(-1)!.content)).toContain("[User query]: Summarize the note [[Notes/Черновик]] (attached above).");

    // The note keeps both: the heading what the user wrote, the text what the model read; it is named from the first.
    const folder = join(chat.vault.root, "copilot/chats");
    const chatNotes = () => readdirSync(folder).filter((entry) => entry.endsWith(".md"));
    await waitFor(() => expect(chatNotes()).toHaveLength(1));
    const [name] = chatNotes();
    expect(name).toMatch(/^\d{4}-\d{2}-\d{2} Summarize · Черновик\.md$/);
    await waitFor(() => expect(readFileSync(join(folder, name!), "utf8")).toContain("Кратко: черновик."));
    const saved = readFileSync(join(folder, name!), "utf8");
    expect(saved).toMatch(/## You · \S+ · \/Summarize · Черновик\n\nSummarize the note \[\[Notes\/Черновик\]\] \(attached above\)\./);

    // Regenerate sends the filled prompt again, and the question still shows what the user wrote.
    await act(() => fireEvent.click(screen.getByRole("button", { name: "Regenerate" })));
    await waitFor(() => expect(session.server.requests).toHaveLength(2));
    await waitFor(() => expect(screen.getByRole("button", { name: "Send" })).toBeTruthy());
    expect(contentText(session.server.requests[1]!.body.messages.at(-1)!.content)).toContain("[User query]: Summarize the note [[Notes/Черновик]] (attached above).");
    expect(question().querySelector(".vault-copilot-user-text")?.textContent).toBe("/Summarize · Черновик");

    await act(() => fireEvent.click(screen.getByRole("button", { name: "Chat history" })));
    const saved2 = await within(screen.getByRole("region", { name: "Saved chats" })).findByRole("button", { name: "Summarize · Черновик" }, { timeout: 10_000 });
    expect(saved2).toBeTruthy();
  });

  it("an edit prompt proposes its rewrite as a diff: Reject writes nothing, Accept writes exactly it", async () => {
    await open([{ text: "This sentence has an error." }, { text: "This sentence has an error." }]);
    await type("/fix");
    await waitFor(() => expect(options()).toHaveLength(1));
    await act(() => fireEvent.keyDown(box(), { key: "Enter" }));
    const reject = await screen.findByRole("button", { name: "Reject" });
    expect(note()).toBe(DRAFT);
    await act(() => fireEvent.click(reject));
    await waitFor(() => expect(screen.getByRole("button", { name: "Send" })).toBeTruthy());
    expect(note()).toBe(DRAFT);

    await type("/fix");
    await waitFor(() => expect(options()).toHaveLength(1));
    await act(() => fireEvent.keyDown(box(), { key: "Enter" }));
    const accept = await screen.findByRole("button", { name: "Accept" });
    // An appearing card ignores Accept for its first moments.
    await waitFor(() => expect(accept.getAttribute("aria-disabled")).toBe("false"), { timeout: 3_000 });
    await act(() => fireEvent.click(accept));
    await waitFor(() => expect(note()).toBe("# Draft\n\nThis sentence has an error.\nThe second line stays.\n"));
  });

  it("an edit prompt without a selection says so and sends nothing", async () => {
    await open([]);
    session.chat.app.workspace.getActiveViewOfType(MarkdownView)!.editor.setSelection({ line: 0, ch: 0 }, { line: 0, ch: 0 });
    await type("/fix");
    await waitFor(() => expect(options()).toHaveLength(1));
    await act(() => fireEvent.keyDown(box(), { key: "Enter" }));
    await waitFor(() => expect(document.body.textContent).toContain('select the text "Fix grammar" should rewrite in a note first'));
    expect(session.server.requests).toHaveLength(0);
  });

  describe("in another language", () => {
    const chinese = (key: MessageKey, values?: MessageValues) => translate(languageFor("zh"), key, values);
    afterEach(() => window.localStorage.removeItem("language"));

    it("an edit prompt without a selection, and a prompt whose {{selection}} is empty, say so in the interface's language", async () => {
      window.localStorage.setItem("language", "zh");
      await open([{ text: "好的。" }]);
      session.chat.app.workspace.getActiveViewOfType(MarkdownView)!.editor.setSelection({ line: 0, ch: 0 }, { line: 0, ch: 0 });
      const message = () => screen.getByRole("textbox", { name: chinese("composer.message") });
      const run = async (typed: string) => {
        await act(() => fireEvent.change(message(), { target: { value: typed, selectionStart: typed.length } }));
        await waitFor(() => expect(within(screen.getByRole("listbox", { name: chinese("composer.prompts") })).getAllByRole("option")).toHaveLength(1));
        await act(() => fireEvent.keyDown(message(), { key: "Enter" }));
      };
      const notices = () => [...document.body.querySelectorAll(".notice")].map((notice) => notice.textContent);
      await run("/fix");
      await waitFor(() => expect(notices()).toEqual(["Vault Copilot：请先在笔记中选中“Fix grammar”要改写的文字。"]));
      expect(session.server.requests).toHaveLength(0);
      await run("/transl");
      await waitFor(() => expect(notices().at(-1)).toBe("Vault Copilot：没有选中文字，所以 {{selection}} 为空。"));
      await waitFor(() => expect(session.server.requests).toHaveLength(1));
    });
  });
});
