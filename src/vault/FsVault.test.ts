import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTempVault, type TempVault } from "../../test/helpers/tempVault";
import { FsVault } from "./FsVault";
import { VaultPathError } from "./vaultPath";
import { VaultFileExistsError, VaultFileNotFoundError, type VaultEvent } from "./VaultPort";

describe("FsVault", () => {
  let temp: TempVault;
  let vault: FsVault;
  beforeEach(() => {
    temp = makeTempVault({
      "Inbox.md": "# Inbox\n",
      "projects/Alpha.md": "---\ntags: [work]\n---\n# Alpha\nSee [[Beta]] #todo\n",
      "projects/img.png": "png",
      ".obsidian/app.json": "{}",
      ".hidden/secret.md": "hidden",
      ".trash/old.md": "old",
    });
    vault = new FsVault(temp.root);
  });
  afterEach(() => temp.remove());

  it("lists notes and files, skipping the config folder and hidden entries", async () => {
    expect(await vault.listNotes()).toEqual(["Inbox.md", "projects/Alpha.md"]);
    expect(await vault.listFiles()).toEqual(["Inbox.md", "projects/Alpha.md", "projects/img.png"]);
  });

  it("reads a note and reports a missing one with a typed error", async () => {
    expect(await vault.read("projects/Alpha.md")).toContain("# Alpha");
    await expect(vault.read("missing.md")).rejects.toBeInstanceOf(VaultFileNotFoundError);
    await expect(vault.read("projects")).rejects.toBeInstanceOf(VaultFileNotFoundError);
  });

  it("reads a file's bytes exactly (a PDF, an image: not text), with the same refusals as a read", async () => {
    const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0xfe, 0x80, 0x0a]);
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe, 0x80]);
    temp.write("Papers/Отчёт.pdf", pdf);
    writeFileSync(join(temp.root, "projects/фото 📷.png"), png);
    expect(await vault.readBinary("Papers/Отчёт.pdf")).toEqual(pdf);
    expect(await vault.readBinary("projects/фото 📷.png")).toEqual(png);
    await expect(vault.readBinary("missing.pdf")).rejects.toBeInstanceOf(VaultFileNotFoundError);
    await expect(vault.readBinary("../outside.pdf")).rejects.toThrow(/Refused path/);
    await expect(vault.readBinary(".obsidian/app.json")).rejects.toThrow(/Refused path/);
  });

  it("stats files and returns null for folders and missing paths", async () => {
    const stat = await vault.stat("Inbox.md");
    expect(stat?.size).toBe(8);
    expect(stat?.mtime).toBeGreaterThan(0);
    expect(await vault.stat("projects")).toBeNull();
    expect(await vault.stat("nope.md")).toBeNull();
  });

  it("creates a note with its folders and refuses to overwrite one", async () => {
    await vault.create("new/deep/Note.md", "hello");
    expect(readFileSync(join(temp.root, "new/deep/Note.md"), "utf8")).toBe("hello");
    await expect(vault.create("Inbox.md", "x")).rejects.toBeInstanceOf(VaultFileExistsError);
    expect(readFileSync(join(temp.root, "Inbox.md"), "utf8")).toBe("# Inbox\n");
  });

  it("processes a note atomically and leaves it alone when the transform throws", async () => {
    expect(await vault.process("Inbox.md", (text) => `${text}- item\n`)).toBe("# Inbox\n- item\n");
    await expect(
      vault.process("Inbox.md", () => {
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect(readFileSync(join(temp.root, "Inbox.md"), "utf8")).toBe("# Inbox\n- item\n");
    expect(readdirSync(temp.root).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("serializes concurrent edits to one note so none is lost", async () => {
    await Promise.all(Array.from({ length: 20 }, (_, i) => vault.process("Inbox.md", (text) => `${text}${i}\n`)));
    const lines = readFileSync(join(temp.root, "Inbox.md"), "utf8").trim().split("\n").slice(1);
    expect(lines.map(Number).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it("refuses to process a missing note", async () => {
    await expect(vault.process("missing.md", (t) => t)).rejects.toBeInstanceOf(VaultFileNotFoundError);
  });

  it("renames a note into a new folder, never over another file, and reports the rename", async () => {
    const events: VaultEvent[] = [];
    vault.onChange((event) => events.push(event));
    temp.write("from.md", "moving");
    temp.write("taken.md", "stays");
    await vault.rename("from.md", "deep/er/to.md");
    expect(readFileSync(join(temp.root, "deep/er/to.md"), "utf8")).toBe("moving");
    expect(existsSync(join(temp.root, "from.md"))).toBe(false);
    expect(events).toContainEqual({ type: "rename", path: "deep/er/to.md", oldPath: "from.md" });
    await expect(vault.rename("deep/er/to.md", "taken.md")).rejects.toBeInstanceOf(VaultFileExistsError);
    expect(readFileSync(join(temp.root, "taken.md"), "utf8")).toBe("stays");
    expect(readFileSync(join(temp.root, "deep/er/to.md"), "utf8")).toBe("moving");
    await expect(vault.rename("nothing.md", "x.md")).rejects.toBeInstanceOf(VaultFileNotFoundError);
    await expect(vault.rename("taken.md", "../outside.md")).rejects.toThrow();
  });

  it("moves trashed notes to .trash without overwriting what is there", async () => {
    await vault.create("old.md", "newer");
    await vault.trash("old.md");
    expect(existsSync(join(temp.root, "old.md"))).toBe(false);
    expect(readFileSync(join(temp.root, ".trash/old.md"), "utf8")).toBe("old");
    expect(readFileSync(join(temp.root, ".trash/old 1.md"), "utf8")).toBe("newer");
    await expect(vault.trash("old.md")).rejects.toBeInstanceOf(VaultFileNotFoundError);
  });

  it("parses metadata and returns null for a missing note", async () => {
    const metadata = await vault.getMetadata("projects/Alpha.md");
    expect(metadata?.tags).toEqual(["#work", "#todo"]);
    expect(metadata?.links.map((l) => l.link)).toEqual(["Beta"]);
    expect(await vault.getMetadata("missing.md")).toBeNull();
  });

  it("emits events for its own changes, and stops after unsubscribing", async () => {
    const events: VaultEvent[] = [];
    const unsubscribe = vault.onChange((event) => events.push(event));
    await vault.create("a.md", "a");
    await vault.process("a.md", (t) => `${t}!`);
    await vault.process("a.md", (t) => t);
    await vault.trash("a.md");
    unsubscribe();
    await vault.create("b.md", "b");
    expect(events).toEqual([
      { type: "create", path: "a.md" },
      { type: "modify", path: "a.md" },
      { type: "delete", path: "a.md" },
    ]);
  });

  describe("never touches anything outside the vault", () => {
    let outside: string;
    beforeEach(() => {
      outside = mkdtempSync(join(tmpdir(), "vault-copilot-outside-"));
      writeFileSync(join(outside, "target.md"), "outside");
    });
    afterEach(() => rmSync(outside, { recursive: true, force: true }));

    it.each(["../x.md", "/etc/passwd", "a/../../x.md", ".obsidian/app.json", "C:\\x.md"])("refuses %j for every operation", async (path) => {
      await expect(vault.read(path)).rejects.toBeInstanceOf(VaultPathError);
      await expect(vault.readBinary(path)).rejects.toBeInstanceOf(VaultPathError);
      await expect(vault.create(path, "x")).rejects.toBeInstanceOf(VaultPathError);
      await expect(vault.process(path, () => "x")).rejects.toBeInstanceOf(VaultPathError);
      await expect(vault.trash(path)).rejects.toBeInstanceOf(VaultPathError);
      await expect(vault.stat(path)).rejects.toBeInstanceOf(VaultPathError);
    });

    it("refuses a folder symlink that leads outside", async () => {
      symlinkSync(outside, join(temp.root, "linked"));
      await expect(vault.read("linked/target.md")).rejects.toBeInstanceOf(VaultPathError);
      await expect(vault.readBinary("linked/target.md")).rejects.toBeInstanceOf(VaultPathError);
      await expect(vault.process("linked/target.md", () => "hacked")).rejects.toBeInstanceOf(VaultPathError);
      await expect(vault.create("linked/new.md", "x")).rejects.toBeInstanceOf(VaultPathError);
      expect(readFileSync(join(outside, "target.md"), "utf8")).toBe("outside");
      expect(existsSync(join(outside, "new.md"))).toBe(false);
    });

    it("refuses a file symlink that leads outside", async () => {
      symlinkSync(join(outside, "target.md"), join(temp.root, "link.md"));
      await expect(vault.process("link.md", () => "hacked")).rejects.toBeInstanceOf(VaultPathError);
      expect(readFileSync(join(outside, "target.md"), "utf8")).toBe("outside");
    });

    it("refuses a note swapped for a link out of the vault after its folder was read", async () => {
      expect(await vault.read("Inbox.md")).toBe("# Inbox\n");
      rmSync(join(temp.root, "Inbox.md"));
      symlinkSync(join(outside, "target.md"), join(temp.root, "Inbox.md"));
      await expect(vault.read("Inbox.md")).rejects.toBeInstanceOf(VaultPathError);
      await expect(vault.stat("Inbox.md")).rejects.toBeInstanceOf(VaultPathError);
      await expect(vault.process("Inbox.md", () => "hacked")).rejects.toBeInstanceOf(VaultPathError);
      expect(readFileSync(join(outside, "target.md"), "utf8")).toBe("outside");
    });

    it("still reads a note that links to another note inside the vault", async () => {
      await vault.read("Inbox.md");
      symlinkSync(join(temp.root, "Inbox.md"), join(temp.root, "Alias.md"));
      expect(await vault.read("Alias.md")).toBe("# Inbox\n");
      expect((await vault.stat("Alias.md"))?.size).toBe(8);
    });

    it("refuses a symlink that leads into the config folder", async () => {
      symlinkSync(join(temp.root, ".obsidian"), join(temp.root, "settings"));
      await expect(vault.read("settings/app.json")).rejects.toBeInstanceOf(VaultPathError);
    });

    it("refuses to create through a dangling link to a folder outside", async () => {
      const gone = join(outside, "not-yet");
      symlinkSync(gone, join(temp.root, "dangling"));
      await expect(vault.create("dangling/x.md", "x")).rejects.toBeInstanceOf(VaultPathError);
      expect(existsSync(gone)).toBe(false);
    });
  });

  it("works with a vault root that is itself reached through a symlink", async () => {
    const parent = mkdtempSync(join(tmpdir(), "vault-copilot-link-"));
    try {
      symlinkSync(temp.root, join(parent, "vault"));
      const linked = new FsVault(join(parent, "vault"));
      expect(await linked.read("Inbox.md")).toBe("# Inbox\n");
      mkdirSync(join(temp.root, "fresh"));
      await linked.create("fresh/n.md", "n");
      expect(readFileSync(join(temp.root, "fresh/n.md"), "utf8")).toBe("n");
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});
