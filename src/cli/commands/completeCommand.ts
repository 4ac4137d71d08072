import { completer } from "../../editor/completer";
import { completionContext } from "../../editor/completionContext";
import { whyNoCompletion } from "../../editor/completionPlace";
import { findNote } from "../../tools/notes/noteLookup";
import { parseArgs, stringFlag, UsageError } from "../args";
import { MODEL_FLAGS, openCliSession } from "../cliRuntime";
import type { CompletionResult } from "../../editor/completionClient";
import { openCliSearchServices } from "../cliSession";
import type { CliCommand, CliIo } from "../io";

/**
 * `complete --vault DIR [--provider P] --base-url URL --model NAME [--api-key-env VAR] --note PATH
 * --at OFFSET [--json]`: the inline completion the editor would show with the cursor at
 * character OFFSET of the note (Unicode code points from the note's start, so an emoji or a Han
 * character is one), from the model the flags name, with the request the plugin sends (no tools,
 * few tokens, a paragraph's end as the stop; `suffix` when the vault's completion settings have
 * fill-in-the-middle on and the provider is OpenAI-compatible; up to three passages of other notes
 * when they have "Related notes" on, from the vault's index). Plain: the text only. `--json`:
 * `{"completion": TEXT, "usage": {...}}`. Where completion never runs (code, frontmatter, a
 * link, …) it prints nothing, sends nothing, says why on stderr and exits 0.
 */
export const completeCommand: CliCommand = async (argv, io) => {
  const args = parseArgs(argv, { values: [...MODEL_FLAGS, "note", "at"], booleans: ["json"] });
  const noteInput = stringFlag(args, "note");
  if (!noteInput) throw new UsageError("complete needs --note PATH");
  const atText = stringFlag(args, "at");
  if (atText === undefined || !/^\d+$/.test(atText)) throw new UsageError("complete needs --at OFFSET, a whole number of characters from the note's start (0 or more)");
  if (args.positionals.length > 0) throw new UsageError(`complete takes no PROMPT (the note and --at say what to continue): "${args.positionals.join(" ")}"`);
  const session = await openCliSession(args, io);
  const { path } = await findNote(session.vault, noteInput);
  const text = await session.vault.read(path);
  const characters = [...text];
  const at = Number(atText);
  if (at > characters.length) throw new UsageError(`--at ${at} is past the end of ${path}, which has ${characters.length} characters`);
  const cursor = characters.slice(0, at).join("").length;

  const blocked = whyNoCompletion({ text, cursor, selection: false, mobile: false, allowedOnMobile: false });
  if (blocked) {
    io.stderr(`vault-copilot: no completion at ${path}:${at}: ${blocked.reason}\n`);
    return 0;
  }
  const { completion, provider } = session.settings;
  // The flags name the model; the vault's completion settings say how much it writes and whether its server fills in the middle.
  const settings = { ...completion, model: { ...provider, maxTokens: completion.model.maxTokens, temperature: completion.model.temperature } };
  const context = completionContext(path, text, cursor);
  if (!completion.relatedNotes) return printCompletion(await completer({ settings: () => settings, secrets: session.secrets, fetch })(context, io.signal), args.flags.has("json"), io);
  // "Related notes" on: the index is opened (and brought up to date) first, so the passages are
  // the ones the editor would send once Obsidian's index is ready.
  const services = openCliSearchServices(session, io);
  try {
    await services.noteIndex.start(io.signal);
    const complete = completer({
      settings: () => settings,
      secrets: session.secrets,
      fetch,
      search: services.noteSearch,
      relatedBudgetMs: CLI_RELATED_BUDGET_MS,
      onProblem: (message) => io.stderr(`vault-copilot: ${message}\n`),
    });
    return printCompletion(await complete(context, io.signal), args.flags.has("json"), io);
  } finally {
    await services.dispose();
  }
};

/** A script waits for its answer anyway: the CLI gives the search far longer than the editor does. */
const CLI_RELATED_BUDGET_MS = 10_000;

function printCompletion(result: CompletionResult, json: boolean, io: CliIo): number {
  if (json) io.stdout(`${JSON.stringify({ completion: result.text, usage: result.usage })}\n`);
  // Exactly the text, no line break added: a script appends it to the note as it is.
  else io.stdout(result.text);
  return 0;
}
