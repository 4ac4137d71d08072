import { execFileSync, spawnSync } from "node:child_process";
import {
  chmodSync,
  closeSync,
  constants,
  linkSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTempVault, type TempVault } from "../../test/helpers/tempVault";
import { isTemporaryFileName, temporaryFileFor } from "./atomicWrite";
import { lockFileFor } from "./fileLock";
import { FsVault, realPathOfOpenFile } from "./FsVault";
import { VaultPathError } from "./vaultPath";
import { VaultFileBusyError, VaultFileRefusedError, VaultNoteChangedError, VaultNotTextError } from "./VaultPort";

/** "café\n" as Latin-1: the é (0xE9) is not valid UTF-8. */
const LATIN1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]);

let temp: TempVault;
let vault: FsVault;
beforeEach(() => {
  temp = makeTempVault({ "Inbox.md": "# Inbox\n", "sub/a.md": "inside\n" });
  vault = new FsVault(temp.root);
});
afterEach(() => temp.remove());
const bytesOf = (path: string) => readFileSync(join(temp.root, path));
const modeOf = (path: string) => statSync(join(temp.root, path)).mode & 0o777;

describe("notes that are not UTF-8 text", () => {
  beforeEach(() => writeFileSync(join(temp.root, "latin1.md"), LATIN1));

  it("are never rewritten by process: the bytes stay as they were and the error says why", async () => {
    const edit = vault.process("latin1.md", (text) => `${text}more\n`);
    await expect(edit).rejects.toBeInstanceOf(VaultNotTextError);
    await expect(edit).rejects.toThrow(/"latin1\.md" is not UTF-8 text.*left unchanged/);
    expect(bytesOf("latin1.md")).toEqual(LATIN1);
  });

  it("are refused by a read for an edit, while a plain read (search) stays lenient", async () => {
    await expect(vault.read("latin1.md", { forEdit: true })).rejects.toBeInstanceOf(VaultNotTextError);
    expect(await vault.read("latin1.md")).toBe("caf\uFFFD\n");
  });

  it("keep a byte-order mark byte-exactly through an edit", async () => {
    writeFileSync(join(temp.root, "bom.md"), "\uFEFF# T\n");
    await vault.process("bom.md", (text) => `${text}x\n`);
    expect(bytesOf("bom.md")).toEqual(Buffer.from("\uFEFF# T\nx\n"));
  });
});

describe("permissions and links", () => {
  it("keep a private note's mode through an edit", async () => {
    chmodSync(join(temp.root, "Inbox.md"), 0o600);
    await vault.process("Inbox.md", (text) => `${text}x\n`);
    expect(modeOf("Inbox.md")).toBe(0o600);
    expect(bytesOf("Inbox.md").toString()).toBe("# Inbox\nx\n");
    // Neither the lock nor the temporary file is left behind.
    expect(readdirSync(temp.root).filter((name) => name.startsWith("."))).toEqual([]);
  });

  it("refuse to write a read-only note", async () => {
    chmodSync(join(temp.root, "Inbox.md"), 0o444);
    const edit = vault.process("Inbox.md", (text) => `${text}x\n`);
    await expect(edit).rejects.toBeInstanceOf(VaultFileRefusedError);
    await expect(edit).rejects.toThrow(/read-only/);
    expect(bytesOf("Inbox.md").toString()).toBe("# Inbox\n");
    expect(modeOf("Inbox.md")).toBe(0o444);
  });

  it("refuse to split a hard-linked note", async () => {
    linkSync(join(temp.root, "Inbox.md"), join(temp.root, "Twin.md"));
    const edit = vault.process("Inbox.md", (text) => `${text}x\n`);
    await expect(edit).rejects.toBeInstanceOf(VaultFileRefusedError);
    await expect(edit).rejects.toThrow(/hard link/);
    expect(statSync(join(temp.root, "Inbox.md")).ino).toBe(statSync(join(temp.root, "Twin.md")).ino);
    expect(bytesOf("Inbox.md").toString()).toBe("# Inbox\n");
  });
});

