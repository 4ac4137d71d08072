/**
 * Model faults through the chat view (issue: hardening suites): the real CopilotView in the
 * Obsidian double over the real runners, each fault from a real server on 127.0.0.1. Every case:
 * a message a person understands, what arrived is kept, no spinner is left, and the chat can go on.
 */
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { openChatView, type ChatViewSetup } from "../helpers/chatViewHarness";
import { startOpenAIServer, type OpenAIServer, type Script } from "../helpers/openAIServer";
import { startGarbledServer, startSilentServer, type FaultServer } from "./faultServers";

jest.setTimeout(30_000);

let chat: ChatViewSetup | undefined;
const servers: Array<OpenAIServer | FaultServer> = [];

afterEach(async () => {
  await act(async () => {
    await chat?.close();
  });
  chat = undefined;
  for (const server of servers.splice(0)) await server.close();
  document.body.replaceChildren();
});

async function openWith(script: Script, options: Parameters<typeof openChatView>[1] & { knownModels?: string[] } = {}) {
  const server = await startOpenAIServer(script, options.knownModels ? { knownModels: options.knownModels } : {});
  servers.push(server);
  chat = await act(() => openChatView(server, options));
  return server;
}

async function openOn(server: FaultServer, options: Parameters<typeof openChatView>[1] = {}) {
  servers.push(server);
  chat = await act(() => openChatView(server, options));
}

async function send(text: string): Promise<void> {
  const box = screen.getByRole("textbox", { name: "Message" });
  fireEvent.change(box, { target: { value: text } });
  fireEvent.keyDown(box, { key: "Enter" });
}

const answer = () => within(screen.getByRole("log", { name: "Conversation" })).getAllByRole("article", { name: "Copilot" }).at(-1)!;

/** The reply has ended: Send is back, no "…" spinner is left, and the error says `words`. */
async function expectFailure(words: RegExp): Promise<HTMLElement> {
  const alert = await screen.findByRole("alert", {}, { timeout: 20_000 });
  expect(alert.textContent).toMatch(words);
  expect(within(alert).getByRole("button", { name: "Retry" })).toBeTruthy();
  await waitFor(() => expect(screen.getByRole("button", { name: "Send" })).toBeTruthy());
  expect(answer().querySelector(".vault-copilot-thinking")).toBeNull();
  expect(answer().querySelector(".vault-copilot-tool-banner.is-running")).toBeNull();
  return alert;
}

describe("model faults in the chat view", () => {
  it("401: says the key was refused", async () => {
    await openWith([{ status: 401, message: "Incorrect API key provided" }], { settings: { defaultMode: "chat" } });
    await send("hi");
    await expectFailure(/API key/i);
  });

  it("unknown model: names the model", async () => {
    await openWith([], { settings: { defaultMode: "chat" }, knownModels: ["some-other-model"] });
    await send("hi");
    await expectFailure(/test-model/);
  });

  it("a storm of 429s: gives up after the retries and says the server is rate limiting", async () => {
    const server = await openWith(() => ({ status: 429, headers: { "retry-after": "0" } }), { settings: { defaultMode: "chat" } });
    await send("hi");
    await expectFailure(/rate|too many|limit/i);
    expect((server).requests.length).toBe(3);
  });

  it("500: says the server failed", async () => {
    await openWith(() => ({ status: 500, message: "internal error" }), { settings: { defaultMode: "chat" } });
    await send("hi");
    await expectFailure(/server|500/i);
  });

  it("a server that accepts and never answers: a clear timeout, and Stop is not needed", async () => {
    await openOn(await startSilentServer(), { settings: { defaultMode: "chat" }, modelIdleTimeoutMs: 300 });
    await send("hi");
    await expectFailure(/did not answer/i);
  });

  it("a server that never answers: Stop ends the reply at once", async () => {
    await openOn(await startSilentServer(), { settings: { defaultMode: "chat" } });
    await send("hi");
    fireEvent.click(await screen.findByRole("button", { name: "Stop" }));
    await waitFor(() => expect(screen.getByRole("button", { name: "Send" })).toBeTruthy());
    expect(answer().textContent).toContain("Stopped.");
  });

  it("garbled server-sent events: what arrived stays, with a message", async () => {
    await openOn(await startGarbledServer(), { settings: { defaultMode: "chat" } });
    await send("hi");
    const alert = await expectFailure(/./);
    expect(answer().textContent).toContain("Partial words");
    expect(alert.textContent?.length).toBeLessThan(400);
  });

  it("a stream cut mid-answer: the partial answer stays, with a message and Retry", async () => {
    await openWith([{ text: "The first part of an answer that is cut", chunkSize: 5, cutAfterChunks: 4 }, { text: "Whole answer." }], { settings: { defaultMode: "chat" } });
    await send("hi");
    const alert = await expectFailure(/./);
    expect(answer().textContent).toContain("The first part");
    fireEvent.click(within(alert).getByRole("button", { name: "Retry" }));
    await waitFor(() => expect(answer().textContent).toContain("Whole answer."));
  });

  it("a tool call with 1 MB of arguments: the banner shows them capped and the agent answers", async () => {
    const huge = "x".repeat(1024 * 1024);
    await openWith([{ toolCalls: [{ name: "getCurrentTime", arguments: JSON.stringify({ timezone: huge }) }], argumentChunkSize: 65536 }, { text: "Handled." }], {
      settings: { defaultMode: "agent" },
    });
    await send("what time is it");
    await waitFor(() => expect(answer().textContent).toContain("Handled."), { timeout: 20_000 });
    const args = answer().querySelector(".vault-copilot-tool-args")!.textContent;
    expect(args.length).toBeLessThan(3_000);
    expect(args).toContain("more characters");
  });

  it("100 tool calls in one step: 100 banners, each finished, then the answer", async () => {
    const calls = Array.from({ length: 100 }, (_, index) => ({ id: `call_${index}`, name: "getCurrentTime", arguments: "{}" }));
    await openWith([{ toolCalls: calls, argumentChunkSize: 100 }, { text: "All hundred done." }], { settings: { defaultMode: "agent" } });
    await send("many");
    await waitFor(() => expect(answer().textContent).toContain("All hundred done."), { timeout: 20_000 });
    // A hundred roots render in jsdom slowly (each its own React root): give them time.
    await waitFor(() => expect(answer().querySelectorAll(".vault-copilot-tool-banner")).toHaveLength(100), { timeout: 10_000 });
    expect(answer().querySelectorAll(".vault-copilot-tool-banner.is-running")).toHaveLength(0);
  });
});
