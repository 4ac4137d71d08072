import { UsageError } from "./args";
import type { CliCommand, CliIo } from "./io";
import { errorMessage } from "../errorMessage";
import { cliOutputFilter } from "./outputFilter";

/**
 * The headless entry (`vault-copilot`, `npm run cli --`): the same runners, registry and tools as
 * the plugin, over a folder. Exit status: 0 success, 2 bad arguments (with a usage line), 1 a
 * failed run (one line on stderr).
 */
export const USAGE = [
  "usage: vault-copilot search --vault DIR [--limit N] [--json] [--project NAME] [EMBEDDINGS] QUERY",
  "       vault-copilot search --vault DIR --queries FILE.jsonl [--limit N] [--project NAME] [EMBEDDINGS]",
  "       vault-copilot similar --vault DIR [--limit N] [--json] [--project NAME] [EMBEDDINGS] NOTE...",
  "       vault-copilot chat  --vault DIR [--provider openai|anthropic|gemini] --base-url URL --model NAME [--api-key-env VAR] [--json]",
  "                           [--save] [--continue NOTE] [--context-tokens N] [ATTACH] PROMPT",
  "       vault-copilot qa    --vault DIR [--provider openai|anthropic|gemini] --base-url URL --model NAME [--api-key-env VAR] [--json] [EMBEDDINGS]",
  "                           [--save] [--continue NOTE] [--context-tokens N] [ATTACH] PROMPT",
  "       vault-copilot agent --vault DIR [--provider openai|anthropic|gemini] --base-url URL --model NAME [--api-key-env VAR]",
  "                           [--tools id,id,...] [--max-iterations N] [--yes] [--json] [EMBEDDINGS]",
  "                           [--mcp-config FILE.json] [--save] [--continue NOTE] [--context-tokens N] [ATTACH] PROMPT",
  "       vault-copilot run   --vault DIR [--provider openai|anthropic|gemini] --base-url URL --model NAME [--api-key-env VAR] --prompt NAME",
  "                           [--note PATH] [--selection TEXT] [--apply] [--yes] [--json] [--save] [--continue NOTE] [--context-tokens N] [ATTACH]",
  "       vault-copilot complete --vault DIR [--provider openai|anthropic|gemini] --base-url URL --model NAME [--api-key-env VAR]",
  "                           --note PATH --at OFFSET [--json]",
  "       vault-copilot mcp list --config FILE.json",
  "EMBEDDINGS: --embedding-base-url URL --embedding-model NAME [--embedding-api-key-env VAR]",
  "ATTACH: [--attach PATH|URL]... [--no-images]   (a vault file: note, PDF, canvas, image; or an http(s) page)",
  "chat, qa, agent and run take --project NAME (the project's notes only, its instructions; its model when --model is left out)",
].join("\n");

/** Command name -> loader; loaders import on demand, so `search` never pays for LangChain's start-up. */
export type CliCommandTable = Readonly<Record<string, () => Promise<CliCommand>>>;

export async function main(argv: string[], rawIo: CliIo, commands: CliCommandTable): Promise<number> {
  const filter = cliOutputFilter(argv, rawIo.env);
  const added: string[] = [];
  const io: CliIo = {
    ...rawIo,
    stdout: (text) => rawIo.stdout(filter.stdout(text)),
    stderr: (text) => rawIo.stderr(filter.stderr(text)),
    addSecret: (value) => {
      added.push(value);
      filter.addSecret(value);
    },
    addedSecrets: () => added,
  };
  const [name, ...rest] = argv;
  const load = name && Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!load) {
    io.stderr(`${name ? `unknown command "${name}"\n` : ""}${USAGE}\n`);
    return 2;
  }
  try {
    const command = await load();
    return await command(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`vault-copilot: ${error.message}\n${USAGE}\n`);
      return 2;
    }
    const message = errorMessage(error);
    io.stderr(`vault-copilot: ${message.split("\n")[0] ?? message}\n`);
    return 1;
  }
}
