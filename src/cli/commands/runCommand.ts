import type { ChatController } from "../../chat/ChatController";
import { isAssistant } from "../../chat/chatTypes";
import { runPromptInChat } from "../../prompts/runPrompt";
import { findPrompt, loadPrompts, type CustomPrompt } from "../../prompts/customPrompt";
import { approveEverything, refuseAllToolCalls, refuseEverything, type ApprovalPort } from "../../ports/approval";
import type { EditOutcome } from "../../tools/edit/proposeAndApplyEdit";
import { findNote } from "../../tools/notes/noteLookup";
import { parseArgs, stringFlag, UsageError } from "../args";
import { MODEL_FLAGS, openCliServices, openCliSession, type CliSession } from "../cliRuntime";
import type { CliCommand, CliIo } from "../io";
import { openProjectFlag } from "../projectFlag";
import { applyContextTokensFlag, CHAT_NOTE_FLAGS, openChatNote, runChatTurn } from "../runChatTurn";
import { CLI_REFUSAL_REASON } from "./agentCommand";
import { applyImageFlags, ATTACH_FLAGS, attachedChips } from "../attachFlag";

/** Why `run` refuses a write the prompt's agent asks for, on stderr and to the model. */
export const RUN_WRITE_REFUSAL =
  "`run --yes` approves only the replacement of the selection, and the command line cannot ask about other changes, so this one was refused and nothing was written. Run the agent command with --yes to let the agent write";

/**
 * `run --vault DIR --base-url URL --model NAME [--api-key-env VAR] --prompt NAME [--note PATH]
 * [--selection TEXT] [--apply] [--yes] [--json]`: runs one of the vault's own prompts (a note in
 * the prompts folder) with `--note` as the open note and `--selection` as the selected text, and
 * prints the answer. With `--apply`, an edit prompt's answer replaces the selection in the note
 * (it must occur there exactly once) through the same diff, approval and undo history as the
 * agent's edits: only with `--yes`; without it nothing changes and the command says so. `--yes`
 * covers that replacement alone: whatever else a prompt in agent mode asks to write is refused
 * (the command line cannot ask), told to the model and said on stderr.
 */
export const runCommand: CliCommand = async (argv, io) => {
  const args = parseArgs(argv, {
    values: [...MODEL_FLAGS, "prompt", "note", "selection", ...CHAT_NOTE_FLAGS.values],
    lists: ATTACH_FLAGS.lists,
    booleans: ["apply", "yes", "json", ...CHAT_NOTE_FLAGS.booleans, ...ATTACH_FLAGS.booleans],
  });
  const name = stringFlag(args, "prompt");
  if (!name) throw new UsageError("run needs --prompt NAME");
  if (args.positionals.length > 0) throw new UsageError(`run takes no PROMPT text (the prompt is the note named by --prompt): "${args.positionals.join(" ")}"`);
  const apply = args.flags.has("apply");
  const selectionText = stringFlag(args, "selection");
  const noteInput = stringFlag(args, "note");
  if (apply && (!noteInput || !selectionText)) throw new UsageError("--apply needs --note PATH and --selection TEXT (the text the answer replaces)");

  const session = await openCliSession(args, io);
  applyContextTokensFlag(args, session);
  const attachments = await attachedChips(args, session.vault);
  const prompt = await promptNamed(session.vault, session.settings.prompts.folder, name, io);
  if (apply && !prompt.edit) throw new UsageError(`--apply needs an edit prompt ("edit: true" in its frontmatter); "${prompt.name}" is not one`);
  const notePath = noteInput ? (await findNote(session.vault, noteInput)).path : null;
  const selection = selectionText ? { text: selectionText, ...(notePath ? await linesOf(session, notePath, selectionText) : {}) } : undefined;
  // The tools the prompt's run may call never write (said on stderr and to the model); the
  // replacement of the selection asks its own approval, which --yes gives.
  const services = openCliServices(session, io, { ...refusingWrites(io), ...refuseAllToolCalls(CLI_REFUSAL_REASON) });
  const replacementApprovals = args.flags.has("yes") ? approveEverything : refuseEverything(CLI_REFUSAL_REASON);
  try {
    const project = await openProjectFlag(args, services, session);
    // After the project: its note may name the model.
    applyImageFlags(args, session);
    const note = await openChatNote(args, services, io);
    // The prompt's mode, else the project's, else chat.
    const mode = project?.project.mode ?? "chat";
    if ((prompt.mode ?? mode) !== "chat") await services.noteIndex.start(io.signal);
    let outcome: ReturnType<typeof replacementOutcome>;
    const status = await runChatTurn({
      services,
      session,
      mode,
      io,
      project,
      json: args.flags.has("json"),
      note,
      attachments,
      noImages: args.flags.has("no-images"),
      send: async (controller) => {
        // Without --apply the answer is only printed: an edit prompt runs as a plain prompt.
        const sent = await runPromptInChat(controller, apply ? prompt : { ...prompt, edit: false }, { notePath, ...(selection ? { selection } : {}) }, {
          // Inside a project, the prompt's variables find and list only the project's notes.
          vault: project?.vault ?? services.vault,
          registry: services.registry,
          toolTimeoutMs: session.settings.toolTimeoutSeconds * 1000,
          now: Date.now(),
          timeZone: session.settings.timeZone || Intl.DateTimeFormat().resolvedOptions().timeZone,
          replacementApprovals,
          notify: (message) => io.stderr(`vault-copilot: ${message}\n`),
        });
        if (!sent) throw new UsageError("--apply needs --note PATH and --selection TEXT (the text the answer replaces)");
        outcome = replacementOutcome(controller);
      },
    });
    if (status !== 0 || !apply || !notePath) return status;
    return reportReplacement(outcome, notePath, io);
  } finally {
    await services.dispose();
  }
};

