/**
 * A failed tool call in a chat opened again from its note: the note keeps the failure's kind and
 * values (hidden from a person reading it in Obsidian), so the banner words it in the interface's
 * language as it did while the chat ran, and in English shows the tool's own sentence as before.
 * The real CopilotView over the real runners and tools, the scripted chat-completions server on
 * 127.0.0.1, a real folder of notes.
 */
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { getLanguage } from "obsidian";
import { chatViewSession } from "../../../test/helpers/chatViewSession";
import { languageFor } from "../../i18n/languages";
import { translate } from "../../i18n/translate";

jest.setTimeout(30_000);

/** A bound for a loaded machine, not a measurement: each wait ends as soon as the view shows it. */
const patiently = { timeout: 10_000 };
const session = chatViewSession({ settings: { defaultMode: "agent" } });
const FOLDER = "copilot/chats";
/** A note name in Cyrillic and Han with a decomposed (NFD) "й" and an emoji. */
const MISSING = "Нет такой заметки\u0306 笔记 🌱.md";
const ANSWER = "Не нашёл 😔";

afterEach(() => window.localStorage.removeItem("language"));

const log = () => screen.getByRole("log");
const errorSentences = () => [...log().querySelectorAll(".vault-copilot-tool-banner")].map((banner) => banner.querySelector(".vault-copilot-tool-error")?.textContent);

function chatNotePath(root: string): string {
  const [name] = readdirSync(join(root, FOLDER)).filter((entry) => entry.endsWith(".md"));
  return join(root, FOLDER, name!);
}

/** Opens the chat titled `title` from Chat history, in the interface's language of the moment. */
async function reopen(title: string, language: string | null): Promise<void> {
  // The header speaks the language the chat was last drawn in.
  const shown = languageFor(getLanguage());
  await act(() => fireEvent.click(screen.getByRole("button", { name: translate(shown, "header.newChat") })));
  await waitFor(() => expect(errorSentences()).toEqual([]), patiently);
  await act(() => fireEvent.click(screen.getByRole("button", { name: translate(shown, "header.history") })));
  const row = await within(screen.getByRole("region", { name: translate(shown, "history.saved") })).findByRole("button", { name: title }, patiently);
  if (language) window.localStorage.setItem("language", language);
  else window.localStorage.removeItem("language");
  await act(() => fireEvent.click(row));
  await waitFor(() => expect(log().textContent).toContain(ANSWER), patiently);
}

/** A chat in which the model reads a note that does not exist, and answers. */
async function chatWithFailedRead(question: string): Promise<string> {
  const { vault } = await session.open([{ toolCalls: [{ name: "readNote", arguments: JSON.stringify({ notePath: MISSING }) }] }, { text: ANSWER }]);
  const box = screen.getByRole("textbox", { name: "Message" });
  fireEvent.change(box, { target: { value: question } });
  fireEvent.keyDown(box, { key: "Enter" });
  await waitFor(() => expect(log().textContent).toContain(ANSWER), patiently);
  return vault.root;
}

describe("a failed tool call in a chat opened again from its note", () => {
  it("is worded by its kind in the interface's language, and in English as the tool's own sentence", async () => {
    const root = await chatWithFailedRead("Прочитай заметку");
    const english = errorSentences();
    expect(english).toEqual([`No note matches "${MISSING}". Use getFileTree to see the notes in the vault.`]);

    // The note keeps the kind and its values as an Obsidian comment in the tool callout, beside the English sentence the model read.
    await waitFor(() => expect(readFileSync(chatNotePath(root), "utf8")).toContain(`> %%failure: note-not-found ${JSON.stringify({ note: MISSING })}%%\n`), patiently);

    await reopen("Прочитай заметку", "ja");
    expect(errorSentences()).toEqual([`「${MISSING}」に一致するノートはありません。`]);

    await reopen("Прочитай заметку", "ru");
    expect(errorSentences()).toEqual([`Нет заметки, подходящей под «${MISSING}».`]);

    await reopen("Прочитай заметку", null);
    expect(errorSentences()).toEqual(english);
  });

  it("a note written before the kind was kept reads in English in every language, as it did", async () => {
    const root = await chatWithFailedRead("Старая заметка");
    const path = chatNotePath(root);
    await waitFor(() => expect(readFileSync(path, "utf8")).toContain("%%failure: "), patiently);
    await act(() => fireEvent.click(screen.getByRole("button", { name: "New chat" })));
    writeFileSync(path, readFileSync(path, "utf8").replace(/^> %%failure: .*\n/m, ""));

    await reopen("Старая заметка", "de");
    expect(errorSentences()).toEqual([`No note matches "${MISSING}". Use getFileTree to see the notes in the vault.`]);
  });

  it("a kind whose values do not name what its sentence needs (edited by hand, or by a later version) reads in English, never with a placeholder", async () => {
    const root = await chatWithFailedRead("Правленая заметка");
    const path = chatNotePath(root);
    await waitFor(() => expect(readFileSync(path, "utf8")).toContain("%%failure: "), patiently);
    await act(() => fireEvent.click(screen.getByRole("button", { name: "New chat" })));
    // The value under another name (a later version's "path"), Arabic and Han text, NFD.
    writeFileSync(path, readFileSync(path, "utf8").replace(/^> %%failure: .*$/m, `> %%failure: note-not-found ${JSON.stringify({ path: "ملاحظة 笔记\u0306" })}%%`));

    await reopen("Правленая заметка", "ru");
    expect(errorSentences()).toEqual([`No note matches "${MISSING}". Use getFileTree to see the notes in the vault.`]);
  });
});
