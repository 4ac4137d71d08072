/**
 * The chat view's ways in for context and its debug view: "Add selection to chat", notes dropped
 * on the view, and "Show last request" (the last request's layers, keys redacted). The real
 * CopilotView in the Obsidian double, over the real runners and the scripted server.
 */
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { chatViewSession } from "../../test/helpers/chatViewSession";
import { TEST_API_KEY } from "../../test/helpers/runnerHarness";
import { App } from "../../test/obsidian/obsidian";
import { PromptPayloadModal } from "./PromptPayloadModal";

const session = chatViewSession({ settings: { defaultMode: "chat" } });
const open = (script: Parameters<typeof session.open>[0], notes: Record<string, string>) => session.open(script, { notes });

async function send(text: string): Promise<void> {
  const box = screen.getByRole("textbox", { name: "Message" });
  fireEvent.change(box, { target: { value: text } });
  fireEvent.keyDown(box, { key: "Enter" });
  await waitFor(() => expect(session.server.requests.length).toBeGreaterThan(0));
}

describe("context from outside the message box", () => {
  it("a selection added to the chat becomes a chip with its note and lines, and its text goes with the next message", async () => {
    const { view } = await open([{ text: "ok" }], { "Notes/Long.md": "one\ntwo\nthree\nfour" });
    act(() => view.addSelection("Notes/Long.md", "two\nthree", 2, 3));
    const chips = screen.getByRole("list", { name: "Context for the next message" });
    expect(within(chips).getByText("Long (lines 2–3)")).toBeTruthy();
    await send("explain this");
    const body = session.server.requests[0]!.rawBody;
    expect(body).toContain("two\\nthree");
    expect(body).toContain("Notes/Long.md#L2-L3");
    expect(body).not.toContain("four");
  });

  it("notes dropped on the view (as links) become chips; other text dropped changes nothing", async () => {
    await open([{ text: "ok" }], { "Cats.md": "CATS BODY", "Dogs.md": "DOGS BODY" });
    const target = document.querySelector<HTMLElement>(".vault-copilot-chat")!;
    fireEvent.drop(target, { dataTransfer: { getData: () => "[[Cats]]\n[[Missing note]]\nplain words" } });
    const chips = screen.getByRole("list", { name: "Context for the next message" });
    expect(within(chips).getAllByRole("listitem").map((item) => item.textContent)).toEqual(["Cats×"]);
    await send("tell me");
    expect(session.server.requests[0]!.rawBody).toContain("CATS BODY");
    expect(session.server.requests[0]!.rawBody).not.toContain("DOGS BODY");
  });
});

describe("Show last request", () => {
  it("shows the last request layer by layer, with the key the model echoed redacted", async () => {
    const setup = await open([{ text: "fine" }], {});
    await send(`my key is ${TEST_API_KEY}`);
    await waitFor(() => expect(screen.getByRole("button", { name: "Send" })).toBeTruthy());
    const modal = new PromptPayloadModal(new App() as never, setup.recorder);
    modal.open();
    const text = modal.contentEl.textContent ?? "";
    // The layers by their plain names, each with its estimated size.
    expect(text).toContain("Instructions · system message · about");
    expect(text).toContain("Your message · user message · about");
    expect(text).not.toMatch(/\bL[1-5]\b/);
    // Each layer's size, estimated from its characters (no tokenizer offline), so "about".
    const payload = setup.recorder.getLast()!;
    const characters = (layer: string) => payload.messages.flatMap((message) => message.segments).filter((segment) => segment.layer === layer).reduce((sum, segment) => sum + segment.text.length, 0);
    const about = (layer: string) => (characters(layer) === 0 ? "none" : `about ${Math.ceil(characters(layer) / 4).toLocaleString("en-US")} token${Math.ceil(characters(layer) / 4) === 1 ? "" : "s"}`);
    const layers = within(modal.contentEl).getByRole("list", { name: "Layers" });
    expect(within(layers).getAllByRole("listitem").map((item) => [...item.children].map((child) => child.textContent))).toEqual([
      ["Instructions", about("L1")],
      ["Earlier attachments", "none"],
      ["This message's context", "none"],
      ["Conversation", "none"],
      ["Your message", about("L5")],
    ]);
    expect(characters("L1")).toBeGreaterThan(100);
    expect(text).toContain("my key is [redacted]");
    expect(text).not.toContain(TEST_API_KEY);
    expect(within(modal.contentEl).getByRole("button", { name: "Copy" })).toBeTruthy();
    modal.close();
  });

  it("says so when nothing was sent yet", async () => {
    const setup = await open([], {});
    const modal = new PromptPayloadModal(new App() as never, setup.recorder);
    modal.open();
    expect(modal.contentEl.textContent).toContain("No request has been sent yet");
    modal.close();
  });
});
