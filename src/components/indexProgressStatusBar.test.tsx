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

describe("embedding progress in the status bar", () => {
  it.each([["finishes", false], ["stops on failures with notes still waiting", true]])("shows while notes wait during a real run and hides when the run %s", async (_ending, failing) => {
    const { startEmbeddingServer } = await import("../../test/helpers/embeddingServer");
    const { makeTempVault } = await import("../../test/helpers/tempVault");
    const { FsVault } = await import("../vault/FsVault");
    const { FsDataStore } = await import("../vault/fsDataStore");
    const { MapSecretStore } = await import("../ports/SecretStore");
    const { createSemanticSearch } = await import("../search/embeddings/semanticSearch");
    const { DEFAULT_SETTINGS } = await import("../constants");
    const { createEmbeddingProgressStatusBar } = await import("./indexProgressStatusBar");
    const notes = Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`Note ${index}.md`, `# Note ${index}\n\nText number ${index} about gardens.\n`]));
    const vault = makeTempVault(notes);
    const server = await startEmbeddingServer();
    // After the first batch, every request is refused (not retried): the run stops with notes waiting.
    if (failing) for (let request = 1; request < 20; request++) server.failRequest(request, { status: 400, message: "refused" });
    try {
      const plugin = new TestPlugin(new App(), manifest);
      const report = createEmbeddingProgressStatusBar(plugin as unknown as ObsidianPlugin);
      const item = plugin.registered.statusBarItems[0]!;
      const shown: string[] = [];
      const settings = { ...structuredClone(DEFAULT_SETTINGS), embeddings: { ...DEFAULT_SETTINGS.embeddings, enabled: true, baseUrl: server.baseUrl, model: "test-embed" } };
      const semantic = createSemanticSearch({
        vault: new FsVault(vault.root),
        store: new FsDataStore(`${vault.root}/.obsidian/plugins/vault-copilot`),
        fetch: globalThis.fetch,
        secrets: new MapSecretStore(),
        getSettings: () => settings,
        onProgress: (status) => {
          report(status);
          if (item.style.display !== "none") shown.push(item.textContent ?? "");
        },
      });
      await semantic.embedder.start();
      await semantic.embedder.dispose();
      expect(shown.length).toBeGreaterThan(0);
      expect(shown[0]).toMatch(/^Embedding notes: \d+ done, \d+ waiting$/);
      expect(item.style.display).toBe("none");
      if (failing) expect(semantic.embedder.status().waiting + semantic.embedder.status().failed).toBeGreaterThan(0);
      else expect(semantic.embedder.status().embeddedNotes).toBe(40);
    } finally {
      await server.close();
      vault.remove();
    }
  });
});
