/**
 * The approval dialog a tool run without a chat asks in: the chat's approval card inside
 * Obsidian's Modal (the test double's), over Obsidian's vault for the writes.
 */
import { fireEvent, waitFor, within } from "@testing-library/dom";
import type { App as ObsidianApp } from "obsidian";
import { App } from "../../test/obsidian/obsidian";
import { makeToolDependencies, callTool } from "../../test/helpers/toolHarness";
import type { ApprovalDecision, EditProposal, ToolCallProposal } from "../ports/approval";
import { EditHistory } from "../tools/edit/EditHistory";
import { replaceInFileTool } from "../tools/edit/replaceInFile";
import { writeToFileTool } from "../tools/edit/writeToFile";
import { runTool } from "../tools/runTool";
import { ObsidianVault } from "../vault/ObsidianVault";
import { ApprovalModal, modalEditApproval, modalToolCallApproval } from "./ApprovalModal";
import { undoLastEdit } from "./editCommands";

const asApp = (app: App) => app as unknown as ObsidianApp;
const patiently = { timeout: 5_000 };

afterEach(() => document.body.empty());

const edit: EditProposal = { toolId: "replaceInFile", path: "Проекты/План.md", before: "a\nb\nc\n", after: "a\nB\nc\nd\n" };
const call: ToolCallProposal = { toolId: "mcp_fs_write_file", source: "fs", toolName: "write_file", arguments: { path: "/tmp/x", content: "hi" } };

const askEdit = (proposal = edit, signal = new AbortController().signal) => modalEditApproval(asApp(new App())).requestApproval(proposal, signal);
const askCall = (signal = new AbortController().signal) => modalToolCallApproval(asApp(new App())).requestToolCallApproval(call, signal);
const dialog = () => document.querySelector<HTMLElement>(".modal")!;
const button = (name: string) => within(dialog()).getByRole<HTMLButtonElement>("button", { name });

/** Accept once the dialog's first moments are over (it ignores clicks before). */
async function armedAccept(): Promise<HTMLButtonElement> {
  await waitFor(() => expect(button("Accept").getAttribute("aria-disabled")).toBe("false"), patiently);
  return button("Accept");
}

describe("the approval dialog for an edit", () => {
  it("is titled by the question and shows the diff as the chat's card does, as text", async () => {
    const decision = askEdit();
    expect(document.querySelector(".modal-title")?.textContent).toBe("Edit Проекты/План.md?");
    expect(within(dialog()).getByText(/2 lines added, 1 removed/)).toBeTruthy();
    const rows = within(dialog())
      .getAllByRole("row")
      .map((row) => row.textContent);
    expect(rows).toEqual(["⋯@@ -1,3 +1,4 @@", " a", "−b", "+B", " c", "+d"]);
    (await armedAccept()).click();
    await expect(decision).resolves.toEqual({ approved: true });
    expect(document.querySelector(".modal-container")).toBeNull();
  });

  it("passes the user's reason with a rejection", async () => {
    const decision = askEdit();
    fireEvent.change(within(dialog()).getByRole("textbox", { name: /Reason for rejecting/ }), { target: { value: "оставь строчные" } });
    button("Reject").click();
    await expect(decision).resolves.toEqual({ approved: false, reason: "the user said: оставь строчные" });
  });

  it("counts closing without an answer, and a stopped run, as a rejection", async () => {
    // Escape and the close button both end in Modal.close.
    const closed = new Promise<ApprovalDecision>((resolve) => {
      const modal = new ApprovalModal(asApp(new App()), { kind: "edit", proposal: edit }, resolve, "the user closed the approval view without answering");
      modal.open();
      modal.close();
    });
    await expect(closed).resolves.toEqual({ approved: false, reason: "the user closed the approval view without answering" });
    const controller = new AbortController();
    const stopped = askEdit(edit, controller.signal);
    controller.abort();
    await expect(stopped).resolves.toEqual({ approved: false, reason: "the run was stopped" });
    expect(document.querySelector(".modal-container")).toBeNull();
  });

  it("renders angle brackets from the note as text, never as markup", () => {
    void askEdit({ ...edit, before: null, after: "<img src=x onerror=alert(1)>\n" });
    expect(document.querySelector("img")).toBeNull();
    expect(within(dialog()).getByText("<img src=x onerror=alert(1)>")).toBeTruthy();
    expect(document.querySelector(".modal-title")?.textContent).toBe("Create Проекты/План.md?");
  });

  it("offers a choice per change when there are several, and Accept answers with the chosen ones", async () => {
    const lines = Array.from({ length: 24 }, (_, index) => `${["行", "سطر", "บรรทัด"][index % 3]} ${index + 1}`);
    const after = lines.map((line, index) => ([1, 12, 22].includes(index) ? `${line} 🌱` : line));
    const decision = askEdit({ ...edit, before: `${lines.join("\n")}\n`, after: `${after.join("\n")}\n` });
    const choices = within(dialog()).getAllByRole<HTMLInputElement>("checkbox");
    expect(choices.map((box) => box.getAttribute("aria-label"))).toEqual(["Apply change 1 of 3 (line 2)", "Apply change 2 of 3 (line 13)", "Apply change 3 of 3 (line 23)"]);
    const accept = await armedAccept();
    fireEvent.click(choices[1]!);
    accept.click();
    await expect(decision).resolves.toEqual({ approved: true, hunks: [0, 2] });
  });

  it("keeps a choice for the changes past the lines it shows, and says how many lines it leaves out", async () => {
    // A first change of 220 lines (440 diff lines) fills the view; two small ones come after it.
    const lines = Array.from({ length: 800 }, (_, index) => `Строка ${index + 1}`);
    const after = lines.map((line, index) => (index < 220 || index === 650 || index === 780 ? `${line} ✓` : line));
    const decision = askEdit({ ...edit, before: `${lines.join("\n")}\n`, after: `${after.join("\n")}\n` });
    const last = within(dialog()).getByRole<HTMLInputElement>("checkbox", { name: "Apply change 3 of 3 (line 781)" });
    expect(within(dialog()).getByRole("checkbox", { name: "Apply change 2 of 3 (line 651)" })).toBeTruthy();
    expect(within(dialog()).getAllByText(/lines? not shown/).length).toBeGreaterThan(0);
    const accept = await armedAccept();
    fireEvent.click(last);
    accept.click();
    await expect(decision).resolves.toEqual({ approved: true, hunks: [0, 1] });
  });
});

