import { toNotePath } from "../../vault/vaultPath";
import { integerFlag, parseArgs, stringFlag, UsageError } from "../args";
import { EMBEDDING_FLAGS, openCliIndex, roundScore } from "../cliIndex";
import type { CliCommand } from "../io";

/**
 * `similar --vault DIR [--limit N] [--json] [--embedding-base-url URL --embedding-model NAME
 * [--embedding-api-key-env VAR]] NOTE...`: the notes most related to each NOTE (a vault path, ".md"
 * optional), by the words, tags and links they share (see search/similarNotes.ts), and by meaning
 * when embeddings are given.
 * Plain: the related paths one per line, a blank line between the lists of two notes. `--json`:
 * one line per note, `{"note": PATH, "similar": [{"path": PATH, "score": N}]}`. A NOTE that is not
 * a note of the index ends the command with status 1 (the lists before it are printed).
 */
export const similarCommand: CliCommand = async (argv, io) => {
  const args = parseArgs(argv, { booleans: ["json"], values: ["vault", "limit", ...EMBEDDING_FLAGS] });
  const folder = stringFlag(args, "vault", true);
  const limit = integerFlag(args, "limit", 10);
  if (args.positionals.length === 0) throw new UsageError("similar needs one or more NOTE paths");
  const { vault, settings, index } = await openCliIndex(folder, io, args);
  try {
    await index.start(io.signal);
    for (const [position, given] of args.positionals.entries()) {
      const path = toNotePath(given, vault.configDir);
      if (!index.has(path)) throw new Error(`"${given}" is not a note the index holds (missing, excluded or not Markdown)`);
      const similar = await index.similar(path, { limit, signal: io.signal, outsideFolder: settings.history.folder });
      if (args.flags.has("json")) {
        io.stdout(`${JSON.stringify({ note: path, similar: similar.map((note) => ({ path: note.path, score: roundScore(note.score) })) })}\n`);
      } else {
        io.stdout(`${position > 0 ? "\n" : ""}${similar.map((note) => `${note.path}\n`).join("")}`);
      }
    }
  } finally {
    await index.dispose();
  }
  return 0;
};
