import { waitFor } from "@testing-library/dom";
import type { App as ObsidianApp, Plugin as ObsidianPlugin } from "obsidian";
import { App, Plugin } from "../../test/obsidian/obsidian";
import { clockAt } from "../../test/helpers/toolHarness";
import type { ApprovalDecision, EditProposal } from "../ports/approval";
import { EditHistory } from "../tools/edit/EditHistory";
import { UNDO_LAST_EDIT_COMMAND_NAME } from "../tools/edit/proposeAndApplyEdit";
import { replaceInFileTool } from "../tools/edit/replaceInFile";
import { runTool } from "../tools/runTool";
import { ObsidianVault } from "../vault/ObsidianVault";
import { callTool, makeToolDependencies } from "../../test/helpers/toolHarness";
import { EditApprovalModal, modalEditApproval } from "./EditApprovalModal";
import { registerEditCommands, undoLastEdit } from "./editCommands";
import { registerPomodoro } from "./pomodoroStatusBar";

const manifest = { id: "vault-copilot", name: "Vault Copilot", version: "0.1.0", minAppVersion: "1.11.4", description: "", author: "", authorUrl: "", isDesktopOnly: false };

/** Obsidian's Plugin is abstract; a plugin with nothing of its own to load. */
class TestPlugin extends Plugin {}
const asApp = (app: App) => app as unknown as ObsidianApp;
const asPlugin = (plugin: Plugin) => plugin as unknown as ObsidianPlugin;

afterEach(() => document.body.empty());

const proposal: EditProposal = { toolId: "replaceInFile", path: "Projects/Plan.md", before: "a\nb\nc\n", after: "a\nB\nc\nd\n" };

function openApproval(signal = new AbortController().signal): Promise<ApprovalDecision> {
  return modalEditApproval(asApp(new App())).requestApproval(proposal, signal);
}
const button = (text: string) => [...document.querySelectorAll("button")].find((b) => b.textContent === text) as HTMLButtonElement;
/** Accept once the dialog's first moments are over (it ignores clicks before). */
async function armedAccept(): Promise<HTMLButtonElement> {
  await waitFor(() => expect(button("Accept")?.getAttribute("aria-disabled")).toBe("false"), { timeout: 3_000 });
  return button("Accept");
}

describe("EditApprovalModal", () => {
  it("shows the diff line by line with numbers and markers, as text", async () => {
    const decision = openApproval();
    expect(document.querySelector(".modal-title")?.textContent).toBe("Edit Projects/Plan.md?");
    expect(document.querySelector(".vault-copilot-edit-summary")?.textContent).toContain("2 lines added, 1 removed");
    const rows = [...document.querySelectorAll(".vault-copilot-diff-line")].map((row) => [row.className.split(" ")[1], row.textContent]);
    expect(rows).toEqual([
      ["vault-copilot-diff-context", "11 a"],
      ["vault-copilot-diff-removed", "2-b"],
      ["vault-copilot-diff-added", "2+B"],
      ["vault-copilot-diff-context", "33 c"],
      ["vault-copilot-diff-added", "4+d"],
    ]);
    (await armedAccept()).click();
    await expect(decision).resolves.toEqual({ approved: true });
    expect(document.querySelector(".modal-container")).toBeNull();
  });

  it("passes the user's reason with a rejection", async () => {
    const decision = openApproval();
    const reason = document.querySelector<HTMLTextAreaElement>(".vault-copilot-edit-reason");
    if (reason) reason.value = "keep the lower case";
    button("Reject").click();
    await expect(decision).resolves.toEqual({ approved: false, reason: "the user said: keep the lower case" });
  });

  it("counts closing without an answer, and a stopped run, as a rejection", async () => {
    // Esc and the close button both end in Modal.close.
    const closed = new Promise<ApprovalDecision>((resolve) => {
      const modal = new EditApprovalModal(asApp(new App()), proposal, resolve);
      modal.open();
      modal.close();
    });
    await expect(closed).resolves.toEqual({ approved: false, reason: "the user closed the approval view without answering" });
    const controller = new AbortController();
    const stopped = openApproval(controller.signal);
    controller.abort();
    await expect(stopped).resolves.toEqual({ approved: false, reason: "the run was stopped" });
    expect(document.querySelector(".modal-container")).toBeNull();
  });

  it("renders a user's angle brackets as text, never as markup", () => {
    void modalEditApproval(asApp(new App())).requestApproval({ ...proposal, before: null, after: "<img src=x onerror=alert(1)>\n" }, new AbortController().signal);
    expect(document.querySelector("img")).toBeNull();
    expect(document.querySelector(".vault-copilot-diff-added .vault-copilot-diff-text")?.textContent).toBe("<img src=x onerror=alert(1)>");
    expect(document.querySelector(".modal-title")?.textContent).toBe("Create Projects/Plan.md?");
  });
});

