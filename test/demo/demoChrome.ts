import type { App, Plugin, TAbstractFile } from "../obsidian/obsidian";
import { TFile } from "../obsidian/obsidian";
import type { DemoSettingsWindow } from "./settingsWindow";

/**
 * What stands around the plugin on the demo page, in the workspace's left sidebar: the vault's
 * notes (a click opens one in the main area, where a person can type and select) and the
 * plugin's commands (a click runs one, as the command palette would, e.g. "Add selection to chat"),
 * and "Settings", which opens Obsidian's settings at the plugin's tab.
 */
export function showDemoChrome(app: App, plugin: Plugin, settings: DemoSettingsWindow): void {
  const sidebar = app.workspace.leftSplit.containerEl;
  sidebar.empty();

  const notes = sidebar.createEl("nav", { cls: "demo-file-list", attr: { "aria-label": "Notes" } });
  notes.createEl("h2", { text: "Notes" });
  const list = notes.createEl("ul");
  const drawNotes = () => {
    list.empty();
    const files = app.vault.getMarkdownFiles().sort((a, b) => a.path.localeCompare(b.path));
    for (const file of files) {
      const button = list.createEl("li").createEl("button", { cls: "demo-file", text: file.path.replace(/\.md$/, ""), attr: { "data-path": file.path } });
      button.toggleClass("is-active", app.workspace.getActiveFile() === file);
      button.addEventListener("click", () => void app.workspace.openFile(file));
    }
  };
  drawNotes();
  for (const event of ["create", "delete", "rename"]) app.vault.on(event, (entry) => (entry as TAbstractFile) instanceof TFile && drawNotes());
  app.workspace.on("file-open", drawNotes);

  const settingsButton = sidebar.createEl("button", { cls: "demo-command", text: "Settings" });
  settingsButton.addEventListener("click", () => settings.open());

  const commands = sidebar.createEl("nav", { cls: "demo-commands", attr: { "aria-label": "Commands" } });
  commands.createEl("h2", { text: "Commands" });
  const commandList = commands.createEl("ul");
  for (const command of plugin.registered.commands.values()) {
    const button = commandList.createEl("li").createEl("button", { cls: "demo-command", text: command.name, attr: { "data-command-id": command.id } });
    // Keeps the note's selection: a mousedown on a button would otherwise move focus first.
    button.addEventListener("mousedown", (event) => event.preventDefault());
    button.addEventListener("click", () => {
      void plugin.runCommand(command.id).then((ran) => {
        if (!ran) console.warn(`"${command.name}" is not available now (an editor command needs an open note)`);
      });
    });
  }
}
