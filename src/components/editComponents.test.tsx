import { waitFor } from "@testing-library/dom";
import type { App as ObsidianApp, Plugin as ObsidianPlugin } from "obsidian";
import { App, Plugin } from "../../test/obsidian/obsidian";
import { clockAt } from "../../test/helpers/toolHarness";
import { EditHistory } from "../tools/edit/EditHistory";
import { UNDO_LAST_EDIT_COMMAND_NAME } from "../tools/edit/proposeAndApplyEdit";
import { ObsidianVault } from "../vault/ObsidianVault";
import { registerEditCommands } from "./editCommands";
import { registerPomodoro } from "./pomodoroStatusBar";

const manifest = { id: "vault-copilot", name: "Vault Copilot", version: "0.1.0", minAppVersion: "1.11.4", description: "", author: "", authorUrl: "", isDesktopOnly: false };

/** Obsidian's Plugin is abstract; a plugin with nothing of its own to load. */
class TestPlugin extends Plugin {}
const asApp = (app: App) => app as unknown as ObsidianApp;
const asPlugin = (plugin: Plugin) => plugin as unknown as ObsidianPlugin;

afterEach(() => document.body.empty());

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
