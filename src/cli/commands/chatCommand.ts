import { refuseEverything } from "../../ports/approval";
import { parseArgs } from "../args";
import { MODEL_FLAGS, openCliServices, openCliSession, promptOf } from "../cliRuntime";
import type { CliCommand } from "../io";
import { openProjectFlag } from "../projectFlag";
import { applyContextTokensFlag, CHAT_NOTE_FLAGS, openChatNote, runChatTurn } from "../runChatTurn";
import { applyImageFlags, ATTACH_FLAGS, attachedChips } from "../attachFlag";

/**
 * `chat --vault DIR --base-url URL --model NAME [--api-key-env VAR] [--json] [--save]
 * [--continue NOTE] PROMPT`: one plain chat turn (the plugin's Chat mode), the answer streamed to
 * stdout. `--save` keeps the chat as a note in the history folder, `--continue` goes on with one.
 * `--attach ITEM` (repeatable) attaches a vault file or a web page as the view's chips do;
 * `--no-images` leaves every image out.
 */
export const chatCommand: CliCommand = async (argv, io) => {
  const args = parseArgs(argv, { values: [...MODEL_FLAGS, ...CHAT_NOTE_FLAGS.values], lists: ATTACH_FLAGS.lists, booleans: ["json", ...CHAT_NOTE_FLAGS.booleans, ...ATTACH_FLAGS.booleans] });
  const prompt = promptOf(args, "chat");
  const session = await openCliSession(args, io);
  applyContextTokensFlag(args, session);
  const attachments = await attachedChips(args, session.vault);
  // Chat binds no tool: nothing can ask.
  const services = openCliServices(session, io, refuseEverything("chat runs no tool"));
  try {
    const project = await openProjectFlag(args, services, session);
    // After the project: its note may name the model.
    applyImageFlags(args, session);
    const note = await openChatNote(args, services, io);
    return await runChatTurn({ services, session, mode: "chat", send: prompt, io, json: args.flags.has("json"), note, project, attachments, noImages: args.flags.has("no-images") });
  } finally {
    await services.dispose();
  }
};
