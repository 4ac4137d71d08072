import type { App as ObsidianApp, Plugin as ObsidianPlugin } from "obsidian";
import { App, Plugin } from "../../test/obsidian/obsidian";
import { PromptLibrary } from "../prompts/PromptLibrary";
import { STARTER_PROMPTS } from "../prompts/starterPrompts";
import { ObsidianVault } from "../vault/ObsidianVault";
import type { CopilotView, PromptToRun } from "./CopilotView";
import { registerPromptCommands } from "./promptCommands";

const settle = () => new Promise((resolve) => setTimeout(resolve, 400));

describe("the commands around the user's prompts", () => {
  it("makes one command per prompt that asks for it, kept in step with the prompts folder, and runs it in the chat", async () => {
    const app = new App();
    await app.vault.createFolder("copilot/prompts");
    await app.vault.create("copilot/prompts/Summarize.md", "---\ncommand: true\n---\nSummarize {{activeNote}}.");
    await app.vault.create("copilot/prompts/Quiet.md", "Not a command.");
    const plugin = new Plugin(app, { id: "vault-copilot", name: "Vault Copilot", version: "0", minAppVersion: "0", author: "", description: "" });
    const vault = new ObsidianVault(app as unknown as ObsidianApp);
    const prompts = new PromptLibrary(vault, () => "copilot/prompts");
    const ran: PromptToRun[] = [];
    const view = { runPrompt: (prompt: PromptToRun) => Promise.resolve(void ran.push(prompt)) } as unknown as CopilotView;
    registerPromptCommands(plugin as unknown as ObsidianPlugin, { prompts, vault, promptsFolder: () => "copilot/prompts", openChatView: () => Promise.resolve(view) });
    app.workspace.finishLayout();
    await settle();
    const names = () => [...plugin.registered.commands.values()].map((command) => command.name).sort();
    expect(names()).toEqual(["Create starter prompts", "Edit selection with Copilot", "Run prompt: Summarize"]);

    expect(await plugin.runCommand("prompt:Summarize")).toBe(true);
    await settle();
    expect(ran.map((prompt) => prompt.body)).toEqual(["Summarize {{activeNote}}."]);

    // A prompt note added, and one changed so it no longer asks: the commands follow.
    await app.vault.create("copilot/prompts/Tidy.md", "---\ncommand: true\n---\nTidy up.");
    await app.vault.modify(app.vault.getFileByPath("copilot/prompts/Summarize.md")!, "Summarize, no command.");
    await settle();
    expect(names()).toEqual(["Create starter prompts", "Edit selection with Copilot", "Run prompt: Tidy"]);

    // "Create starter prompts" writes them, and never over a prompt of the same name.
    expect(await plugin.runCommand("create-starter-prompts")).toBe(true);
    await settle();
    for (const name of Object.keys(STARTER_PROMPTS)) {
      const text = await app.vault.read(app.vault.getFileByPath(`copilot/prompts/${name}.md`)!);
      expect(text).toBe(name === "Summarize" ? "Summarize, no command." : STARTER_PROMPTS[name]);
    }
    prompts.dispose();
  });
});
