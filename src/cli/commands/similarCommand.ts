import { integerFlag, parseArgs, stringFlag, UsageError } from "../args";
import { applyEmbeddingFlags, embedNotes, EMBEDDING_FLAGS, roundScore } from "../cliIndex";
import { openCliSearchServices, openVaultSession } from "../cliSession";
import type { CliCommand } from "../io";
import { noteByName } from "../noteByName";
import { PROJECT_FLAG } from "../projectFlag";

/**
 * `similar --vault DIR [--limit N] [--json] [--embedding-base-url URL --embedding-model NAME
 * [--embedding-api-key-env VAR]] NOTE...`: the notes most related to each NOTE, by the words, tags
 * and links they share (see search/similarNotes.ts), and by meaning when embeddings are given.
 * A NOTE is a vault path or a file name, in any letter case and Unicode form, ".md" optional
 * (see noteByName). Plain: the related paths one per line, a blank line between the lists of two
 * notes. `--json`: one line per note, `{"note": PATH, "similar": [{"path": PATH, "score": N}]}`,
 * PATH as on disk. A NOTE that names no note of the index, or several, ends the command with
 * status 1 and a message saying which (the lists before it are printed).
 */
export const similarCommand: CliCommand = async (argv, io) => {
  const args = parseArgs(argv, { booleans: ["json"], values: ["vault", "limit", PROJECT_FLAG, ...EMBEDDING_FLAGS] });
  const folder = stringFlag(args, "vault", true);
  const limit = integerFlag(args, "limit", 10);
  if (args.positionals.length === 0) throw new UsageError("similar needs one or more NOTE paths");
  const session = await openVaultSession(folder, io);
  applyEmbeddingFlags(args, session, io);
  const { vault, settings } = session;
  const services = openCliSearchServices(session, io);
  const index = services.noteIndex;
  try {
    const projectName = stringFlag(args, PROJECT_FLAG);
    // A missing or broken project note ends the command before anything is indexed.
    const project = projectName === undefined ? null : await services.openProjectSearch(projectName);
    await embedNotes(services, session, io);
    await index.start(io.signal);
    // Inside a project, NOTE is one of its notes and only its notes are related; PDFs and canvases
    // are indexed as notes, so they have neighbours too.
    const notes = (await (project?.vault ?? vault).listFiles()).filter((path) => index.has(path));
    const acceptPath = project ? (path: string) => project.scope.has(path) : undefined;
    for (const [position, given] of args.positionals.entries()) {
      const path = noteByName(given, notes, vault.configDir);
      const similar = await index.similar(path, { limit, signal: io.signal, outsideFolder: settings.history.folder, ...(acceptPath ? { acceptPath } : {}) });
      if (args.flags.has("json")) {
        io.stdout(`${JSON.stringify({ note: path, similar: similar.map((note) => ({ path: note.path, score: roundScore(note.score) })) })}\n`);
      } else {
        io.stdout(`${position > 0 ? "\n" : ""}${similar.map((note) => `${note.path}\n`).join("")}`);
      }
    }
  } finally {
    await services.dispose();
  }
  return 0;
};
