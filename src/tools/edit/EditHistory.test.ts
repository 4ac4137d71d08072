import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempVault, type TempVault } from "../../../test/helpers/tempVault";
import { FsDataStore, pluginDataFolder } from "../../vault/fsDataStore";
import { FsVault } from "../../vault/FsVault";
import { EDIT_HISTORY_FILE, EditHistory } from "./EditHistory";

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
});
