import { makeTempVault } from "../../test/helpers/tempVault";
import { FsVault } from "../vault/FsVault";
import { findProject, loadProjects, parseProjectNote } from "./projectNote";

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
    ["---\nfolders: [a\n---\n", "its frontmatter is not valid YAML", { code: "frontmatter-not-yaml", detail: expect.any(String) }],
    ["---\nfolders: [a]\n", "its frontmatter is not closed by a --- line", { code: "frontmatter-not-closed" }],
    ["---\nfolders: ../Личное\n---\n", 'its folder "../Личное" is not a folder of the vault', { code: "folder-invalid", folder: "../Личное", detail: expect.any(String) }],
    ["---\nfolders: [.obsidian]\n---\n", 'its folder ".obsidian" is not a folder of the vault', { code: "folder-invalid", folder: ".obsidian", detail: expect.any(String) }],
    ["---\nfolders: {a: 1}\n---\n", 'its "folders" is not a list of text', { code: "not-text-list", key: "folders" }],
    ["---\ntags: ['#12']\n---\n", 'its tag "#12" is not a tag', { code: "tag-invalid", tag: "#12" }],
    ["---\nurls: [file:///etc/passwd]\n---\n", 'its url "file:///etc/passwd" is not an http(s) address', { code: "url-invalid", url: "file:///etc/passwd" }],
    ["---\nmode: talk\n---\n", 'its mode "talk" is not one of chat, vault-qa, agent', { code: "mode-invalid", mode: '"talk"', modes: "chat, vault-qa, agent" }],
    ["---\nmodel: ''\n---\n", "its model is not a name", { code: "model-not-name" }],
    ["---\nmcp: ['']\n---\n", 'its "mcp" has an empty entry', { code: "empty-entry", key: "mcp" }],
  ])("refuse %j, naming the note and the reason, and the reason's case", (text, reason, problem) => {
    const parse = () => parseProjectNote("copilot/projects/Сломан.md", text, ".obsidian");
    expect(parse).toThrow(`The project "copilot/projects/Сломан.md" was not loaded: ${reason}`);
    expect(parse).toThrow(expect.objectContaining({ problem }));
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
