import type { App as ObsidianApp } from "obsidian";
import { App } from "../../test/obsidian/obsidian";
import { APPROVAL_ARMING_MS, type ToolCallProposal } from "../ports/approval";
import { modalToolCallApproval } from "./ToolCallApprovalModal";

const proposal: ToolCallProposal = { toolId: "mcp_fs_write_file", source: "fs", toolName: "write_file", arguments: { path: "/tmp/x", content: "hi" } };
const ask = (signal = new AbortController().signal) => modalToolCallApproval(new App() as unknown as ObsidianApp).requestToolCallApproval(proposal, signal);
const button = (text: string) => [...document.querySelectorAll("button")].find((b) => b.textContent === text) as HTMLButtonElement;

afterEach(() => {
  jest.useRealTimers();
  document.body.empty();
});

describe("ToolCallApprovalModal", () => {
  it("shows the tool, its server and the exact arguments, and allows on Allow", async () => {
    jest.useFakeTimers();
    const decision = ask();
    expect(document.querySelector(".modal-title")?.textContent).toBe("Run write_file?");
    expect(document.body.textContent).toContain('"fs"');
    expect(JSON.parse(document.querySelector(".vault-copilot-approval-arguments")?.textContent ?? "")).toEqual(proposal.arguments);
    jest.advanceTimersByTime(APPROVAL_ARMING_MS);
    button("Allow").click();
    await expect(decision).resolves.toEqual({ approved: true });
    expect(document.querySelector(".modal-title")).toBeNull();
  });

  it("ignores Allow and Mod+Enter in its first moments, then Mod+Enter allows", async () => {
    jest.useFakeTimers();
    let answered = false;
    const decision = ask().then((answer) => {
      answered = true;
      return answer;
    });
    button("Allow").click();
    document.querySelector(".modal")!.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", ctrlKey: true, bubbles: true }));
    await Promise.resolve();
    expect({ answered, disabled: button("Allow").getAttribute("aria-disabled") }).toEqual({ answered: false, disabled: "true" });
    jest.advanceTimersByTime(APPROVAL_ARMING_MS);
    document.querySelector(".modal")!.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", metaKey: true, bubbles: true }));
    await expect(decision).resolves.toEqual({ approved: true });
  });

  it("refuses on Deny", async () => {
    const decision = ask();
    button("Deny").click();
    await expect(decision).resolves.toEqual({ approved: false, reason: "the user denied it" });
  });

  it("refuses when the run is stopped, or was already", async () => {
    const controller = new AbortController();
    const decision = ask(controller.signal);
    controller.abort();
    await expect(decision).resolves.toEqual({ approved: false, reason: "the run was stopped" });
    const stopped = new AbortController();
    stopped.abort();
    await expect(ask(stopped.signal)).resolves.toEqual({ approved: false, reason: "the run was stopped" });
  });
});
