/**
 * What the chat view does only on a phone (the double's Platform set as Obsidian's on a phone):
 * the keyboard's return key writes a new line in the message box and in the edit box, a long
 * press on an answer opens Obsidian's menu with the answer's actions, and the view keeps above an
 * on-screen keyboard. The real CopilotView over the real runners and the scripted
 * chat-completions server on 127.0.0.1. (Chromium checks the same with real layout:
 * test/e2e/phoneKeyboard.e2e.test.ts.)
 */
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { Platform } from "obsidian";
import { openChatView, type ChatViewSetup } from "../../../test/helpers/chatViewHarness";
import { startOpenAIServer, type OpenAIServer, type Script } from "../../../test/helpers/openAIServer";
import { LONG_PRESS_MS } from "./longPress";

jest.setTimeout(20_000);

let server: OpenAIServer;
let chat: ChatViewSetup | undefined;
const desktop = { ...Platform };

beforeEach(() => {
  Object.assign(Platform, { isDesktop: false, isDesktopApp: false, isMobile: true, isMobileApp: true, isPhone: true });
});

afterEach(async () => {
  jest.useRealTimers();
  Object.assign(Platform, desktop);
  await act(async () => {
    await chat?.close();
  });
  chat = undefined;
  await server?.close();
  document.body.replaceChildren();
});

async function open(script: Script): Promise<ChatViewSetup> {
  server = await startOpenAIServer(script);
  chat = await act(() => openChatView(server, { settings: { defaultMode: "chat" } }));
  return chat;
}

const messageBox = () => screen.getByRole<HTMLTextAreaElement>("textbox", { name: "Message" });
const answers = () => within(screen.getByRole("log", { name: "Conversation" })).queryAllByRole("article", { name: "Copilot" });

/** Types `text` into the message box and presses Send, as a finger does. */
async function sendByTap(text: string): Promise<void> {
  fireEvent.change(messageBox(), { target: { value: text } });
  fireEvent.click(screen.getByRole("button", { name: "Send" }));
  await waitFor(() => expect(screen.getByRole("button", { name: "Send" })).toBeTruthy());
}

/** A finger down on `element` (touch events as a phone's browser sends them); returns what lifts it. */
function touchDown(element: Element): { lift: () => boolean } {
  const touch = { clientX: 30, clientY: 120, identifier: 0, target: element };
  fireEvent.touchStart(element, { touches: [touch], changedTouches: [touch] });
  // fireEvent returns false when a handler called preventDefault.
  return { lift: () => !fireEvent.touchEnd(element, { touches: [], changedTouches: [touch] }) };
}

const menuItems = () => Array.from(document.body.querySelectorAll('[role="menu"] [role="menuitem"]')).map((item) => item.textContent);

