import { errorMessage } from "../../errorMessage";
import { promises as fs } from "node:fs";
import type { NoteSearcher } from "../../ports/NoteSearcher";
import type { NoteIndex } from "../../search/NoteIndex";
import { pageLink } from "../../documents/documentKinds";
import { PROJECT_FLAG } from "../projectFlag";
import { integerFlag, parseArgs, stringFlag, UsageError } from "../args";
import { applyEmbeddingFlags, embedNotes, EMBEDDING_FLAGS, roundScore as round } from "../cliIndex";
import { openCliSearchServices, openVaultSession } from "../cliSession";
import type { CliCommand, CliIo } from "../io";

/**
 * `search --vault DIR [--limit N] [--json] QUERY` and `search --vault DIR --queries FILE.jsonl [--limit N]`,
 * each with `--embedding-base-url URL --embedding-model NAME [--embedding-api-key-env VAR]` to fuse meaning.
 * The index lives in the vault's plugin folder, as in Obsidian, so a second run loads it and
 * re-reads only notes that changed; the exclusions come from the plugin's settings there.
 */
export const searchCommand: CliCommand = async (argv, io) => {
  const args = parseArgs(argv, { booleans: ["json"], values: ["vault", "limit", "queries", PROJECT_FLAG, ...EMBEDDING_FLAGS] });
  const vaultFolder = stringFlag(args, "vault", true);
  const queriesFile = stringFlag(args, "queries");
  const query = args.positionals.join(" ").trim();
  if (queriesFile && query) throw new UsageError("give either QUERY or --queries FILE, not both");
  if (!queriesFile && !query) throw new UsageError("search needs a QUERY (or --queries FILE.jsonl)");
  if (queriesFile && args.flags.has("json")) throw new UsageError("--queries always prints JSON lines; leave out --json");

  const session = await openVaultSession(vaultFolder, io);
  applyEmbeddingFlags(args, session, io);
  const limit = integerFlag(args, "limit", session.settings.search.maxResults);
    const services = openCliSearchServices(session, io);
  try {
    const projectName = stringFlag(args, PROJECT_FLAG);
    // A missing or broken project note ends the command before anything is indexed.
    const project = projectName === undefined ? null : await services.openProjectSearch(projectName);
    await embedNotes(services, session, io);
    const index = services.noteIndex;
    await index.start(io.signal);
    await project?.scope.prepare(io.signal);
    // Inside a project only its notes are ranked, and a passage's links out of it are masked.
    const acceptPath = project ? (path: string) => project.scope.has(path) : undefined;
    if (queriesFile) await runBatch(index, queriesFile, limit, io, acceptPath);
    else await runOne(project?.search ?? index, query, limit, args.flags.has("json"), io);
  } finally {
    await services.dispose();
  }
  return 0;
};

async function runOne(index: NoteSearcher, query: string, limit: number, json: boolean, io: CliIo): Promise<void> {
  const results = await index.search(query, { limit, signal: io.signal });
  if (json) {
    const hits = results.map((result) => ({
      path: result.path,
      ...(result.page !== undefined ? { page: result.page } : {}),
      title: result.title,
      score: round(result.score),
      ...(result.heading ? { heading: result.heading } : {}),
      content: result.content,
    }));
    io.stdout(`${JSON.stringify({ query, results: hits })}\n`);
    return;
  }
  if (results.length === 0) {
    io.stdout(`No notes match "${query}".\n`);
    return;
  }
  for (const result of results) {
    const link = pageLink(result.path, result.page);
    const where = result.heading ? `${link} > ${result.heading}` : link;
    const preview = result.content.replace(/\s+/g, " ").trim().slice(0, 160);
    io.stdout(`${result.score.toFixed(3)}  ${where}\n${preview ? `        ${preview}\n` : ""}`);
  }
}

/** One `{"_id","text"}` per line in; one `{"id","results":[{"path","score"}]}` per line out. */
async function runBatch(index: NoteIndex, file: string, limit: number, io: CliIo, acceptPath?: (path: string) => boolean): Promise<void> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (error) {
    throw new Error(`cannot read --queries file "${file}": ${errorMessage(error)}`);
  }
  const lines = text.split(/\r?\n/);
  for (let number = 1; number <= lines.length; number++) {
    const line = (lines[number - 1] ?? "").trim();
    if (!line) continue;
    const { id, query } = parseQueryLine(line, file, number);
    const ranked = await index.rank(query, { limit, signal: io.signal, ...(acceptPath ? { acceptPath } : {}) });
    io.stdout(`${JSON.stringify({ id, results: ranked.map((note) => ({ path: note.path, score: round(note.score) })) })}\n`);
  }
}

function parseQueryLine(line: string, file: string, number: number): { id: string; query: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new Error(`${file}:${number}: not a JSON line`);
  }
  const record = (value ?? {}) as Record<string, unknown>;
  const id = record._id;
  if ((typeof id !== "string" && typeof id !== "number") || typeof record.text !== "string") {
    throw new Error(`${file}:${number}: a query line needs "_id" and "text"`);
  }
  return { id: String(id), query: record.text };
}

