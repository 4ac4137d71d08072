import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempVault, type TempVault } from "../../../test/helpers/tempVault";
import { callTool, makeToolDependencies } from "../../../test/helpers/toolHarness";
import type { ApprovalPort } from "../../ports/approval";
import { FsDataStore, pluginDataFolder } from "../../vault/fsDataStore";
import { FsVault } from "../../vault/FsVault";
import { EDIT_HISTORY_FILE, EditHistory } from "./EditHistory";
import { replaceInFileTool } from "./replaceInFile";
import { writeToFileTool } from "./writeToFile";

let vault: TempVault;
let fsVault: FsVault;
let store: FsDataStore;

beforeEach(() => {
  vault = makeTempVault({ "A.md": "after A\n" });
  fsVault = new FsVault(vault.root);
  store = new FsDataStore(pluginDataFolder(vault.root));
});
afterEach(() => vault.remove());

describe("EditHistory", () => {
  it("persists in the plugin's data folder, so a new instance (a restart, the CLI) can undo", async () => {
    await new EditHistory(fsVault, store).record({ toolId: "writeToFile", path: "A.md", before: "before A\n", after: "after A\n" });
    const afterRestart = new EditHistory(fsVault, store);
    expect(await afterRestart.list()).toMatchObject([{ path: "A.md", before: "before A\n" }]);
    expect((await afterRestart.undoLast()).status).toBe("undone");
    expect(readFileSync(join(vault.root, "A.md"), "utf8")).toBe("before A\n");
    expect(await new EditHistory(fsVault, store).list()).toEqual([]);
  });

  it("forgets the oldest edits past its limits but always keeps the newest", async () => {
    const history = new EditHistory(fsVault, null, { maxEntries: 3, maxTotalChars: 10 });
    for (let i = 0; i < 5; i++) await history.record({ toolId: "t", path: `${i}.md`, before: null, after: "12345" });
    expect((await history.list()).map((edit) => edit.path)).toEqual(["3.md", "4.md"]);
    await history.record({ toolId: "t", path: "big.md", before: null, after: "x".repeat(50) });
    expect((await history.list()).map((edit) => edit.path)).toEqual(["big.md"]);
  });

  it("reports an unreadable history on undo, and replaces it on the next edit", async () => {
    await store.write(EDIT_HISTORY_FILE, "{not json");
    const history = new EditHistory(fsVault, store);
    await expect(history.undoLast()).rejects.toThrow(/edit history \(edit-history.json\) is unreadable/);
    // Beside the sentence, its case: the file and the parser's words.
    await expect(history.undoLast()).rejects.toMatchObject({ problem: { code: "not-json", file: EDIT_HISTORY_FILE, detail: expect.any(String) } });
    await store.write(EDIT_HISTORY_FILE, JSON.stringify({ version: 1, edits: [{ путь: "Заметка 🌿.md" }] }));
    await expect(history.undoLast()).rejects.toThrow("The edit history (edit-history.json) does not have the expected shape.");
    await expect(history.undoLast()).rejects.toMatchObject({ problem: { code: "wrong-shape", file: EDIT_HISTORY_FILE } });
    await history.record({ toolId: "t", path: "A.md", before: "x", after: "after A\n" });
    expect(await history.list()).toHaveLength(1);
  });

  it("refuses to trash a note it created once the user changed it", async () => {
    const history = new EditHistory(fsVault);
    await history.record({ toolId: "writeToFile", path: "A.md", before: null, after: "as created\n" });
    const outcome = await history.undoLast();
    expect(outcome.status).toBe("refused");
    expect(outcome.message).toContain("changed after Copilot created it");
    writeFileSync(join(vault.root, "A.md"), "as created\n");
    expect((await history.undoLast()).status).toBe("undone");
  });

  it("keeps 200 edits by default, more than one run of the agent makes at the step limit", async () => {
    const history = new EditHistory(fsVault);
    for (let i = 0; i < 210; i++) await history.record({ toolId: "t", path: `${i}.md`, before: null, after: "x" });
    const kept = await history.list();
    expect(kept).toHaveLength(200);
    expect(kept[0]?.path).toBe("10.md");
  });

  it("never forgets an edit of the run that is still going, whatever the limits", async () => {
    const history = new EditHistory(fsVault, null, { maxEntries: 3, maxTotalChars: 12 });
    await history.record({ toolId: "t", path: "earlier.md", before: null, after: "x", runId: "run-1" });
    for (let i = 0; i < 5; i++) await history.record({ toolId: "t", path: `${i}.md`, before: null, after: "12345", runId: "run-2" });
    expect((await history.list()).map((edit) => edit.path)).toEqual(["0.md", "1.md", "2.md", "3.md", "4.md"]);
    await history.record({ toolId: "t", path: "next run.md", before: null, after: "x", runId: "run-3" });
    expect((await history.list()).map((edit) => edit.path)).toEqual(["3.md", "4.md", "next run.md"]);
  });

  it("says an undo worked only when the note reads back exactly as it was", async () => {
    // Another program (a sync client, a formatter) rewrites the note right after each write.
    class RewrittenAfterWrite extends FsVault {
      override async process(path: string, transform: (current: string) => string): Promise<string> {
        const written = await super.process(path, transform);
        writeFileSync(join(vault.root, path), written.replace(/\n/g, "\r\n"));
        return written;
      }
    }
    const history = new EditHistory(new RewrittenAfterWrite(vault.root), null);
    await history.record({ toolId: "t", path: "A.md", before: "before A\n", after: "after A\n" });
    const outcome = await history.undoLast();
    expect(outcome.status).toBe("unrestorable");
    expect(outcome.message).toContain('"A.md" back, but the note does not read back as it was before the edit (it differs from line 1 on)');
    expect(outcome.message).not.toMatch(/previous text is back/);
    expect(await history.list()).toEqual([]);
  });

  it("reports an edit that can never be undone (a lone surrogate) and lets the older ones be undone", async () => {
    const history = new EditHistory(fsVault, store);
    await history.record({ toolId: "t", path: "A.md", before: "before A\n", after: "after A\n" });
    // Recorded before lone surrogates were refused: the note got U+FFFD where the edit had "\uD800".
    writeFileSync(join(vault.root, "B.md"), "broken \uFFFD\n");
    await history.record({ toolId: "t", path: "B.md", before: "fine\n", after: "broken \uD800\n" });
    const first = await history.undoLast();
    expect(first.status).toBe("unrestorable");
    expect(first.message).toContain("lone surrogate");
    expect(first.message).toContain("Run the command again to undo the edit before it");
    expect(readFileSync(join(vault.root, "B.md"), "utf8")).toBe("broken \uFFFD\n");
    const second = await history.undoLast();
    expect(second.status).toBe("undone");
    expect(readFileSync(join(vault.root, "A.md"), "utf8")).toBe("before A\n");
  });
});

