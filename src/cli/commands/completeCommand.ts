import { completer, sendsRelatedPassages } from "../../editor/completer";
import { completionContext } from "../../editor/completionContext";
import { whyNoCompletion } from "../../editor/completionPlace";
import { findNote } from "../../tools/notes/noteLookup";
import { parseArgs, stringFlag, UsageError } from "../args";
import { MODEL_FLAGS, openCliSession } from "../cliRuntime";
import { openCliSearchServices } from "../cliSession";
import type { CliCommand } from "../io";

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
  // With related passages to send, the index is opened (and brought up to date) first, so they are
  // the ones the editor would send once Obsidian's index is ready.
  const services = sendsRelatedPassages(settings) ? openCliSearchServices(session, io) : null;
  try {
    await services?.noteIndex.start(io.signal);
    const complete = completer({
      settings: () => settings,
      secrets: session.secrets,
      fetch,
      ...(services ? { search: services.noteSearch, relatedBudgetMs: CLI_RELATED_BUDGET_MS, onProblem: (message: string) => io.stderr(`vault-copilot: ${message}\n`) } : {}),
    });
    const result = await complete(completionContext(path, text, cursor), io.signal);
    if (args.flags.has("json")) io.stdout(`${JSON.stringify({ completion: result.text, usage: result.usage })}\n`);
    // Exactly the text, no line break added: a script appends it to the note as it is.
    else io.stdout(result.text);
    return 0;
  } finally {
    await services?.dispose();
  }
};

/** A script waits for its answer anyway: the CLI gives the search far longer than the editor does. */
const CLI_RELATED_BUDGET_MS = 10_000;
