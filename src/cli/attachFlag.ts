import type { ProjectWorkspace } from "../app/createServices";
import type { OpenChat } from "../app/openChat";
import { chipForVaultPath, webChip, type ReadChips } from "../chat/chipArtifacts";
import type { ContextChip } from "../chat/chatTypes";
import { NoteLookup } from "../tools/notes/noteLookup";
import { toVaultPath, VaultPathError } from "../vault/vaultPath";
import type { VaultPort } from "../vault/VaultPort";
import { knownToTakeImages, withImageSupport } from "../LLMProviders/modelChoice";
import type { ParsedArgs } from "./args";
import type { CliSession } from "./cliSession";

/** `--attach ITEM` (repeatable) and `--no-images`, on chat, qa, agent and run. */
export const ATTACH_FLAGS = { lists: ["attach"], booleans: ["no-images"] } as const;

/**
 * The chips of `--attach ITEM…`, as the view's chips are made: an http(s) URL is a web page's,
 * a vault path an image's or a note's (Markdown, and the documents the note chip reads). A path
 * is found as `similar` finds a note (any letter case, either Unicode form, ".md" or not). An item
 * the vault does not hold, or one the path rule refuses, ends the command here: nothing is sent.
 */
export async function attachedChips(args: ParsedArgs, vault: VaultPort): Promise<ContextChip[]> {
  const items = args.lists.get("attach") ?? [];
  if (items.length === 0) return [];
  let lookup: NoteLookup | undefined;
  const chips: ContextChip[] = [];
  for (const item of items) {
    if (/^https?:\/\//i.test(item.trim())) {
      if (!URL.canParse(item.trim())) throw new Error(`--attach: "${item}" is not a web address`);
      chips.push(webChip(new URL(item.trim()).href));
      continue;
    }
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(item)) throw new Error(`--attach: only http and https addresses can be attached, not "${item}"`);
    try {
      toVaultPath(item, vault.configDir);
    } catch (error) {
      if (error instanceof VaultPathError) throw new Error(`--attach: "${item}" was refused: ${error.message}`);
      throw error;
    }
    lookup ??= new NoteLookup(await vault.listFiles(), vault.configDir);
    const path = lookup.resolve(item);
    if (!path) throw new Error(`--attach: no file at "${item}" in the vault`);
    chips.push(chipForVaultPath(path));
  }
  return chips;
}

/**
 * Inside a project (`--project`, or the project of the chat `--continue` goes on with), `--attach`
 * takes only the project's files, as every tool of the run sees only them: a file outside it ends
 * the command before anything is read or sent. Web pages are not the vault's, so they go.
 */
export async function refuseOutsideProject(chips: readonly ContextChip[], project: Pick<ProjectWorkspace, "project" | "vault"> | null): Promise<void> {
  if (!project) return;
  for (const chip of chips) {
    if (chip.kind === "web" || chip.pasted) continue;
    if (!(await project.vault.stat(chip.target))) throw new Error(`--attach: "${chip.target}" is outside the project "${project.project.name}"; inside a project only its own files can be attached`);
  }
}

/**
 * Reads the attached chips through the chat, before anything is sent (its next message takes
 * what was read): a chip that gives nothing (a page that failed, an image too large to send
 * here, an image outside the project) ends the command with its reason. What was left out of
 * what they gave (images with --no-images, a note's images) is said when the message is sent,
 * and the rest goes.
 */
export async function readAttachments(chat: Pick<OpenChat, "readAhead">, chips: readonly ContextChip[], signal: AbortSignal): Promise<ReadChips> {
  const read = await chat.readAhead(chips, signal);
  const [problem] = read.problems;
  if (problem !== undefined) throw new Error(`--attach: ${problem.text}`);
  return read;
}

/**
 * Images go to the command's model unless `--no-images` is given: attaching one is the user
 * asking for it, and the command line has no "Takes images" setting to switch on. A model the
 * vault's settings say takes none stays so (its images are left out, with a notice).
 */
export function applyImageFlags(args: ParsedArgs, session: CliSession): void {
  if (args.flags.has("no-images")) return;
  const model = session.settings.provider.model;
  if (knownToTakeImages(session.settings, model) === null) session.settings = withImageSupport(session.settings, model, true);
}
