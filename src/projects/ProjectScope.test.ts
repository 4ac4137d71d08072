import { makeTempVault, type TempVault } from "../../test/helpers/tempVault";
import { FsVault } from "../vault/FsVault";
import { parseProjectNote } from "./projectNote";
import { ProjectScope } from "./ProjectScope";
import { OutsideProjectError, ScopedVault } from "./ScopedVault";

describe("a project's scope", () => {
  let folder: TempVault;
  let vault: FsVault;
  let scope: ProjectScope;
  let scoped: ScopedVault;

  beforeEach(async () => {
    folder = makeTempVault({
      "Тезис/Глава.md": "Глава. См. [[Дневник]] и [[Научрук]].\n",
      "Люди/Научрук.md": "руководитель\n",
      "Входящие/Идея.md": "без тега\n",
      "Личное/Дневник.md": "SECRET\n",
      "copilot/chats/Чат.md": "#тезис\n",
    });
    vault = new FsVault(folder.root);
    const project = parseProjectNote("copilot/projects/Тезис.md", "---\nfolders: [Тезис]\ntags: [тезис]\nnotes: ['[[Научрук]]']\n---\n", vault.configDir);
    scope = new ProjectScope(vault, project, ["copilot/projects", "copilot/chats"]);
    scoped = new ScopedVault(vault, scope);
    await scope.prepare();
  });
  afterEach(() => {
    scope.dispose();
    folder.remove();
  });

  it("holds its folder, its linked note and its tagged notes, never the saved chats", async () => {
    expect((await scoped.listNotes()).sort()).toEqual(["Люди/Научрук.md", "Тезис/Глава.md"]);
    expect(await scoped.stat("Личное/Дневник.md")).toBeNull();
    expect(await scoped.getMetadata("copilot/chats/Чат.md")).toBeNull();
  });

  it("takes in a note that gains the tag and lets go of one that loses it or moves out, from the vault's events", async () => {
    await vault.process("Входящие/Идея.md", (text) => `${text}#тезис/идеи\n`);
    await scope.prepare();
    expect(scope.has("Входящие/Идея.md")).toBe(true);
    expect(await scoped.read("Входящие/Идея.md")).toContain("без тега");
    await vault.process("Входящие/Идея.md", () => "тег убран\n");
    await scope.prepare();
    expect(scope.has("Входящие/Идея.md")).toBe(false);
    await vault.rename("Тезис/Глава.md", "Личное/Глава.md");
    await scope.prepare();
    expect(scope.has("Личное/Глава.md")).toBe(false);
    await expect(scoped.read("Личное/Глава.md")).rejects.toBeInstanceOf(OutsideProjectError);
  });

  it("hands out a file's bytes (a PDF) inside it and refuses one outside", async () => {
    folder.write("Тезис/Статья.pdf", new Uint8Array([0x25, 0x50, 0x44, 0x46, 0xff]));
    folder.write("Личное/Выписка.pdf", new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x00]));
    await scope.prepare();
    expect(new Uint8Array(await scoped.readBinary("Тезис/Статья.pdf"))).toEqual(new Uint8Array([0x25, 0x50, 0x44, 0x46, 0xff]));
    await expect(scoped.readBinary("Личное/Выписка.pdf")).rejects.toBeInstanceOf(OutsideProjectError);
  });

  it("masks links to notes outside it in what it hands out, but not in a read for an edit", async () => {
    expect(await scoped.read("Тезис/Глава.md")).toBe("Глава. См. [[a note outside the project]] и [[Научрук]].\n");
    expect((await scoped.getMetadata("Тезис/Глава.md"))?.links.map((link) => link.link)).toEqual(["a note outside the project", "Научрук"]);
    expect(await scoped.read("Тезис/Глава.md", { forEdit: true })).toBe("Глава. См. [[Дневник]] и [[Научрук]].\n");
  });

  it("makes new notes only inside its folders, and changes nothing outside", async () => {
    await scoped.create("Тезис/Новая.md", "новая\n");
    await expect(scoped.create("Входящие/Новая.md", "x")).rejects.toBeInstanceOf(OutsideProjectError);
    await expect(scoped.process("Личное/Дневник.md", () => "x")).rejects.toBeInstanceOf(OutsideProjectError);
    await expect(scoped.rename("Тезис/Новая.md", "Личное/Новая.md")).rejects.toBeInstanceOf(OutsideProjectError);
    await expect(scoped.trash("Личное/Дневник.md")).rejects.toBeInstanceOf(OutsideProjectError);
    expect(await vault.read("Личное/Дневник.md")).toBe("SECRET\n");
    expect(await vault.stat("Входящие/Новая.md")).toBeNull();
  });
});
