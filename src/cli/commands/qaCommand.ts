import { VaultQAChainRunner } from "../../LLMProviders/chainRunner/VaultQAChainRunner";
import { parseArgs } from "../args";
import { cliSemanticSearch, EMBEDDING_FLAGS } from "../cliIndex";
import { createCliNoteIndex, MODEL_FLAGS, openCliSession, promptOf } from "../cliRuntime";
import { searchOutsideChats } from "../../history/searchOutsideChats";
import type { CliCommand } from "../io";
import { runOneTurn } from "../printChainEvents";

/**
 * `qa --vault DIR --base-url URL --model NAME [--api-key-env VAR] [--json] PROMPT`: the plugin's
 * Vault QA mode. The note index is built (or loaded from the vault's plugin folder, as `search`
 * keeps it), the notes matching the question go to the model before the question, and the answer,
 * citing them as [[links]], streams to stdout. `--json` prints every event, the "sources" first.
 */
export const qaCommand: CliCommand = async (argv, io) => {
  const args = parseArgs(argv, { values: [...MODEL_FLAGS, ...EMBEDDING_FLAGS], booleans: ["json"] });
  const prompt = promptOf(args, "qa");
  const session = await openCliSession(args, io);
  const index = createCliNoteIndex(session.vault, session.settings, io, await cliSemanticSearch(args, session.vault, session.settings, io));
  try {
    await index.start(io.signal);
    const runner = new VaultQAChainRunner({
      getSettings: () => session.settings,
      createModel: session.createModel,
      modelIdleTimeoutMs: session.modelIdleTimeoutMs,
      getSearcher: () => searchOutsideChats(index, () => session.settings.history.folder, session.vault.configDir),
    });
    // Awaited here: the finally below closes what the run uses.
    return await runOneTurn(runner, prompt, io, args.flags.has("json"));
  } finally {
    // A failure to save the index is the run's error: the next run would not find it.
    await index.dispose();
  }
};
