/**
 * The "Chat history" panel in the real CopilotView (Obsidian double), over the real runners, the
 * scripted chat-completions server and a real folder: chats are saved as notes as they go, listed
 * newest first, searched, opened (writing nothing), renamed and deleted.
 */
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { chatViewSession } from "../../../test/helpers/chatViewSession";
import type { Script } from "../../../test/helpers/openAIServer";
import { parseChat, serializeChat } from "../../history/chatNoteFormat";
import { savedChat } from "../../../test/helpers/savedChat";

jest.setTimeout(30_000);

const FOLDER = "copilot/chats";
const session = chatViewSession({ settings: { defaultMode: "chat" } });
const open = (script: Script) => session.open(script);

async function send(text: string): Promise<void> {
  const box = screen.getByRole("textbox", { name: "Message" });
  fireEvent.change(box, { target: { value: text } });
  fireEvent.keyDown(box, { key: "Enter" });
  await waitFor(() => expect(screen.getByRole("button", { name: "Send" })).toBeTruthy());
}

function chatNotes(): string[] {
  const folder = join(session.chat.vault.root, FOLDER);
  return existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith(".md")).sort() : [];
}


const showHistory = () => act(() => fireEvent.click(screen.getByRole("button", { name: "Chat history" })));
const rows = () => within(screen.getByRole("region", { name: "Saved chats" })).queryAllByRole("listitem");
const rowTitles = () => rows().map((row) => row.querySelector(".vault-copilot-history-open")?.textContent);
const groupNames = () => within(screen.getByRole("region", { name: "Saved chats" })).queryAllByRole("group").map((group) => group.getAttribute("aria-label"));
/** Opens a chat's "⋯" menu and clicks one of its items. */
async function chooseFromMenu(title: string, item: string): Promise<void> {
  await act(() => fireEvent.click(screen.getByRole("button", { name: `Actions for ${title}` })));
  await act(() => fireEvent.click(within(screen.getByRole("menu", { name: `Actions for ${title}` })).getByRole("menuitem", { name: item })));
}
/** A bound for a loaded machine, not a measurement: an answer's Markdown, and the list of saved chats, are drawn a moment after the click (the wait ends once they are). */
const rendered = { timeout: 10_000 };
const conversationTexts = () => within(screen.getByRole("log", { name: "Conversation" })).queryAllByRole("article").map((article) => article.textContent ?? "");

