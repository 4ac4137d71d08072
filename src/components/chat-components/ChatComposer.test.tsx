/**
 * The message box tells the view when the user types, so a streaming answer gives way to the
 * keys (streamPacing.ts). The composer alone, over a real ChatController; the host is the edge to
 * the app, and only the parts the box reads are given.
 */
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { ChatController } from "../../chat/ChatController";
import { ChatComposer } from "./ChatComposer";
import { ChatHostContext, type ChatHost } from "./ChatHost";

afterEach(cleanup);

function renderComposer(onTyping: () => void) {
  const controller = new ChatController({
    createRunner: () => {
      throw new Error("nothing is sent in these tests");
    },
    readContext: () => Promise.resolve({ artifacts: [], problems: [] }),
    defaults: () => ({ mode: "chat", model: "модель" }),
  });
  const host = { suggestContext: () => Promise.resolve([]), prompts: { list: () => Promise.resolve([]), run: () => Promise.resolve() } } as unknown as ChatHost;
  render(
    <ChatHostContext.Provider value={host}>
      <ChatComposer controller={controller} onTyping={onTyping} />
    </ChatHostContext.Provider>,
  );
  return screen.getByRole<HTMLTextAreaElement>("textbox", { name: "Message" });
}

describe("the message box", () => {
  it("tells the view of every key and every edit (a paste, an input method's text), and keeps the text", () => {
    const typed: string[] = [];
    const box = renderComposer(() => typed.push(box.value));
    act(() => {
      fireEvent.keyDown(box, { key: "п" });
      fireEvent.change(box, { target: { value: "п" } });
    });
    // An input method's text and a paste arrive as edits with no key of their own.
    act(() => {
      fireEvent.change(box, { target: { value: "привет 你好 " } });
      fireEvent.change(box, { target: { value: "привет 你好 👋🏽 café" } });
    });
    expect(typed).toHaveLength(4);
    expect(box.value).toBe("привет 你好 👋🏽 café");
  });
});
