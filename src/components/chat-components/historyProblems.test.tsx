/**
 * Chat history's problems as the user reads them: a note in the history folder that is not a
 * chat (listed under "Notes that could not be read"), a chat note that cannot be opened (not a
 * chat, not UTF-8), and a reopened chat whose attached note is gone. In English the core's own
 * sentences as before; in another language the sentence for each case, paths as written. The
 * real CopilotView on the Obsidian double over a real folder.
 */
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { chatViewSession } from "../../../test/helpers/chatViewSession";
import { savedChat } from "../../../test/helpers/savedChat";
import { serializeChat } from "../../history/chatNoteFormat";
import { languageFor } from "../../i18n/languages";
import type { MessageKey } from "../../i18n/messages";
import { translate } from "../../i18n/translate";

jest.setTimeout(30_000);

const FOLDER = "copilot/chats";
const GONE = "Сад/Исчезнувший план 消失.md";
const session = chatViewSession({ settings: { defaultMode: "chat" } });
const notices = () => [...document.body.querySelectorAll(".notice")].map((notice) => notice.textContent);

/** The history folder: a chat whose attached note is gone, a note that is not a chat, one not UTF-8, one whose chat-id is not text. */
async function openHistory(language: string): Promise<(key: MessageKey) => string> {
  const words = (key: MessageKey) => translate(languageFor(language), key);
  const { vault } = await session.open([]);
  const chat = savedChat("gone", "Что в плане?", "2026-11-03T10:00:00Z");
  vault.write(`${FOLDER}/План.md`, serializeChat({ ...chat, messages: chat.messages.map((message) => (message.role === "user" ? { ...message, context: [{ kind: "note", path: GONE }] } : message)) }));
  vault.write(`${FOLDER}/Песня 歌.md`, "---\nchat-id: x\nmode: петь\n---\n## You\n\nhi\n");
  vault.write(`${FOLDER}/Кафе.md`, new Uint8Array([...new TextEncoder().encode("---\nchat-id: y\nmode: chat\n---\n## You\n\ncaf"), 0xe9, 0x0a]));
  vault.write(`${FOLDER}/Сломан.md`, "---\nchat-id: 7\n---\nnot a chat\n");
  await act(() => fireEvent.click(screen.getByRole("button", { name: words("header.history") })));
  await waitFor(() => expect(screen.getByRole("list", { name: words("history.unreadable") })).toBeTruthy());
  return words;
}

/** Clicks a saved chat by its title and waits for the Notice it gives. */
async function openChat(title: string): Promise<string | null | undefined> {
  const before = notices().length;
  await act(() => fireEvent.click(screen.getByRole("button", { name: title })));
  await waitFor(() => expect(notices().length).toBeGreaterThan(before), { timeout: 10_000 });
  return notices().at(-1);
}

describe("Chat history's problems in the interface's language", () => {
  afterEach(() => window.localStorage.removeItem("language"));

  it("in English, read the core's sentences as before", async () => {
    const words = await openHistory("en");
    expect(screen.getByRole("list", { name: words("history.unreadable") }).textContent).toBe(`“${FOLDER}/Сломан.md” is not a chat Copilot can read (its chat-id is not text); it is left as it is.`);
    expect(await openChat("Песня 歌")).toBe(`"${FOLDER}/Песня 歌.md" is not a chat Copilot can read: its mode "петь" is not one of chat, vault-qa, agent. It was left as it is.`);
    expect(await openChat("Кафе")).toMatch(new RegExp(`^"${FOLDER}/Кафе\\.md" is not UTF-8 text \\(a Latin-1 export or a binary file\\?\\)`));
    expect(await openChat("План")).toBe(`Vault Copilot: ${GONE}: No file at "${GONE}"`);
  });

  it("in German, say each by its case", async () => {
    window.localStorage.setItem("language", "de");
    const words = await openHistory("de");
    expect(screen.getByRole("list", { name: words("history.unreadable") }).textContent).toBe(`„${FOLDER}/Сломан.md“ ist kein Chat, den Copilot lesen kann (die chat-id ist kein Text); er bleibt, wie er ist.`);
    expect(await openChat("Песня 歌")).toBe(`„${FOLDER}/Песня 歌.md“ ist kein Chat, den Copilot lesen kann: der Modus „петь“ ist keiner von chat, vault-qa, agent. Die Notiz bleibt, wie sie ist.`);
    expect(await openChat("Кафе")).toMatch(new RegExp(`^„${FOLDER}/Кафе\\.md“ ist kein UTF-8-Text \\(ein Latin-1-Export oder eine Binärdatei\\?\\)`));
    expect(await openChat("План")).toBe(`Vault Copilot: „${GONE}“ konnte nicht angehängt werden: Keine Notiz passt zu „${GONE}“.`);
  });

  it("in Japanese, say each by its case", async () => {
    window.localStorage.setItem("language", "ja");
    const words = await openHistory("ja");
    expect(within(screen.getByRole("list", { name: words("history.unreadable") })).getByRole("listitem").textContent).toBe(`「${FOLDER}/Сломан.md」は Copilot が読めるチャットではありません（chat-id がテキストではありません）。そのままにしています。`);
    expect(await openChat("Песня 歌")).toBe(`「${FOLDER}/Песня 歌.md」は Copilot が読めるチャットではありません：モード「петь」は chat, vault-qa, agent のどれでもありません。そのままにしています。`);
    expect(await openChat("Кафе")).toMatch(new RegExp(`^「${FOLDER}/Кафе\\.md」は UTF-8 のテキストではありません`));
    expect(await openChat("План")).toBe(`Vault Copilot：「${GONE}」を添付できませんでした：「${GONE}」に一致するノートはありません。`);
  });
});
