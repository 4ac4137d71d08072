import type { Plugin as ObsidianPlugin } from "obsidian";
import { App, Plugin } from "../../test/obsidian/obsidian";
import { createIndexProgressStatusBar } from "./indexProgressStatusBar";

class TestPlugin extends Plugin {}
const manifest = { id: "vault-copilot", name: "Vault Copilot", version: "0.1.0", minAppVersion: "1.11.4", description: "", author: "", authorUrl: "", isDesktopOnly: false };

describe("index progress in the status bar", () => {
  it("shows a long build while it indexes and hides it when done; short builds never show", () => {
    const plugin = new TestPlugin(new App(), manifest);
    const report = createIndexProgressStatusBar(plugin as unknown as ObsidianPlugin);
    const item = plugin.registered.statusBarItems[0]!;
    expect(item.hasClass("vault-copilot-index-progress")).toBe(true);
    const visible = () => item.style.display !== "none";
    expect(visible()).toBe(false);

    report({ phase: "indexing", done: 1200, total: 5183 });
    expect(visible()).toBe(true);
    expect(item.textContent).toBe(`Indexing notes ${(1200).toLocaleString()} / ${(5183).toLocaleString()}`);

    report({ phase: "indexing", done: 5183, total: 5183 });
    expect(visible()).toBe(false);

    report({ phase: "indexing", done: 10, total: 50 });
    expect(visible()).toBe(false);
    report({ phase: "saving", done: 0, total: 1 });
    expect(visible()).toBe(false);
  });
});