describe("EditHistory shared by two writers (two CLIs, or the CLI and Obsidian)", () => {
  it("loses no edit when both record at the same time", async () => {
    const first = new EditHistory(new FsVault(vault.root), new FsDataStore(pluginDataFolder(vault.root)));
    const second = new EditHistory(new FsVault(vault.root), new FsDataStore(pluginDataFolder(vault.root)));
    const record = (history: EditHistory, name: string, count: number) =>
      Promise.all(Array.from({ length: count }, (_, index) => history.record({ toolId: "writeToFile", path: `${name}-${index}.md`, before: null, after: "x" })));
    await Promise.all([record(first, "first", 20), record(second, "second", 20)]);
    const paths = (await first.list()).map((edit) => edit.path);
    expect(paths).toHaveLength(40);
    expect(new Set(paths).size).toBe(40);
  });
});

describe("undo through the shared history, of edits the edit tools made", () => {
  let history: EditHistory;
  const approving: ApprovalPort = { requestApproval: () => Promise.resolve({ approved: true }) };
  const dependencies = () => makeToolDependencies({ vault: fsVault, approval: approving, editHistory: history });
  const read = (path: string) => readFileSync(join(vault.root, path), "utf8");

  beforeEach(() => {
    vault.write("Other.md", "untouched\n");
    vault.write("Windows.md", "line one\r\nline two\r\n");
    history = new EditHistory(fsVault);
  });

  it("restores the exact previous text, then trashes a created note, newest first", async () => {
    await callTool(writeToFileTool, dependencies(), { path: "Created.md", content: "new\n" });
    await callTool(replaceInFileTool, dependencies(), { path: "Windows.md", oldText: "line two", newText: "line 2" });
    expect((await history.undoLast()).status).toBe("undone");
    expect(read("Windows.md")).toBe("line one\r\nline two\r\n");
    const second = await history.undoLast();
    expect(second.message).toContain("moved \"Created.md\", which it had created, to the trash");
    expect(existsSync(join(vault.root, "Created.md"))).toBe(false);
    expect((await history.undoLast()).status).toBe("nothing");
  });

  it("refuses to undo over changes made after the edit", async () => {
    await callTool(replaceInFileTool, dependencies(), { path: "Other.md", oldText: "untouched", newText: "touched" });
    writeFileSync(join(vault.root, "Other.md"), "touched, then edited by hand\n");
    const outcome = await history.undoLast();
    expect(outcome.status).toBe("refused");
    expect(outcome.message).toContain("the note changed after the edit");
    expect(read("Other.md")).toBe("touched, then edited by hand\n");
  });

  it("works across folders for a note created in a new one", async () => {
    mkdirSync(join(vault.root, "Kept"), { recursive: true });
    await callTool(writeToFileTool, dependencies(), { path: "Kept/Made.md", content: "m" });
    expect((await history.undoLast()).status).toBe("undone");
    expect(existsSync(join(vault.root, "Kept/Made.md"))).toBe(false);
  });
});
