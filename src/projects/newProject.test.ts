import { makeTempVault } from "../../test/helpers/tempVault";
import { FsVault } from "../vault/FsVault";
import { createProjectFromFolder } from "./newProject";
import { loadProjects } from "./projectNote";

describe("New project from folder", () => {
  it("makes a project note holding the folder, named after it, never over an existing note", async () => {
    const folder = makeTempVault({ "Исследования/论文 📚/Глава.md": "x\n", "copilot/projects/论文 📚.md": "---\nfolders: [Другое]\n---\nСвоя.\n" });
    try {
      const vault = new FsVault(folder.root);
      const made = await createProjectFromFolder(vault, "copilot/projects", "Исследования/论文 📚");
      expect(made).toEqual({ name: "论文 📚 2", path: "copilot/projects/论文 📚 2.md" });
      expect(await vault.read("copilot/projects/论文 📚.md")).toBe("---\nfolders: [Другое]\n---\nСвоя.\n");
      const { projects, problems } = await loadProjects(vault, "copilot/projects");
      expect(problems).toEqual([]);
      expect(projects.find((project) => project.name === "论文 📚 2")?.folders).toEqual(["Исследования/论文 📚"]);
    } finally {
      folder.remove();
    }
  });
});
