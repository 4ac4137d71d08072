import { LLMChainRunner } from "../../LLMProviders/chainRunner/LLMChainRunner";
import { parseArgs } from "../args";
import { MODEL_FLAGS, openCliSession, promptOf } from "../cliRuntime";
import type { CliCommand } from "../io";
import { runOneTurn } from "../printChainEvents";

/**
 * `chat --vault DIR --base-url URL --model NAME [--api-key-env VAR] [--json] PROMPT`: one plain
 * chat turn (the plugin's Chat mode), the answer streamed to stdout.
 */
export const chatCommand: CliCommand = async (argv, io) => {
  const args = parseArgs(argv, { values: MODEL_FLAGS, booleans: ["json"] });
  const prompt = promptOf(args, "chat");
  const session = await openCliSession(args, io);
  const runner = new LLMChainRunner({ getSettings: () => session.settings, createModel: session.createModel });
  return runOneTurn(runner, prompt, io, args.flags.has("json"));
};