/** What became of the selection's replacement: the outcome of the answer's replaceInFile banner, and what it said. */
function replacementOutcome(controller: ChatController): { edit?: EditOutcome; text: string } | undefined {
  const answer = controller.getState().messages.findLast(isAssistant);
  const part = answer?.parts.findLast((candidate) => candidate.type === "tool-call" && candidate.toolId === "replaceInFile");
  if (part?.type !== "tool-call") return undefined;
  return { ...(part.output !== undefined ? { edit: part.output as EditOutcome } : {}), text: part.resultText ?? "" };
}

/** Says what the replacement did; 0 when the note holds the answer (or already did), 1 otherwise. */
function reportReplacement(replacement: { edit?: EditOutcome; text: string } | undefined, path: string, io: CliIo): number {
  const outcome = replacement?.edit;
  if (outcome?.status === "applied") {
    io.stderr(`vault-copilot: replaced the selection in ${path} (+${outcome.linesAdded} −${outcome.linesRemoved} lines)\n`);
    return 0;
  }
  if (outcome?.status === "unchanged") {
    io.stderr(`vault-copilot: the answer is the selection as it was; ${path} is unchanged\n`);
    return 0;
  }
  if (outcome?.status === "rejected") {
    io.stderr(`vault-copilot: replacing the selection needs approval: run again with --yes. ${path} was not changed.\n`);
    return 1;
  }
  const why = replacement?.text.split("\n")[0] ?? "";
  io.stderr(`vault-copilot: the selection was not replaced${why ? `: ${why}` : ""}; ${path} was not changed.\n`);
  return 1;
}

async function promptNamed(vault: Parameters<typeof loadPrompts>[0], folder: string, name: string, io: CliIo): Promise<CustomPrompt> {
  const { prompts, problems } = await loadPrompts(vault, folder);
  for (const problem of problems) io.stderr(`vault-copilot: ${problem.message}\n`);
  const prompt = findPrompt(prompts, name);
  if (!prompt) {
    const known = prompts.map((entry) => entry.name).join(", ") || "none";
    throw new UsageError(`--prompt: no prompt named "${name}" in ${folder}/ (there are: ${known})`);
  }
  return prompt;
}

/** The 1-based lines of the selection's first occurrence in the note (for its label). */
async function linesOf(session: CliSession, path: string, text: string): Promise<{ fromLine?: number; toLine?: number }> {
  const note = await session.vault.read(path);
  const at = note.indexOf(text);
  if (at === -1) return {};
  const fromLine = note.slice(0, at).split("\n").length;
  return { fromLine, toLine: fromLine + text.split("\n").length - 1 };
}

/** Refuses every write a tool asks for during the prompt's run, telling the user on stderr which one and why. */
function refusingWrites(io: CliIo): ApprovalPort {
  return {
    requestApproval: (proposal) => {
      io.stderr(`vault-copilot: ${RUN_WRITE_REFUSAL} (${proposal.toolId}, ${proposal.path})\n`);
      return Promise.resolve({ approved: false, reason: RUN_WRITE_REFUSAL });
    },
  };
}
