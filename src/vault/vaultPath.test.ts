import { baseName, hasExtension, isInConfigDir, noteName, parentFolder, pathKey, toNotePath, toVaultPath, VaultPathError } from "./vaultPath";

const CONFIG = ".obsidian";

describe("toVaultPath", () => {
  it.each([
    ["Note.md", "Note.md"],
    ["  folder/Note.md  ", "folder/Note.md"],
    ["folder//sub///Note.md", "folder/sub/Note.md"],
    ["./folder/./Note.md", "folder/Note.md"],
    ["folder/", "folder"],
    ["Caf\u0065\u0301.md", "Caf\u0065\u0301.md"],
    ["Caf\u00e9.md", "Caf\u00e9.md"],
    ["with\u00a0nbsp.md", "with\u00a0nbsp.md"],
    ["Wait... what.md", "Wait... what.md"],
    ["a..b/c...md", "a..b/c...md"],
    [".obsidian-notes/x.md", ".obsidian-notes/x.md"],
    ["notes/.obsidian/x.md", "notes/.obsidian/x.md"],
  ])("normalizes %j to %j", (input, expected) => {
    expect(toVaultPath(input, CONFIG)).toBe(expected);
  });

  it.each([
    ["", "empty"],
    ["   ", "empty"],
    [".", "vault itself"],
    ["./", "vault itself"],
    ["..", '".."'],
    ["../outside.md", '".."'],
    ["folder/../../outside.md", '".."'],
    ["folder/..", '".."'],
    ["a/../b.md", '".."'],
    ["/etc/passwd", "absolute"],
    ["//server/share/x.md", "absolute"],
    ["\\\\server\\share\\x.md", '"/"'],
    ["folder\\..\\x.md", '"/"'],
    ["..\\outside.md", '"/"'],
    ["C:\\Windows\\x.md", '"/"'],
    ["C:/Windows/x.md", "drive letters"],
    ["c:relative.md", "drive letters"],
    ["~/notes/x.md", "home-folder"],
    ["file:///etc/passwd", "URLs"],
    ["nul\u0000byte.md", "control characters"],
    ["line\nbreak.md", "control characters"],
    [".obsidian/plugins/x/data.json", ".obsidian"],
    [".OBSIDIAN/app.json", ".obsidian"],
    ["./.obsidian/app.json", ".obsidian"],
    ["//.obsidian/app.json", "absolute"],
    [".obsidian", ".obsidian"],
    ["a/ /b.md", "blank"],
    // Windows drops trailing dots and spaces: these name the config folder or the parent there.
    [".obsidian./plugins/x/main.js", ".obsidian"],
    [".obsidian /app.json", ".obsidian"],
    [".OBSIDIAN. ./app.json", ".obsidian"],
    [".. /outside.md", "only dots and spaces"],
    ["a/.../b.md", "only dots and spaces"],
  ])("refuses %j (%s)", (input, reason) => {
    let error: unknown;
    try {
      toVaultPath(input, CONFIG);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(VaultPathError);
    expect((error as VaultPathError).message).toContain(reason);
  });

  it("uses the vault's own config folder name", () => {
    expect(() => toVaultPath("_config/app.json", "_config")).toThrow(VaultPathError);
    expect(toVaultPath(".obsidian/x.md", "_config")).toBe(".obsidian/x.md");
  });

  it("refuses text that is not a string", () => {
    expect(() => toVaultPath(42 as unknown as string, CONFIG)).toThrow(VaultPathError);
  });
});

describe("path helpers", () => {
  it("adds .md only when the note path has no extension", () => {
    expect(toNotePath("folder/Note", CONFIG)).toBe("folder/Note.md");
    expect(toNotePath("folder/Note.md", CONFIG)).toBe("folder/Note.md");
    expect(toNotePath("v1.2/Note", CONFIG)).toBe("v1.2/Note.md");
    expect(toNotePath("canvas.canvas", CONFIG)).toBe("canvas.canvas");
  });

  it("splits names and folders", () => {
    expect(baseName("a/b/Note.md")).toBe("Note.md");
    expect(noteName("a/b/Note.md")).toBe("Note");
    expect(noteName("a/b/img.png")).toBe("img.png");
    expect(parentFolder("a/b/Note.md")).toBe("a/b");
    expect(parentFolder("Note.md")).toBe("");
    expect(hasExtension(".hidden")).toBe(false);
    expect(hasExtension("trailing.")).toBe(false);
  });

  it("compares paths in one key: NFC, plain spaces, lower case", () => {
    expect(pathKey("Re\u0301sume\u0301/Caf\u0065\u0301.md")).toBe(pathKey("R\u00e9sum\u00e9/caf\u00e9.MD"));
    expect(pathKey("with\u00a0nbsp.md")).toBe("with nbsp.md");
    expect(pathKey("a.md")).not.toBe(pathKey("b.md"));
  });

  it("tells config-folder paths apart from look-alikes", () => {
    expect(isInConfigDir(".obsidian", CONFIG)).toBe(true);
    expect(isInConfigDir(".obsidian/app.json", CONFIG)).toBe(true);
    expect(isInConfigDir(".obsidian-backup/app.json", CONFIG)).toBe(false);
  });
});