describe("an edit approved in the modal", () => {
  it("is written to Obsidian's vault exactly, and one undo restores it", async () => {
    const app = new App();
    await app.vault.create("Plan.md", "- [ ] ship\n- [ ] review\n");
    const vault = new ObsidianVault(asApp(app));
    const history = new EditHistory(vault);
    const dependencies = makeToolDependencies({ vault, editHistory: history, approval: modalEditApproval(asApp(app)) });
    const call = callTool(replaceInFileTool, dependencies, { path: "Plan.md", oldText: "- [ ] ship", newText: "- [x] ship" });
    (await armedAccept()).click();
    expect((await call).text).toContain('Edited "Plan.md" (+1 -1 lines)');
    expect(await vault.read("Plan.md")).toBe("- [x] ship\n- [ ] review\n");
    await undoLastEdit(history);
    expect(await vault.read("Plan.md")).toBe("- [ ] ship\n- [ ] review\n");
  });
});

describe("the approval view and the tool's time limit", () => {
  it("stays open past the time limit until the user answers, and the edit is then written", async () => {
    const app = new App();
    await app.vault.create("Plan.md", "- [ ] ship\n");
    const vault = new ObsidianVault(asApp(app));
    const dependencies = makeToolDependencies({ vault, editHistory: new EditHistory(vault), approval: modalEditApproval(asApp(app)) });
    const call = runTool(replaceInFileTool.create(dependencies), { path: "Plan.md", oldText: "- [ ] ship", newText: "- [x] ship" }, {
      toolCallId: "call_1",
      defaultTimeoutMs: 30,
      maxOutputChars: 10_000,
    });
    const accept = await armedAccept();
    // Armed only after APPROVAL_ARMING_MS, well past the tool's 30 ms limit: the dialog still waits.
    expect(document.querySelector(".modal-container")).not.toBeNull();
    accept.click();
    const result = await call;
    expect(result.status).toBe("ok");
    expect(await vault.read("Plan.md")).toBe("- [x] ship\n");
  });
});

describe("registerEditCommands", () => {
  /** Runs the registered undo command as Obsidian's palette does (its callback), and returns the notice it showed. */
  async function runUndoCommand(plugin: TestPlugin): Promise<string> {
    const command = plugin.registered.commands.get("vault-copilot:undo-last-agent-edit");
    expect(command?.name).toBe(UNDO_LAST_EDIT_COMMAND_NAME);
    document.querySelectorAll(".notice").forEach((notice) => notice.remove());
    expect(await plugin.runCommand("vault-copilot:undo-last-agent-edit")).toBe(true);
    return waitFor(() => {
      const text = document.querySelector(".notice")?.textContent;
      if (!text) throw new Error("the command showed no notice");
      return text;
    });
  }

  it("adds the undo command, which restores the note and says so in a notice", async () => {
    const app = new App();
    await app.vault.create("A.md", "after\n");
    const plugin = new TestPlugin(app, manifest);
    const vault = new ObsidianVault(asApp(app));
    const history = new EditHistory(vault);
    await history.record({ toolId: "writeToFile", path: "A.md", before: "before\n", after: "after\n" });
    registerEditCommands(asPlugin(plugin), history);
    const message = await runUndoCommand(plugin);
    expect(message).toContain("its previous text is back");
    expect(await vault.read("A.md")).toBe("before\n");
    expect(await history.list()).toEqual([]);
    expect(await runUndoCommand(plugin)).toBe("There is no Copilot edit to undo.");
  });
});

describe("registerPomodoro", () => {
  it("shows the timer in the status bar and stops it when the plugin unloads", () => {
    const plugin = new TestPlugin(new App(), manifest);
    plugin.load();
    const timer = registerPomodoro(asPlugin(plugin), clockAt(Date.UTC(2026, 11, 2, 9), "Europe/Berlin"));
    const item = plugin.registered.statusBarItems[0];
    expect(item?.isShown()).toBe(false);
    timer.start(25, "Focus");
    expect(item?.textContent).toBe("🍅 25:00 Focus");
    expect(item?.isShown()).toBe(true);
    plugin.unload();
    expect(timer.status().running).toBe(false);
  });
});
