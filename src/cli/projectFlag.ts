import type { ProjectWorkspace } from "../app/createServices";
import { stringFlag, UsageError, type ParsedArgs } from "./args";
import type { CliSession } from "./cliSession";

/** `--project NAME`: the project a command runs in (its scope, instructions, model and mode). */
export const PROJECT_FLAG = "project";

/**
 * Opens `--project NAME` for a model-driven command: null without the flag. A missing or broken
 * project note throws (one line: the command ends with exit 1). The note's model applies when
 * `--model` was left out; a flag given on the command line always wins over the note.
 */
export async function openProjectFlag(args: ParsedArgs, services: { openProject(name: string): Promise<ProjectWorkspace> }, session: CliSession): Promise<ProjectWorkspace | null> {
  const name = stringFlag(args, PROJECT_FLAG);
  if (name === undefined) return null;
  const workspace = await services.openProject(name);
  if (stringFlag(args, "model") === undefined) {
    const model = workspace.project.model;
    if (!model) throw new UsageError(`--model is required: the project "${workspace.project.name}" names no model`);
    session.settings.provider = { ...session.settings.provider, model };
  }
  return workspace;
}
