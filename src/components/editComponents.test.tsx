import { waitFor } from "@testing-library/dom";
import type { App as ObsidianApp, Plugin as ObsidianPlugin } from "obsidian";
import { App, Plugin } from "../../test/obsidian/obsidian";
import { clockAt } from "../../test/helpers/toolHarness";
import { EditHistory } from "../tools/edit/EditHistory";
import { UNDO_LAST_EDIT_COMMAND_NAME } from "../tools/edit/proposeAndApplyEdit";
import { ObsidianVault } from "../vault/ObsidianVault";
import { registerEditCommands } from "./editCommands";
import { registerPomodoro } from "./pomodoroStatusBar";
import { makeTempVault, type TempVault } from "../../test/helpers/tempVault";
import { EDIT_HISTORY_FILE } from "../tools/edit/EditHistory";
import { FsDataStore } from "../vault/fsDataStore";
import { FsVault } from "../vault/FsVault";

const manifest = { id: "vault-copilot", name: "Vault Copilot", version: "0.1.0", minAppVersion: "1.11.4", description: "", author: "", authorUrl: "", isDesktopOnly: false };

/** Obsidian's Plugin is abstract; a plugin with nothing of its own to load. */
class TestPlugin extends Plugin {}
const asApp = (app: App) => app as unknown as ObsidianApp;
const asPlugin = (plugin: Plugin) => plugin as unknown as ObsidianPlugin;

afterEach(() => document.body.empty());

/** Runs the registered undo command as Obsidian's palette does (its callback), and returns the notice it showed. */
async function runUndoCommand(plugin: TestPlugin): Promise<string> {
  document.querySelectorAll(".notice").forEach((notice) => notice.remove());
  expect(await plugin.runCommand("vault-copilot:undo-last-agent-edit")).toBe(true);
  return waitFor(() => {
    const text = document.querySelector(".notice")?.textContent;
    if (!text) throw new Error("the command showed no notice");
    return text;
  });
}

describe("registerEditCommands", () => {

  it("adds the undo command, which restores the note and says so in a notice", async () => {
    const app = new App();
    await app.vault.create("A.md", "after\n");
    const plugin = new TestPlugin(app, manifest);
    const vault = new ObsidianVault(asApp(app));
    const history = new EditHistory(vault);
    await history.record({ toolId: "writeToFile", path: "A.md", before: "before\n", after: "after\n" });
    registerEditCommands(asPlugin(plugin), history);
    expect(plugin.registered.commands.get("vault-copilot:undo-last-agent-edit")?.name).toBe(UNDO_LAST_EDIT_COMMAND_NAME);
    const message = await runUndoCommand(plugin);
    expect(message).toContain("its previous text is back");
    expect(await vault.read("A.md")).toBe("before\n");
    expect(await history.list()).toEqual([]);
    expect(await runUndoCommand(plugin)).toBe("There is no Copilot edit to undo.");
  });
});

describe("the undo command when the edit history cannot be read", () => {
  let folder: TempVault | undefined;
  afterEach(() => {
    folder?.remove();
    folder = undefined;
    window.localStorage.removeItem("language");
  });

  /** The undo command's notice over a stored history that is `stored`, in `language`. */
  async function undoNotice(stored: string, language: string): Promise<string> {
    if (language !== "en") window.localStorage.setItem("language", language);
    folder?.remove();
    folder = makeTempVault({ "Заметка 🌿.md": "после\n" });
    const store = new FsDataStore(folder.root);
    await store.write(EDIT_HISTORY_FILE, stored);
    const plugin = new TestPlugin(new App(), manifest);
    registerEditCommands(asPlugin(plugin), new EditHistory(new FsVault(folder.root), store));
    return runUndoCommand(plugin);
  }
  const wrongShape = JSON.stringify({ version: 1, edits: [{ путь: "Заметка 🌿.md" }] });

  it("in English, says the history's own sentence as before", async () => {
    expect(await undoNotice(wrongShape, "en")).toBe("Could not undo the agent's last edit: The edit history (edit-history.json) does not have the expected shape.");
    expect(await undoNotice("{не json", "en")).toMatch(/^Could not undo the agent's last edit: The edit history \(edit-history\.json\) is unreadable: /);
  });

  it("in German and in Japanese, says it by its case", async () => {
    expect(await undoNotice(wrongShape, "de")).toBe("Die letzte Bearbeitung des Agenten konnte nicht rückgängig gemacht werden: Der Bearbeitungsverlauf (edit-history.json) hat nicht die erwartete Form.");
    expect(await undoNotice("{не json", "ja")).toMatch(/^エージェントの直前の編集を元に戻せませんでした：編集履歴（edit-history\.json）を読み込めません：.+/);
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
