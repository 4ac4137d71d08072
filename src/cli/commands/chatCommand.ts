import { ContextManager } from "../../context/ContextManager";
import { LLMChainRunner } from "../../LLMProviders/chainRunner/LLMChainRunner";
import { parseArgs } from "../args";
import { MODEL_FLAGS, openCliSession, promptOf } from "../cliRuntime";
import type { CliCommand } from "../io";
import { chainEventPrinter, exitStatusOf } from "../printChainEvents";

/**
 * `chat --vault DIR --base-url URL --model NAME [--api-key-env VAR] [--json] PROMPT`: one plain
 * chat turn (the plugin's Chat mode), the answer streamed to stdout.
 */
export const chatCommand: CliCommand = async (argv, io) => {
  const args = parseArgs(argv, { values: MODEL_FLAGS, booleans: ["json"] });
  const prompt = promptOf(args, "chat");
  const session = await openCliSession(args, io);
  const runner = new LLMChainRunner({ getSettings: () => session.settings, createModel: session.createModel });
  const result = await runner.run({
    userMessage: prompt,
    conversation: new ContextManager(),
    signal: io.signal,
    onEvent: chainEventPrinter(io, args.flags.has("json")),
  });
  return exitStatusOf(result, io);
};
