import { Modal, Notice, Setting, TFolder, type App, type Plugin } from "obsidian";
import { errorMessage } from "../errorMessage";
import { createProjectFromFolder } from "../projects/newProject";
import type { ProjectDefinition } from "../projects/projectNote";
import type { VaultPort } from "../vault/VaultPort";
import type { CopilotView } from "./CopilotView";
import { t } from "../i18n/t";

export interface ProjectCommandParts {
  projects: { list(): Promise<readonly ProjectDefinition[]>; reload(): Promise<void> };
  vault: VaultPort;
  projectsFolder: () => string;
  /** Shows the chat view (opening it when needed); the project applies to its chat. */
  openChatView: () => Promise<CopilotView | null>;
}

/**
 * The project commands: "Switch project" (the chat's project, or none: the whole vault), and the
 * folder menu's "New project from folder" (a project note holding the folder, opened to add
 * instructions, and the chat switched to it).
 */
export function registerProjectCommands(plugin: Plugin, parts: ProjectCommandParts): void {
  const switchTo = (project: ProjectDefinition | null) =>
    void parts.openChatView().then((view) => view?.getController()?.setProject(project?.name ?? null, { ...(project?.mode ? { mode: project.mode } : {}), ...(project?.model ? { model: project.model } : {}) }));
  plugin.addCommand({
    id: "switch-project",
    name: t("command.switchProject"),
    callback: () => {
      parts.projects.list().then(
        (projects) => new ProjectChoiceModal(plugin.app, projects, switchTo).open(),
        (error: unknown) => new Notice(t("notice.projectsUnreadable", { reason: errorMessage(error) })),
      );
    },
  });
  plugin.registerEvent(
    plugin.app.workspace.on("file-menu", (menu, file) => {
      if (!(file instanceof TFolder) || file.isRoot()) return;
      menu.addItem((item) =>
        item
          .setTitle(t("menu.newProjectFromFolder"))
          .setIcon("folder-kanban")
          .onClick(() => {
            createProjectFromFolder(parts.vault, parts.projectsFolder(), file.path).then(
              async ({ name, path }) => {
                new Notice(t("notice.projectCreated", { name, path }));
                await plugin.app.workspace.openLinkText(path, "", false);
                // Read now, not after the folder's change settles: the chat switches to the new project at once.
                await parts.projects.reload();
                const project = (await parts.projects.list()).find((entry) => entry.path === path);
                switchTo(project ?? null);
              },
              (error: unknown) => new Notice(t("notice.projectNotCreated", { reason: errorMessage(error) })),
            );
          }),
      );
    }),
  );
}

/** "Switch project": No project, then each project, one button each. */
class ProjectChoiceModal extends Modal {
  constructor(
    app: App,
    private readonly projects: readonly ProjectDefinition[],
    private readonly onChoose: (project: ProjectDefinition | null) => void,
  ) {
    super(app);
  }

  override onOpen(): void {
    this.titleEl.setText(t("project.switchTitle"));
    const choose = (project: ProjectDefinition | null) => {
      this.close();
      this.onChoose(project);
    };
    new Setting(this.contentEl).setName(t("project.none")).setDesc(t("project.wholeVault")).addButton((button) => button.setButtonText(t("project.choose")).onClick(() => choose(null)));
    for (const project of this.projects) {
      new Setting(this.contentEl).setName(project.name).setDesc(project.path).addButton((button) => button.setButtonText(t("project.choose")).onClick(() => choose(project)));
    }
    if (this.projects.length === 0) this.contentEl.createEl("p", { text: t("project.noProjects") });
  }

  override onClose(): void {
    this.contentEl.empty();
  }
}
