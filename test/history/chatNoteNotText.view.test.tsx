/**
 * A saved chat whose note is not UTF-8 (an editor set to Latin-1 saved it), opened from the chat
 * view's history: the view says it cannot be continued without rewriting it, shows nothing of it to
 * go on with, and leaves the note's bytes as they were, also after the next message.
 */
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { serializeChat } from "../../src/history/chatNoteFormat";
import { chatViewSession } from "../helpers/chatViewSession";
import { savedChat } from "../helpers/savedChat";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const FOLDER = "copilot/chats";
const session = chatViewSession({ settings: { defaultMode: "chat" } });

it("opening a chat note that is not UTF-8 says it cannot be continued without rewriting it, and never writes it", async () => {
  const { vault } = await session.open([{ text: "Ответ в новой заметке." }]);
  const text = serializeChat(savedChat("latin", "Café crème?", "2026-11-01T10:00:00Z"));
  const at = text.indexOf("Answer to Café crème?");
  const bytes = Buffer.concat([Buffer.from(text.slice(0, at), "utf8"), Buffer.from("Answer to Café crème?", "latin1"), Buffer.from(text.slice(at + 21), "utf8")]);
  const path = join(vault.root, FOLDER, "2026-11-01 Café crème.md");
  vault.write(`${FOLDER}/2026-11-01 Café crème.md`, "");
  writeFileSync(path, bytes);

  await act(() => fireEvent.click(screen.getByRole("button", { name: "Chat history" })));
  const region = await screen.findByRole("region", { name: "Saved chats" });
  await waitFor(() => expect(within(region).queryAllByRole("listitem")).toHaveLength(1));
  await act(() => fireEvent.click(within(region).getByRole("button", { name: "Café crème" })));
  await waitFor(() => expect(document.querySelector(".notice-container")?.textContent).toMatch(/is not UTF-8 text.*cannot be continued without rewriting it/));
  // Back to the chat: nothing of the refused note was shown to go on with.
  await act(() => fireEvent.click(screen.getByRole("button", { name: "Chat history" })));
  const conversation = screen.getByRole("log", { name: "Conversation" });
  expect(conversation.textContent).not.toContain("Café crème?");

  const box = screen.getByRole("textbox", { name: "Message" });
  fireEvent.change(box, { target: { value: "Новый вопрос" } });
  fireEvent.keyDown(box, { key: "Enter" });
  await waitFor(() => expect(conversation.textContent).toContain("Ответ в новой заметке."));
  await act(async () => session.chat.leaf.close());
  expect(readFileSync(path).equals(bytes)).toBe(true);
  expect(readdirSync(join(vault.root, FOLDER))).toHaveLength(2);
});
