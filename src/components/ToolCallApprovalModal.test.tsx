import type { App as ObsidianApp } from "obsidian";
import { App } from "../../test/obsidian/obsidian";
import type { ToolCallProposal } from "../ports/approval";
import { modalToolCallApproval } from "./ToolCallApprovalModal";

const proposal: ToolCallProposal = { toolId: "mcp_fs_write_file", source: "fs", toolName: "write_file", arguments: { path: "/tmp/x", content: "hi" } };
const ask = (signal = new AbortController().signal) => modalToolCallApproval(new App() as unknown as ObsidianApp).requestToolCallApproval(proposal, signal);
const button = (text: string) => [...document.querySelectorAll("button")].find((b) => b.textContent === text) as HTMLButtonElement;

afterEach(() => document.body.empty());

describe("ToolCallApprovalModal", () => {
  it("shows the tool, its server and the exact arguments, and allows on Allow", async () => {
    const decision = ask();
    expect(document.querySelector(".modal-title")?.textContent).toBe("Run write_file?");
    expect(document.body.textContent).toContain('"fs"');
    expect(JSON.parse(document.querySelector(".vault-copilot-approval-arguments")?.textContent ?? "")).toEqual(proposal.arguments);
    button("Allow").click();
    await expect(decision).resolves.toEqual({ approved: true });
    expect(document.querySelector(".modal-title")).toBeNull();
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