describe("two writers on one note", () => {
  it("the loser of a race does not write and is told the note changed meanwhile", async () => {
    const other = new FsVault(temp.root);
    const edit = vault.process("Inbox.md", (text) => {
      // Another program (Obsidian writes in place) changes the note between our read and our rename.
      writeFileSync(join(temp.root, "Inbox.md"), "# Inbox\nwritten by Obsidian\n");
      return `${text}mine\n`;
    });
    await expect(edit).rejects.toBeInstanceOf(VaultNoteChangedError);
    await expect(edit).rejects.toThrow(/changed while Copilot was writing it.*nothing was written/i);
    expect(bytesOf("Inbox.md").toString()).toBe("# Inbox\nwritten by Obsidian\n");
    // The note is not left locked: the next edit goes through.
    expect(await other.process("Inbox.md", (text) => `${text}next\n`)).toBe("# Inbox\nwritten by Obsidian\nnext\n");
  });

  it("a note replaced by another file (a new inode with the same text) counts as changed", async () => {
    const edit = vault.process("Inbox.md", (text) => {
      writeFileSync(join(temp.root, "replacement"), "# Inbox\n");
      renameSync(join(temp.root, "replacement"), join(temp.root, "Inbox.md"));
      return `${text}mine\n`;
    });
    await expect(edit).rejects.toBeInstanceOf(VaultNoteChangedError);
    expect(bytesOf("Inbox.md").toString()).toBe("# Inbox\n");
  });

  it("a lock left by a process that died is taken over", async () => {
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    writeFileSync(lockFileFor(join(temp.root, "Inbox.md")), JSON.stringify({ pid: Number(dead.stdout), at: Date.now() }));
    expect(await vault.process("Inbox.md", (text) => `${text}x\n`)).toBe("# Inbox\nx\n");
  });

  it("a lock held by a live process makes the edit wait, then give up with a clear error", async () => {
    const patient = new FsVault(temp.root, ".obsidian", { lockWaitMs: 200 });
    writeFileSync(lockFileFor(join(temp.root, "Inbox.md")), JSON.stringify({ pid: process.ppid, at: Date.now() }));
    const edit = patient.process("Inbox.md", (text) => `${text}x\n`);
    await expect(edit).rejects.toBeInstanceOf(VaultFileBusyError);
    await expect(edit).rejects.toThrow(/another program is writing "Inbox\.md".*nothing was written/i);
    expect(bytesOf("Inbox.md").toString()).toBe("# Inbox\n");
  });
});

describe("a folder swapped for a symbolic link while the vault is in use", () => {
  let outside: string;
  beforeEach(() => {
    outside = mkdtempSync(join(tmpdir(), "vault-copilot-outside-"));
    writeFileSync(join(outside, "a.md"), "secret from outside\n");
  });
  afterEach(() => rmSync(outside, { recursive: true, force: true }));

  it("never lets a note's text from outside the vault leave the port", async () => {
    expect(await vault.read("sub/a.md")).toBe("inside\n");
    rmSync(join(temp.root, "sub"), { recursive: true });
    symlinkSync(outside, join(temp.root, "sub"));
    await expect(vault.read("sub/a.md")).rejects.toBeInstanceOf(VaultPathError);
    await expect(vault.getMetadata("sub/a.md")).rejects.toBeInstanceOf(VaultPathError);
    await expect(vault.process("sub/a.md", () => "hacked")).rejects.toBeInstanceOf(VaultPathError);
    expect(readFileSync(join(outside, "a.md"), "utf8")).toBe("secret from outside\n");
  });
});