describe("the approval dialog for a tool call", () => {
  it("shows the tool, its server and the exact arguments, and says it may change things", async () => {
    const decision = askCall();
    expect(document.querySelector(".modal-title")?.textContent).toBe("Run write_file from fs?");
    expect(dialog().textContent).toContain("may change things outside your vault");
    expect(JSON.parse(dialog().querySelector("pre")?.textContent ?? "")).toEqual(call.arguments);
    (await armedAccept()).click();
    await expect(decision).resolves.toEqual({ approved: true });
    expect(document.querySelector(".modal-title")).toBeNull();
  });

  it("ignores Accept and Mod+Enter in its first moments, then Mod+Enter anywhere in the dialog accepts", async () => {
    let answered = false;
    const decision = askCall().then((answer) => {
      answered = true;
      return answer;
    });
    button("Accept").click();
    dialog().dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", ctrlKey: true, bubbles: true }));
    await Promise.resolve();
    expect({ answered, disabled: button("Accept").getAttribute("aria-disabled") }).toEqual({ answered: false, disabled: "true" });
    await armedAccept();
    dialog().dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", metaKey: true, bubbles: true }));
    await expect(decision).resolves.toEqual({ approved: true });
  });

  it("refuses on Reject", async () => {
    const decision = askCall();
    button("Reject").click();
    await expect(decision).resolves.toEqual({ approved: false, reason: "the user rejected it" });
  });

  it("refuses when the run is stopped, or was already", async () => {
    const controller = new AbortController();
    const decision = askCall(controller.signal);
    controller.abort();
    await expect(decision).resolves.toEqual({ approved: false, reason: "the run was stopped" });
    const stopped = new AbortController();
    stopped.abort();
    await expect(askCall(stopped.signal)).resolves.toEqual({ approved: false, reason: "the run was stopped" });
  });
});

describe("an edit approved in the dialog", () => {
  it("is written to Obsidian's vault exactly, and one undo restores it", async () => {
    const app = new App();
    await app.vault.create("План.md", "- [ ] ship\n- [ ] review\n");
    const vault = new ObsidianVault(asApp(app));
    const history = new EditHistory(vault);
    const dependencies = makeToolDependencies({ vault, editHistory: history, approval: modalEditApproval(asApp(app)) });
    const result = callTool(replaceInFileTool, dependencies, { path: "План.md", oldText: "- [ ] ship", newText: "- [x] ship" });
    (await armedAccept()).click();
    expect((await result).text).toContain('Edited "План.md" (+1 -1 lines)');
    expect(await vault.read("План.md")).toBe("- [x] ship\n- [ ] review\n");
    await undoLastEdit(history);
    expect(await vault.read("План.md")).toBe("- [ ] ship\n- [ ] review\n");
  });

  it("change by change writes only the chosen changes, every other byte as it was (CRLF kept)", async () => {
    const app = new App();
    const before = "# 日记\r\n\r\nمرحبا\r\none\r\ntwo\r\nthree\r\nfour\r\nfive\r\nsix\r\nseven\r\nend 🌙\r\n";
    await app.vault.create("日记.md", before);
    const vault = new ObsidianVault(asApp(app));
    const dependencies = makeToolDependencies({ vault, editHistory: new EditHistory(vault), approval: modalEditApproval(asApp(app)) });
    const after = before.replace("مرحبا", "أهلا").replace("end 🌙", "end ☀️");
    const result = callTool(writeToFileTool, dependencies, { path: "日记.md", content: after });
    await waitFor(() => expect(within(dialog()).getAllByRole("checkbox")).toHaveLength(2), patiently);
    const accept = await armedAccept();
    fireEvent.click(within(dialog()).getAllByRole("checkbox")[1]!);
    accept.click();
    expect((await result).text).toMatch(/applied 1 of the 2 changes/);
    expect(await vault.read("日记.md")).toBe(before.replace("مرحبا", "أهلا"));
  });

  it("stays open past the tool's time limit until the user answers, and the edit is then written", async () => {
    const app = new App();
    await app.vault.create("Plan.md", "- [ ] ship\n");
    const vault = new ObsidianVault(asApp(app));
    const dependencies = makeToolDependencies({ vault, editHistory: new EditHistory(vault), approval: modalEditApproval(asApp(app)) });
    const result = runTool(replaceInFileTool.create(dependencies), { path: "Plan.md", oldText: "- [ ] ship", newText: "- [x] ship" }, {
      toolCallId: "call_1",
      defaultTimeoutMs: 30,
      maxOutputChars: 10_000,
    });
    const accept = await armedAccept();
    // Armed only after APPROVAL_ARMING_MS, well past the tool's 30 ms limit: the dialog still waits.
    expect(document.querySelector(".modal-container")).not.toBeNull();
    accept.click();
    expect((await result).status).toBe("ok");
    expect(await vault.read("Plan.md")).toBe("- [x] ship\n");
  });
});