describe("the chat view on a phone", () => {
  it("Enter in the message box writes a new line and sends nothing; Send sends every line", async () => {
    await open([{ text: "Получил две строки." }]);
    const box = messageBox();
    fireEvent.change(box, { target: { value: "Первая строка" } });
    // Not prevented: the browser writes the new line, as the return key of a phone's keyboard does.
    expect(fireEvent.keyDown(box, { key: "Enter" })).toBe(true);
    await act(async () => {});
    expect(server.requests).toHaveLength(0);
    expect(answers()).toHaveLength(0);

    await sendByTap("Первая строка\n第二行 🌹");
    await waitFor(() => expect(answers()[0]?.textContent).toContain("Получил две строки."));
    expect(server.requests).toHaveLength(1);
    expect(JSON.stringify(server.requests[0]!.body.messages)).toContain(JSON.stringify("Первая строка\n第二行 🌹").slice(1, -1));
  });

  it("Enter in the edit box writes a new line; Send edited message sends the edited question", async () => {
    await open([{ text: "Первый ответ." }, { text: "Ответ на исправленный вопрос." }]);
    await sendByTap("Вопрос с ошибкой");
    await waitFor(() => expect(answers()[0]?.textContent).toContain("Первый ответ."));
    const question = screen.getByRole("article", { name: "You" });
    fireEvent.click(within(question).getByRole("button", { name: "Edit" }));
    const edit = within(question).getByRole("textbox", { name: "Edit message" });
    fireEvent.change(edit, { target: { value: "Вопрос" } });
    expect(fireEvent.keyDown(edit, { key: "Enter" })).toBe(true);
    await act(async () => {});
    expect(server.requests).toHaveLength(1);
    fireEvent.change(edit, { target: { value: "Вопрос\nбез ошибки" } });
    fireEvent.click(within(question).getByRole("button", { name: "Send edited message" }));
    await waitFor(() => expect(answers()[0]?.textContent).toContain("Ответ на исправленный вопрос."));
    expect(JSON.stringify(server.requests[1]!.body.messages)).toContain("Вопрос\\nбез ошибки");
  });

  it("a finger resting on an answer opens Obsidian's menu with Copy, Insert at cursor and Regenerate, and lifting it is no tap", async () => {
    const copied: string[] = [];
    Object.defineProperty(navigator, "clipboard", { configurable: true, value: { writeText: (text: string) => Promise.resolve(void copied.push(text)) } });
    await open([{ text: "Ответ: **весной**." }, { text: "Второй ответ." }]);
    await sendByTap("Когда?");
    await waitFor(() => expect(answers()[0]?.textContent).toContain("Ответ: весной."));
    const paragraph = answers()[0]!.querySelector("p")!;

    const press = touchDown(paragraph);
    await waitFor(() => expect(menuItems()).toEqual(["Copy", "Insert at cursor", "Regenerate"]));
    expect(press.lift()).toBe(true);
    fireEvent.click(within(document.body.querySelector<HTMLElement>('[role="menu"]')!).getByRole("menuitem", { name: "Copy" }));
    await waitFor(() => expect(copied).toEqual(["Ответ: **весной**."]));
    expect(menuItems()).toEqual([]);

    touchDown(paragraph);
    await waitFor(() => expect(menuItems()).toHaveLength(3));
    fireEvent.click(within(document.body.querySelector<HTMLElement>('[role="menu"]')!).getByRole("menuitem", { name: "Regenerate" }));
    await waitFor(() => expect(answers()[0]?.textContent).toContain("Второй ответ."));
    expect(server.requests).toHaveLength(2);
    Reflect.deleteProperty(navigator, "clipboard");
  });

  it("a tap, a press on a link or a button, and a press on the question open no menu", async () => {
    await open([{ text: "See [[Garden]] for more, in spring." }]);
    await sendByTap("Где?");
    await waitFor(() => expect(answers()[0]?.textContent).toContain("in spring"));
    const answer = answers()[0]!;
    jest.useFakeTimers();

    const tap = touchDown(answer.querySelector("p")!);
    act(() => jest.advanceTimersByTime(LONG_PRESS_MS - 100));
    expect(tap.lift()).toBe(false);
    for (const element of [answer.querySelector("a")!, within(answer).getByRole("button", { name: "Copy" }), screen.getByRole("article", { name: "You" })]) {
      touchDown(element);
      act(() => jest.advanceTimersByTime(3 * LONG_PRESS_MS));
    }
    expect(menuItems()).toEqual([]);

    // The same finger on the answer's text, held: the menu.
    touchDown(answer.querySelector("p")!);
    act(() => jest.advanceTimersByTime(LONG_PRESS_MS));
    expect(menuItems()).toEqual(["Copy", "Insert at cursor", "Regenerate"]);
  });

  it("pads the chat by what an on-screen keyboard covers while the visual viewport is short, and by nothing once it closes", async () => {
    // jsdom has no visual viewport and no layout: a stand-in for both, as a phone reports them.
    const viewport = Object.assign(new EventTarget(), { offsetTop: 0, height: 844 });
    Object.defineProperty(window, "visualViewport", { configurable: true, value: viewport });
    const box = (height: number, width: number) => ({ top: 0, bottom: height, left: 0, right: width, width, height, x: 0, y: 0, toJSON: () => ({}) });
    const layout = jest.spyOn(HTMLElement.prototype, "getBoundingClientRect").mockImplementation(function (this: HTMLElement) {
      // The chat fills a 390×844 phone screen; jsdom lays out nothing else either.
      return this.classList.contains("vault-copilot-chat") ? box(844, 390) : box(0, 0);
    });
    try {
      await open([]);
      const view = document.querySelector<HTMLElement>(".vault-copilot-chat")!;
      const padding = () => [view.style.getPropertyValue("--vault-copilot-hidden-top"), view.style.getPropertyValue("--vault-copilot-keyboard-inset")];
      expect(padding()).toEqual(["0px", "0px"]);
      viewport.height = 544;
      act(() => void viewport.dispatchEvent(new Event("resize")));
      expect(padding()).toEqual(["0px", "300px"]);
      Object.assign(viewport, { offsetTop: 100 });
      act(() => void viewport.dispatchEvent(new Event("scroll")));
      expect(padding()).toEqual(["100px", "200px"]);
      Object.assign(viewport, { offsetTop: 0, height: 844 });
      act(() => void viewport.dispatchEvent(new Event("resize")));
      expect(padding()).toEqual(["0px", "0px"]);
    } finally {
      layout.mockRestore();
      Reflect.deleteProperty(window, "visualViewport");
    }
  });
});
