/**
 * The chat view's look as Obsidian gives it: icon buttons (Obsidian's setIcon and setTooltip, as
 * the double implements them) that keep the names the demo contract lists, an empty chat that says
 * what its mode does and offers example questions, and a failed answer that keeps the provider's
 * words apart. The real CopilotView over the real runners and the scripted server on 127.0.0.1.
 */
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { chatViewSession } from "../../../test/helpers/chatViewSession";

jest.setTimeout(30_000);

const patiently = { timeout: 10_000 };
const session = chatViewSession({ settings: { defaultMode: "agent" } });

/** An icon button as Obsidian draws one: its class, the icon setIcon put in, its tooltip. */
function iconButton(name: string, within_: HTMLElement = document.body) {
  const button = within(within_).getByRole("button", { name });
  return { classes: [...button.classList], icon: button.querySelector("svg.svg-icon")?.getAttribute("class"), text: button.textContent, tooltip: button.getAttribute("title") };
}

describe("the chat view's look", () => {
  it("draws New chat and Chat history as Obsidian icons in the header, named and with tooltips", async () => {
    await session.open([]);
    const header = document.querySelector<HTMLElement>(".vault-copilot-chat-header")!;
    for (const [name, icon] of [
      ["New chat", "message-square-plus"],
      ["Chat history", "history"],
    ] as const) {
      const button = iconButton(name, header);
      expect(button).toEqual({ classes: expect.arrayContaining(["clickable-icon"]), icon: `svg-icon lucide-${icon}`, text: "", tooltip: name });
    }
    // Mode, model and both icons: one row, in that order.
    expect([...header.children].map((child) => child.getAttribute("aria-label"))).toEqual(["Mode", "Model", "New chat", "Chat history"]);
    act(() => screen.getByRole("button", { name: "Chat history" }).click());
    expect(screen.getByRole("button", { name: "Chat history" }).getAttribute("aria-pressed")).toBe("true");
  });

  it("an empty chat says what its mode does; an example question goes into the message box and is not sent", async () => {
    await session.open([{ text: "Ответ." }]);
    const log = screen.getByRole("log", { name: "Conversation" });
    expect(log.querySelector(".vault-copilot-empty-explanation")?.textContent).toBe("Agent searches and reads your notes, and edits them once you accept.");
    const examples = within(log).getByRole("list", { name: "Example questions" });
    expect(within(examples).getAllByRole("button")).toHaveLength(3);
    act(() => {
      fireEvent.change(screen.getByRole("combobox", { name: "Mode" }), { target: { value: "vault-qa" } });
    });
    expect(log.querySelector(".vault-copilot-empty-explanation")?.textContent).toBe("Vault QA answers from your notes and links the notes it used.");
    const example = within(within(log).getByRole("list", { name: "Example questions" })).getAllByRole("button")[0]!;
    act(() => example.click());
    const box = screen.getByRole<HTMLTextAreaElement>("textbox", { name: "Message" });
    expect(box.value).toBe(example.textContent);
    await waitFor(() => expect(document.activeElement).toBe(box), patiently);
    expect(session.server.requests).toHaveLength(0);
    expect(within(log).queryAllByRole("article")).toHaveLength(0);
    // The user may change it before sending: it is an ordinary message from there on.
    fireEvent.change(box, { target: { value: `${box.value} — 睡眠` } });
    fireEvent.keyDown(box, { key: "Enter" });
    await waitFor(() => expect(session.server.requests).toHaveLength(1), patiently);
    expect(JSON.stringify(session.server.requests[0]!.body.messages.at(-1)?.content)).toContain(`${example.textContent} — 睡眠`);
  });

  it("an answer's actions and the last question's Edit are icons with their names", async () => {
    await session.open([{ text: "Done." }], { settings: { defaultMode: "chat" } });
    const box = screen.getByRole("textbox", { name: "Message" });
    fireEvent.change(box, { target: { value: "hi" } });
    fireEvent.keyDown(box, { key: "Enter" });
    await waitFor(() => expect(screen.getByRole("button", { name: "Regenerate" })).toBeTruthy(), patiently);
    const answer = screen.getByRole("article", { name: "Copilot" });
    const icons = ["Copy", "Insert at cursor", "Regenerate"].map((name) => iconButton(name, answer));
    expect(icons.map((button) => [button.icon, button.text, button.tooltip, button.classes.includes("clickable-icon")])).toEqual([
      ["svg-icon lucide-copy", "", "Copy", true],
      ["svg-icon lucide-text-cursor-input", "", "Insert at cursor", true],
      ["svg-icon lucide-refresh-cw", "", "Regenerate", true],
    ]);
    expect(iconButton("Edit", screen.getByRole("article", { name: "You" })).icon).toBe("svg-icon lucide-pencil");
  });

  it("a failed answer says what happened in our words first, with the server's own words folded under Details", async () => {
    await session.open([{ status: 401, message: "Неверный ключ API: sk-test-…" }], { settings: { defaultMode: "chat" } });
    const box = screen.getByRole("textbox", { name: "Message" });
    fireEvent.change(box, { target: { value: "hi" } });
    fireEvent.keyDown(box, { key: "Enter" });
    const alert = await screen.findByRole("alert", {}, patiently);
    const text = alert.querySelector(".vault-copilot-message-error-text > span")?.textContent ?? "";
    expect(text).toMatch(/^The model server \(http:\/\/127\.0\.0\.1:\d+\/v1\) refused the API key\. Check the API key in the settings\.$/);
    const details = alert.querySelector<HTMLDetailsElement>("details")!;
    expect([details.open, details.querySelector("summary")?.textContent, details.querySelector("pre")?.textContent]).toEqual([false, "Details", "HTTP 401: Неверный ключ API: sk-test-…"]);
  });
});