describe("Chat history panel", () => {
  it("saves the chat as it goes, lists it, and reopens a chat that goes on in the same note", async () => {
    const { vault } = await open((request) => ({ text: `Answer ${request.index + 1}` }));
    vault.write(`${FOLDER}/2026-11-01 Older chat.md`, serializeChat(savedChat("older", "Older chat", "2026-11-01T10:00:00Z")));
    await send("Where do roses grow?");
    expect(chatNotes()).toHaveLength(2);
    await act(() => fireEvent.click(screen.getByRole("button", { name: "New chat" })));
    await showHistory();
    await waitFor(() => expect(rowTitles()).toHaveLength(2));
    // Newest first: the chat just made, then the older one; the names without their date (a column has it).
    expect(rowTitles()).toEqual(["Where do roses grow", "Older chat"]);
    expect(groupNames()).toEqual(["Today", "Older"]);

    await act(() => fireEvent.click(screen.getByRole("button", { name: "Older chat" })));
    await waitFor(() => expect(conversationTexts().join("|")).toContain("Answer to Older chat"), rendered);
    expect(screen.queryByRole("region", { name: "Saved chats" })).toBeNull();
    await send("And now?");
    const requestMessages = session.server.requests.at(-1)?.body.messages.map((message) => message.content) ?? [];
    expect(requestMessages).toContainEqual("Older chat");
    expect(requestMessages).toContainEqual("Answer to Older chat");
    const reopened = () => parseChat(readFileSync(join(vault.root, FOLDER, "2026-11-01 Older chat.md"), "utf8"));
    // The answer's end is written just after the view shows it.
    await waitFor(() =>
      expect(reopened().messages.map((message) => (message.role === "user" ? message.text : message.parts.map((part) => (part.type === "text" ? part.text : "")).join("")))).toEqual([
        "Older chat",
        "Answer to Older chat",
        "And now?",
        "Answer 2",
      ]),
    );
    expect(chatNotes()).toHaveLength(2);
  });

  it("opening and switching between 100 chats writes no file", async () => {
    const { vault } = await open([]);
    for (let index = 0; index < 100; index++) {
      const day = String((index % 28) + 1).padStart(2, "0");
      vault.write(`${FOLDER}/Chat ${index}.md`, serializeChat(savedChat(`chat-${index}`, `Question ${index}`, `2026-10-${day}T${String(index % 24).padStart(2, "0")}:00:00Z`)));
    }
    const before = new Map(chatNotes().map((name) => [name, { text: readFileSync(join(vault.root, FOLDER, name), "utf8"), mtime: statSync(join(vault.root, FOLDER, name)).mtimeMs }]));
    await showHistory();
    await waitFor(() => expect(rows()).toHaveLength(100), rendered);
    for (let index = 0; index < 100; index++) {
      if (!screen.queryByRole("region", { name: "Saved chats" })) await showHistory();
      const button = await screen.findByRole("button", { name: `Chat ${index}` }, rendered);
      await act(() => fireEvent.click(button));
      await waitFor(() => expect(conversationTexts().join("|")).toContain(`Answer to Question ${index}`), rendered);
    }
    expect(chatNotes()).toEqual([...before.keys()]);
    for (const [name, { text, mtime }] of before) {
      const path = join(vault.root, FOLDER, name);
      expect(readFileSync(path, "utf8")).toBe(text);
      expect(statSync(path).mtimeMs).toBe(mtime);
    }
  }, 180_000);

  it("searches by name, renames, deletes to the trash after a confirm, and reports a note it cannot read", async () => {
    const { vault } = await open([]);
    vault.write(`${FOLDER}/Roses.md`, serializeChat(savedChat("roses", "Roses", "2026-11-02T10:00:00Z")));
    vault.write(`${FOLDER}/Soup.md`, serializeChat(savedChat("soup", "Soup", "2026-11-01T10:00:00Z")));
    const broken = "---\nchat-id: 7\n---\nnot a chat\n";
    vault.write(`${FOLDER}/Broken.md`, broken);
    await showHistory();
    await waitFor(() => expect(rowTitles()).toEqual(["Roses", "Soup"]));
    expect(screen.getByRole("list", { name: "Notes that could not be read" }).textContent).toContain("copilot/chats/Broken.md");

    fireEvent.change(screen.getByRole("searchbox", { name: "Search chats" }), { target: { value: "sou" } });
    await waitFor(() => expect(rowTitles()).toEqual(["Soup"]));
    fireEvent.change(screen.getByRole("searchbox", { name: "Search chats" }), { target: { value: "" } });
    await waitFor(() => expect(rowTitles()).toEqual(["Roses", "Soup"]));

    await chooseFromMenu("Roses", "Rename");
    const name = screen.getByRole("textbox", { name: "New name for Roses" });
    fireEvent.change(name, { target: { value: "Climbing roses" } });
    await act(() => fireEvent.keyDown(name, { key: "Enter" }));
    await waitFor(() => expect(rowTitles()).toEqual(["Climbing roses", "Soup"]));
    expect(parseChat(readFileSync(join(vault.root, FOLDER, "Climbing roses.md"), "utf8")).id).toBe("roses");

    await chooseFromMenu("Soup", "Delete");
    // Nothing is deleted before the confirm.
    expect(existsSync(join(vault.root, FOLDER, "Soup.md"))).toBe(true);
    await act(() => fireEvent.click(within(screen.getByRole("group", { name: "Delete Soup?" })).getByRole("button", { name: "Move to trash" })));
    await waitFor(() => expect(rowTitles()).toEqual(["Climbing roses"]));
    expect(existsSync(join(vault.root, FOLDER, "Soup.md"))).toBe(false);
    expect(readdirSync(join(vault.root, ".trash"))).toHaveLength(1);
    expect(readFileSync(join(vault.root, FOLDER, "Broken.md"), "utf8")).toBe(broken);
  });

  it("groups the chats by day, marks the open one, and reaches Rename and Delete by keyboard", async () => {
    const { vault } = await open([{ text: "Sí, claro." }]);
    const day = 24 * 60 * 60 * 1000;
    const at = (daysBack: number) => new Date(Date.now() - daysBack * day).toISOString();
    vault.write(`${FOLDER}/2026-01-01 Два дня назад.md`, serializeChat(savedChat("two", "Два дня назад", at(2))));
    vault.write(`${FOLDER}/Long ago 長い.md`, serializeChat(savedChat("long", "Long ago", at(40))));
    await send("¿Hoy?");
    await showHistory();
    await waitFor(() => expect(rowTitles()).toHaveLength(3));
    // The chat open in the view is today's, and marked.
    expect(groupNames()).toEqual(["Today", "This week", "Older"]);
    const current = rows().filter((row) => row.getAttribute("aria-current") === "true");
    expect(current.map((row) => row.querySelector(".vault-copilot-history-open")?.textContent)).toEqual(["¿Hoy"]);
    // Keyboard: the menu opens on its first item, ArrowDown moves, Escape closes it and gives the focus back.
    const menuButton = screen.getByRole("button", { name: "Actions for Два дня назад" });
    await act(() => fireEvent.click(menuButton));
    const menu = screen.getByRole("menu", { name: "Actions for Два дня назад" });
    expect(document.activeElement?.textContent).toBe("Rename");
    fireEvent.keyDown(document.activeElement!, { key: "ArrowDown" });
    expect(document.activeElement?.textContent).toBe("Delete");
    fireEvent.keyDown(document.activeElement!, { key: "Escape" });
    expect(screen.queryByRole("menu")).toBeNull();
    expect(document.activeElement).toBe(menuButton);
    expect(menu.isConnected).toBe(false);
    await act(() => fireEvent.click(menuButton));
    fireEvent.keyDown(document.activeElement!, { key: "Enter" });
    const name = await screen.findByRole("textbox", { name: "New name for Два дня назад" });
    fireEvent.change(name, { target: { value: "Позавчера" } });
    await act(() => fireEvent.keyDown(name, { key: "Enter" }));
    await waitFor(() => expect(rowTitles()).toContain("Позавчера"));
    expect(parseChat(readFileSync(join(vault.root, FOLDER, "Позавчера.md"), "utf8")).id).toBe("two");
  });

  it("says so when a chat note cannot be opened, and leaves it as it is", async () => {
    const { vault } = await open([]);
    const text = "---\nchat-id: x\nmode: shout\n---\n## You\n\nhi\n";
    vault.write(`${FOLDER}/Odd.md`, text);
    await showHistory();
    await waitFor(() => expect(rowTitles()).toEqual(["Odd"]));
    await act(() => fireEvent.click(screen.getByRole("button", { name: "Odd" })));
    await waitFor(() => expect(document.body.textContent).toContain('"copilot/chats/Odd.md" is not a chat Copilot can read'));
    expect(readFileSync(join(vault.root, FOLDER, "Odd.md"), "utf8")).toBe(text);
    expect(screen.getByRole("region", { name: "Saved chats" })).toBeTruthy();
  });

  it("shows the earlier versions Regenerate kept under the answer", async () => {
    const answersLeft = ["First try.", "Second try."];
    await open(() => ({ text: answersLeft.shift() ?? "?" }));
    await send("Say something");
    await act(() => fireEvent.click(screen.getByRole("button", { name: "Regenerate" })));
    await waitFor(() => expect(conversationTexts().join("|")).toContain("Second try."), rendered);
    const earlier = screen.getByText("Earlier versions (1)");
    await act(() => fireEvent.click(earlier));
    expect(earlier.closest("details")?.textContent).toContain("First try.");
  });
});