describe("special files named like notes", () => {
  let fifo: string;
  beforeEach(() => {
    fifo = join(temp.root, "pipe.md");
    execFileSync("mkfifo", [fifo]);
  });
  afterEach(() => {
    // Should a read hang on the pipe (the bug), a writer that opens and closes it ends that read.
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // No reader waiting: nothing to release.
    }
  });

  it("are refused at once for reading and editing, without blocking", async () => {
    await expect(vault.read("pipe.md")).rejects.toBeInstanceOf(VaultFileRefusedError);
    await expect(vault.read("pipe.md")).rejects.toThrow(/not a regular file/);
    await expect(vault.process("pipe.md", () => "x")).rejects.toBeInstanceOf(VaultFileRefusedError);
    expect(statSync(fifo).isFIFO()).toBe(true);
  });

  it("are left out of the listing", async () => {
    expect(await vault.listFiles()).toEqual(["Inbox.md", "sub/a.md"]);
    expect(await vault.stat("pipe.md")).toBeNull();
  });
});

describe("temporary files", () => {
  it("are hidden and named so they are recognised as ours", () => {
    const name = temporaryFileFor(join(temp.root, "Inbox.md")).slice(temp.root.length + 1);
    expect(name.startsWith(".Inbox.md.")).toBe(true);
    expect(isTemporaryFileName(name)).toBe(true);
    expect(isTemporaryFileName("Inbox.md")).toBe(false);
    expect(isTemporaryFileName(".Inbox.md.swp")).toBe(false);
  });

  it("left by a killed write are removed when the vault is listed, once older than a minute; fresh ones are kept", async () => {
    mkdirSync(join(temp.root, "deep"), { recursive: true });
    const stale = temporaryFileFor(join(temp.root, "deep", "Note.md"));
    const fresh = temporaryFileFor(join(temp.root, "Inbox.md"));
    writeFileSync(stale, "half a note");
    writeFileSync(fresh, "a write under way");
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    utimesSync(stale, twoMinutesAgo, twoMinutesAgo);
    expect(await vault.listFiles()).toEqual(["Inbox.md", "sub/a.md"]);
    expect(readdirSync(join(temp.root, "deep"))).toEqual([]);
    expect(readFileSync(fresh, "utf8")).toBe("a write under way");
  });
});

describe("where an open file really is (Linux's /proc, and the portable way)", () => {
  let outside: string;
  beforeEach(() => {
    outside = mkdtempSync(join(tmpdir(), "vault-copilot-outside-"));
    writeFileSync(join(outside, "a.md"), "outside\n");
    symlinkSync(outside, join(temp.root, "linked"));
  });
  afterEach(() => rmSync(outside, { recursive: true, force: true }));

  it.each([true, false])("names the real place of a file opened through a linked folder, and null once it was replaced (kernel: %s)", async (askTheKernel) => {
    const { promises } = await import("node:fs");
    const handle = await promises.open(join(temp.root, "linked", "a.md"), "r");
    try {
      const stats = await handle.stat();
      const real = await realPathOfOpenFile(handle, join(temp.root, "linked", "a.md"), stats, askTheKernel);
      expect(real).toBe(join(realpathSync(outside), "a.md"));
      writeFileSync(join(outside, "b.md"), "replacement\n");
      renameSync(join(outside, "b.md"), join(outside, "a.md"));
      expect(await realPathOfOpenFile(handle, join(temp.root, "linked", "a.md"), stats, askTheKernel)).toBeNull();
    } finally {
      await handle.close();
    }
  });
});

describe("lock files", () => {
  it("left by a killed edit are removed when the vault is listed; a live one stays", async () => {
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    writeFileSync(lockFileFor(join(temp.root, "sub", "a.md")), JSON.stringify({ pid: Number(dead.stdout), at: Date.now() }));
    writeFileSync(lockFileFor(join(temp.root, "Inbox.md")), JSON.stringify({ pid: process.pid, at: Date.now() }));
    expect(await vault.listFiles()).toEqual(["Inbox.md", "sub/a.md"]);
    expect(readdirSync(join(temp.root, "sub"))).toEqual(["a.md"]);
    expect(readdirSync(temp.root)).toContain(".Inbox.md.vault-copilot.lock");
  });
});
