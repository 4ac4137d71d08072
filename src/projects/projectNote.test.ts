import { makeTempVault } from "../../test/helpers/tempVault";
import { FsVault } from "../vault/FsVault";
import { findProject, loadProjects, parseProjectNote, ProjectNoteError } from "./projectNote";

describe("project notes", () => {
  it("read folders, tags, links, urls, model, mode, MCP servers and the instructions, in any script", () => {
    const text = [
      "---",
      "folders: [Тезис, 论文/资料, Café]",
      "tags: [тезис, '#研究/方法']",
      "notes: [[[Научрук]], 'Люди/Оппонент.md']",
      "urls: [https://example.org/руководство]",
      "model: gpt-4.1-mini",
      "mode: vault-qa",
      "mcp: [filesystem]",
      "---",
      "Отвечай как научный руководитель. 🎓",
      "",
    ].join("\n");
    expect(parseProjectNote("copilot/projects/Тезис 🎓.md", text, ".obsidian")).toEqual({
      name: "Тезис 🎓",
      path: "copilot/projects/Тезис 🎓.md",
      folders: ["Тезис", "论文/资料", "Café"],
      tags: ["#тезис", "#研究/方法"],
      notes: ["[[Научрук]]", "Люди/Оппонент.md"],
      urls: ["https://example.org/руководство"],
      model: "gpt-4.1-mini",
      mode: "vault-qa",
      mcp: ["filesystem"],
      instructions: "Отвечай как научный руководитель. 🎓",
    });
  });

  it.each([
    ["---\nfolders: [a\n---\n", "its frontmatter is not valid YAML"],
    ["---\nfolders: [a]\n", "its frontmatter is not closed by a --- line"],
    ["---\nfolders: ../Личное\n---\n", 'its folder "../Личное" is not a folder of the vault'],
    ["---\nfolders: [.obsidian]\n---\n", 'its folder ".obsidian" is not a folder of the vault'],
    ["---\nfolders: {a: 1}\n---\n", 'its "folders" is not a list of text'],
    ["---\ntags: ['#12']\n---\n", 'its tag "#12" is not a tag'],
    ["---\nurls: [file:///etc/passwd]\n---\n", 'its url "file:///etc/passwd" is not an http(s) address'],
    ["---\nmode: talk\n---\n", 'its mode "talk" is not one of chat, vault-qa, agent'],
    ["---\nmodel: ''\n---\n", "its model is not a name"],
    ["---\nmcp: ['']\n---\n", 'its "mcp" has an empty entry'],
  ])("refuse %j, naming the note and the reason", (text, reason) => {
    expect(() => parseProjectNote("copilot/projects/Сломан.md", text, ".obsidian")).toThrow(new ProjectNoteError("copilot/projects/Сломан.md", reason).message.slice(0, -1));
  });

  it("load from the projects folder and its subfolders, reporting broken ones by path while the others load", async () => {
    const folder = makeTempVault({
      "copilot/projects/Тезис.md": "---\nfolders: [Тезис]\n---\n",
      "copilot/projects/Работа/日本語.md": "---\ntags: [仕事]\n---\nです。\n",
      "copilot/projects/Сломан.md": "---\nmode: talk\n---\n",
      "Тезис/Глава.md": "x\n",
    });
    try {
      const { projects, problems } = await loadProjects(new FsVault(folder.root), "copilot/projects");
      expect(projects.map((project) => project.name)).toEqual(["Тезис", "日本語"]);
      expect(problems.map((problem) => problem.path)).toEqual(["copilot/projects/Сломан.md"]);
      // Found by name in another letter case or Unicode form.
      expect(findProject(projects, "тезис")?.name).toBe("Тезис");
      expect(findProject(projects, "日本語".normalize("NFD"))?.name).toBe("日本語");
    } finally {
      folder.remove();
    }
  });
});
