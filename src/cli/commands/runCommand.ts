import { readChipArtifacts } from "../../chat/chipArtifacts";
import { createChatRunner } from "../../chat/createChatRunner";
import { ContextManager } from "../../context/ContextManager";
import { errorMessage } from "../../errorMessage";
import { findPrompt, loadPrompts, type CustomPrompt } from "../../prompts/customPrompt";
import { fillPrompt } from "../../prompts/fillPrompt";
import { rewriteOf } from "../../prompts/selectionEdit";
import type { NoteIndex } from "../../search/NoteIndex";
import { runTool, DEFAULT_MAX_TOOL_OUTPUT_CHARS } from "../../tools/runTool";
import { approveAll, refuseAll, refuseAllToolCalls, type ApprovalPort, type RunApprovals } from "../../ports/approval";
import type { EditOutcome } from "../../tools/edit/proposeAndApplyEdit";
import { findNote } from "../../tools/notes/noteLookup";
import { parseArgs, stringFlag, UsageError } from "../args";
import { cliToolDependencies, createCliNoteIndex, createCliRegistry, MODEL_FLAGS, openCliSession } from "../cliRuntime";
import { searchOutsideChats } from "../../history/searchOutsideChats";
import type { CliCommand, CliIo } from "../io";
import { chainEventPrinter, exitStatusOf } from "../printChainEvents";
import { CLI_REFUSAL_REASON } from "./agentCommand";

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
  const args = parseArgs(argv, { values: [...MODEL_FLAGS, "prompt", "note", "selection"], booleans: ["apply", "yes", "json"] });
  const name = stringFlag(args, "prompt");
  if (!name) throw new UsageError("run needs --prompt NAME");
  if (args.positionals.length > 0) throw new UsageError(`run takes no PROMPT text (the prompt is the note named by --prompt): "${args.positionals.join(" ")}"`);
  const apply = args.flags.has("apply");
  const selectionText = stringFlag(args, "selection");
  const noteInput = stringFlag(args, "note");
  if (apply && (!noteInput || !selectionText)) throw new UsageError("--apply needs --note PATH and --selection TEXT (the text the answer replaces)");

  const session = await openCliSession(args, io);
  const prompt = await promptNamed(session.vault, session.settings.prompts.folder, name, io);
  if (apply && !prompt.edit) throw new UsageError(`--apply needs an edit prompt ("edit: true" in its frontmatter); "${prompt.name}" is not one`);
  const notePath = noteInput ? (await findNote(session.vault, noteInput)).path : null;
  const selection = selectionText ? { text: selectionText, ...(notePath ? { path: notePath, ...(await linesOf(session, notePath, selectionText)) } : {}) } : undefined;

  const filled = await fillPrompt(prompt, session.vault, { ...(selection ? { selection } : {}), activeNotePath: notePath, now: Date.now(), timeZone: session.settings.timeZone || Intl.DateTimeFormat().resolvedOptions().timeZone });
  const { artifacts, problems } = await readChipArtifacts(session.vault, filled.chips, io.signal);
  for (const notice of [...filled.notices, ...problems]) io.stderr(`vault-copilot: ${notice}\n`);

  const mode = prompt.mode ?? "chat";
  // The tools the prompt's run may call never write; the replacement asks its own approval (applyAnswer).
  const approval = refusingWrites(io);
  const replacementApproval = args.flags.has("yes") ? approveAll : refuseAll(CLI_REFUSAL_REASON);
  const replacement: RunApprovals = {
    requestApproval: (proposal, signal) => replacementApproval.requestApproval(proposal, signal),
    requestToolCallApproval: (proposal, signal) => refuseAllToolCalls(CLI_REFUSAL_REASON).requestToolCallApproval(proposal, signal),
  };
  let index: NoteIndex | undefined;
  try {
    if (mode !== "chat") {
      index = createCliNoteIndex(session.vault, session.settings, io);
      await index.start(io.signal);
    }
    const registry = createCliRegistry(cliToolDependencies(session, approval, index));
    // A prompt that names its model runs with it (on the server --base-url names).
    if (prompt.model) session.settings.provider = { ...session.settings.provider, model: prompt.model };
    const runner = createChatRunner({ getSettings: () => session.settings, createModel: () => session.createModel(), modelIdleTimeoutMs: session.modelIdleTimeoutMs, registry, getSearcher: () => (index ? searchOutsideChats(index, () => session.settings.history.folder, session.vault.configDir) : null) }, mode, session.settings.provider.model);
    const result = await runner.run({ userMessage: filled.message, attachments: artifacts, conversation: new ContextManager(), signal: io.signal, onEvent: chainEventPrinter(io, args.flags.has("json")) });
    const status = exitStatusOf(result, io);
    if (status !== 0 || !apply || !notePath || !selectionText) return status;
    return await applyAnswer(registry.getAllTools().find((definition) => definition.metadata.id === "replaceInFile")?.tool, replacement, notePath, selectionText, result.text, io);
  } finally {
    await index?.dispose();
  }
};

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
async function linesOf(session: Awaited<ReturnType<typeof openCliSession>>, path: string, text: string): Promise<{ fromLine?: number; toLine?: number }> {
  const note = await session.vault.read(path);
  const at = note.indexOf(text);
  if (at === -1) return {};
  const fromLine = note.slice(0, at).split("\n").length;
  return { fromLine, toLine: fromLine + text.split("\n").length - 1 };
}

/** Replaces the selection with the answer through replaceInFile: its diff, approval, Vault.process and undo history. */
async function applyAnswer(tool: Parameters<typeof runTool>[0] | undefined, approvals: RunApprovals, path: string, selection: string, answer: string, io: CliIo): Promise<number> {
  if (!tool) throw new Error("the replaceInFile tool is not registered");
  const options = { toolCallId: "run-apply", defaultTimeoutMs: 60_000, maxOutputChars: DEFAULT_MAX_TOOL_OUTPUT_CHARS, signal: io.signal, approvals };
  const result = await runTool(tool, { path, oldText: selection, newText: rewriteOf(answer, selection) }, options);
  const outcome = result.output as EditOutcome | undefined;
  if (result.status === "ok" && outcome?.status === "applied") {
    io.stderr(`vault-copilot: replaced the selection in ${path} (+${outcome.linesAdded} −${outcome.linesRemoved} lines)\n`);
    return 0;
  }
  if (result.status === "ok" && outcome?.status === "unchanged") {
    io.stderr(`vault-copilot: the answer is the selection as it was; ${path} is unchanged\n`);
    return 0;
  }
  if (result.status === "ok" && outcome?.status === "rejected") {
    io.stderr(`vault-copilot: replacing the selection needs approval: run again with --yes. ${path} was not changed.\n`);
    return 1;
  }
  io.stderr(`vault-copilot: the selection was not replaced: ${errorMessage(result.text).split("\n")[0] ?? ""}\n`);
  return 1;
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
