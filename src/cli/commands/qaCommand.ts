import { refuseEverything } from "../../ports/approval";
import { parseArgs } from "../args";
import { applyEmbeddingFlags, embedNotes, EMBEDDING_FLAGS } from "../cliIndex";
import { MODEL_FLAGS, openCliServices, openCliSession, promptOf } from "../cliRuntime";
import type { CliCommand } from "../io";
import { openProjectFlag } from "../projectFlag";
import { applyContextTokensFlag, CHAT_NOTE_FLAGS, openChatNote, runChatTurn } from "../runChatTurn";
import { applyImageFlags, ATTACH_FLAGS, attachedChips } from "../attachFlag";

/**
 * `qa --vault DIR --base-url URL --model NAME [--api-key-env VAR] [--json] [--save] [--continue
 * NOTE] PROMPT`: the plugin's Vault QA mode, through the same chat controller as `chat`. The note
 * index is built (or loaded from the vault's plugin folder, as `search` keeps it), the notes
 * matching the question go to the model before the question, and the answer, citing them as
 * [[links]], streams to stdout. `--json` prints every event, the "sources" first.
 */
export const qaCommand: CliCommand = async (argv, io) => {
  const args = parseArgs(argv, { values: [...MODEL_FLAGS, ...EMBEDDING_FLAGS, ...CHAT_NOTE_FLAGS.values], lists: ATTACH_FLAGS.lists, booleans: ["json", ...CHAT_NOTE_FLAGS.booleans, ...ATTACH_FLAGS.booleans] });
  const prompt = promptOf(args, "qa");
  const session = await openCliSession(args, io);
  applyContextTokensFlag(args, session);
  const attachments = await attachedChips(args, session.vault);
  applyEmbeddingFlags(args, session, io);
  // Vault QA binds no tool: nothing can ask.
  const services = openCliServices(session, io, refuseEverything("vault QA runs no tool"));
  try {
    const project = await openProjectFlag(args, services, session);
    // After the project: its note may name the model.
    applyImageFlags(args, session);
    const note = await openChatNote(args, services, io);
    await embedNotes(services, session, io);
    await services.noteIndex.start(io.signal);
    return await runChatTurn({ services, session, mode: "vault-qa", send: prompt, io, json: args.flags.has("json"), note, project, attachments, noImages: args.flags.has("no-images") });
  } finally {
    // A failure to save the index is the run's error: the next run would not find it.
    await services.dispose();
  }
};
