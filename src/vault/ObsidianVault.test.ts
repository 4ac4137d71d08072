import type { App as ObsidianApp, CachedMetadata } from "obsidian";
import { App } from "../../test/obsidian/obsidian";
import { ObsidianDataStore, ObsidianVault } from "./ObsidianVault";
import { VaultPathError } from "./vaultPath";
import { VaultFileExistsError, VaultFileNotFoundError, VaultNotTextError, type VaultEvent } from "./VaultPort";

/** The adapter over the Obsidian double's in-memory vault (what Obsidian gives it at run time). */
async function vaultWith(files: Record<string, string>, configDir = ".obsidian"): Promise<{ app: App; vault: ObsidianVault }> {
  const app = new App({ configDir });
  for (const [path, text] of Object.entries(files)) {
    const folder = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
    if (folder && !app.vault.getFolderByPath(folder)) await app.vault.createFolder(folder);
    await app.vault.create(path, text);
  }
  return { app, vault: new ObsidianVault(app as unknown as ObsidianApp) };
}

describe("ObsidianVault", () => {
  it("lists notes and files, sorted, leaving out the config folder", async () => {
    const { vault } = await vaultWith({
      "b.md": "",
      "a/c.md": "",
      "a/picture.png": "",
      ".obsidian/snippets/theme.md": "",
      ".obsidian.md": "",
    });
    expect(await vault.listNotes()).toEqual([".obsidian.md", "a/c.md", "b.md"]);
    expect(await vault.listFiles()).toEqual([".obsidian.md", "a/c.md", "a/picture.png", "b.md"]);
  });

  it("honours a config folder with another name", async () => {
    const { vault } = await vaultWith({ "_settings/x.md": "", "y.md": "" }, "_settings");
    expect(vault.configDir).toBe("_settings");
    expect(await vault.listNotes()).toEqual(["y.md"]);
  });

  it("reads a file's bytes through Vault.readBinary, and refuses a path outside the vault", async () => {
    const { app, vault } = await vaultWith({});
    const bytes = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0xff, 0x00]);
    await app.vault.createFolder("Документы");
    await app.vault.createBinary("Документы/a.pdf", bytes.buffer);
    expect(new Uint8Array(await vault.readBinary("Документы/a.pdf"))).toEqual(bytes);
    await expect(vault.readBinary("missing.pdf")).rejects.toBeInstanceOf(VaultFileNotFoundError);
    await expect(vault.readBinary("../a.pdf")).rejects.toBeInstanceOf(VaultPathError);
  });

  it("reads a note, and says which path is missing", async () => {
    const { vault } = await vaultWith({ "notes/a.md": "alpha" });
    expect(await vault.read("notes/a.md")).toBe("alpha");
    expect(await vault.read("notes//a.md")).toBe("alpha");
    await expect(vault.read("notes/none.md")).rejects.toEqual(new VaultFileNotFoundError("notes/none.md"));
  });

  it("gives the stat of a file, or null", async () => {
    const { vault } = await vaultWith({ "a.md": "héllo" });
    expect(await vault.stat("a.md")).toMatchObject({ size: 6 });
    expect(await vault.stat("b.md")).toBeNull();
  });

  it("creates a note with the folders it needs, and refuses one that exists", async () => {
    const { app, vault } = await vaultWith({ "taken.md": "x" });
    await vault.create("deep/er/new.md", "body");
    expect(app.vault.getFolderByPath("deep/er")).not.toBeNull();
    expect(await vault.read("deep/er/new.md")).toBe("body");
    await expect(vault.create("taken.md", "y")).rejects.toBeInstanceOf(VaultFileExistsError);
    expect(await vault.read("taken.md")).toBe("x");
  });

  it("edits through Vault.process: the transform sees the current text and a throw changes nothing", async () => {
    const { vault } = await vaultWith({ "a.md": "one" });
    expect(await vault.process("a.md", (text) => `${text} two`)).toBe("one two");
    await expect(
      vault.process("a.md", () => {
        throw new Error("text not found");
      }),
    ).rejects.toThrow("text not found");
    expect(await vault.read("a.md")).toBe("one two");
    await expect(vault.process("none.md", (text) => text)).rejects.toBeInstanceOf(VaultFileNotFoundError);
  });

  it("never writes back a note that is not UTF-8 (Obsidian would decode it leniently), and says so", async () => {
    const { app, vault } = await vaultWith({});
    const latin1 = Uint8Array.from([0x63, 0x61, 0x66, 0xe9, 0x0a]);
    const file = await app.vault.createBinary("latin1.md", latin1.buffer);
    await expect(vault.process("latin1.md", (text) => `${text}more`)).rejects.toBeInstanceOf(VaultNotTextError);
    await expect(vault.read("latin1.md", { forEdit: true })).rejects.toBeInstanceOf(VaultNotTextError);
    expect(new Uint8Array(await app.vault.readBinary(file))).toEqual(latin1);
    expect(await vault.read("latin1.md")).toBe("caf\uFFFD\n");
  });

  it("renames through the file manager, into a new folder, never over another file", async () => {
    const { app, vault } = await vaultWith({ "a.md": "alpha", "b.md": "beta" });
    await vault.rename("a.md", "archive/2026/a2.md");
    expect(app.vault.getFileByPath("a.md")).toBeNull();
    expect(await vault.read("archive/2026/a2.md")).toBe("alpha");
    await expect(vault.rename("b.md", "archive/2026/a2.md")).rejects.toBeInstanceOf(VaultFileExistsError);
    await expect(vault.rename("gone.md", "c.md")).rejects.toBeInstanceOf(VaultFileNotFoundError);
    await expect(vault.rename("b.md", ".obsidian/b.md")).rejects.toBeInstanceOf(VaultPathError);
    expect(await vault.read("b.md")).toBe("beta");
  });

  it("trashes through the file manager", async () => {
    const { app, vault } = await vaultWith({ "a.md": "x" });
    await vault.trash("a.md");
    expect(app.vault.getFileByPath("a.md")).toBeNull();
    await expect(vault.trash("a.md")).rejects.toBeInstanceOf(VaultFileNotFoundError);
  });

  it("refuses paths that leave the vault or enter the config folder, before touching anything", async () => {
    const { vault } = await vaultWith({ "a.md": "x" });
    for (const path of ["../a.md", "/etc/passwd", "C:\\x.md", ".obsidian/app.json", ".OBSIDIAN/plugins/x/data.json", ""]) {
      // Every method rejects (none throws at the call), so callers can rely on the promise.
      await expect(vault.read(path)).rejects.toBeInstanceOf(VaultPathError);
      await expect(vault.create(path, "x")).rejects.toBeInstanceOf(VaultPathError);
      await expect(vault.process(path, (text) => text)).rejects.toBeInstanceOf(VaultPathError);
      await expect(vault.stat(path)).rejects.toBeInstanceOf(VaultPathError);
      await expect(vault.getMetadata(path)).rejects.toBeInstanceOf(VaultPathError);
      await expect(vault.trash(path)).rejects.toBeInstanceOf(VaultPathError);
    }
  });

  it("turns Obsidian's cached metadata into the port's shape", async () => {
    const { app, vault } = await vaultWith({ "n.md": "" });
    const position = { start: { line: 4, col: 0, offset: 0 }, end: { line: 4, col: 9, offset: 9 } };
    const cache: CachedMetadata = {
      frontmatter: { tags: ["project", "#work"], aliases: "Nickname", status: "draft" },
      tags: [{ tag: "#inline", position }, { tag: "#work", position }],
      links: [{ link: "Other#Part", original: "[[Other#Part|alias]]", displayText: "alias", position }],
      embeds: [{ link: "image.png", original: "![[image.png]]", position }],
      headings: [{ heading: "Title", level: 2, position }],
    };
    app.metadataCache.setFileCache("n.md", cache);
    expect(await vault.getMetadata("n.md")).toEqual({
      frontmatter: { tags: ["project", "#work"], aliases: "Nickname", status: "draft" },
      tags: ["#project", "#work", "#inline"],
      aliases: ["Nickname"],
      links: [
        { link: "Other", original: "[[Other#Part|alias]]", embed: false },
        { link: "image.png", original: "![[image.png]]", embed: true },
      ],
      headings: [{ heading: "Title", level: 2, line: 4 }],
    });
  });

  it("gives empty metadata for a note Obsidian has not parsed yet, and null for no note", async () => {
    const { vault } = await vaultWith({ "n.md": "" });
    expect(await vault.getMetadata("n.md")).toEqual({ frontmatter: {}, tags: [], aliases: [], links: [], headings: [] });
    expect(await vault.getMetadata("none.md")).toBeNull();
  });

  it("forwards file events outside the config folder, and stops after unsubscribing", async () => {
    const { app, vault } = await vaultWith({ "a.md": "x" });
    const names = ["create", "modify", "delete", "rename"];
    const listenersBefore = names.map((name) => app.vault.listenerCount(name));
    const events: VaultEvent[] = [];
    const unsubscribe = vault.onChange((event) => events.push(event));
    await vault.create("b.md", "new");
    await vault.process("a.md", (text) => `${text}!`);
    await app.vault.rename(app.vault.getFileByPath("b.md")!, "c.md");
    await app.vault.createFolder("folder");
    await app.vault.adapter.mkdir(".obsidian/plugins");
    await vault.trash("a.md");
    unsubscribe();
    await vault.create("d.md", "after");
    expect(events).toEqual([
      { type: "create", path: "b.md" },
      { type: "modify", path: "a.md" },
      { type: "rename", path: "c.md", oldPath: "b.md" },
      { type: "delete", path: "a.md" },
    ]);
    expect(names.map((name) => app.vault.listenerCount(name))).toEqual(listenersBefore);
  });

  it("does not forward changes inside the config folder", async () => {
    const { app, vault } = await vaultWith({});
    const events: VaultEvent[] = [];
    vault.onChange((event) => events.push(event));
    await app.vault.createFolder(".obsidian/snippets");
    await app.vault.create(".obsidian/snippets/x.md", "");
    expect(events).toEqual([]);
  });
});

describe("ObsidianDataStore", () => {
  it("keeps named files in the plugin folder through the adapter", async () => {
    const { app } = await vaultWith({});
    const store = new ObsidianDataStore(app.vault.adapter as unknown as ObsidianApp["vault"]["adapter"], ".obsidian/plugins/vault-copilot");
    expect(await store.read("index.json")).toBeNull();
    await store.write("index.json", "{}");
    expect(await app.vault.adapter.read(".obsidian/plugins/vault-copilot/index.json")).toBe("{}");
    expect(await store.read("index.json")).toBe("{}");
    await store.remove("index.json");
    expect(await store.read("index.json")).toBeNull();
    await expect(store.write("../escape.json", "x")).rejects.toThrow(RangeError);
  });
});
