/**
 * Vault paths in every script come back from the built CLI (`dist/cli.js`, run as a process)
 * exactly as they are on disk, from every command that prints one: `search` plain, `--json` and
 * `--queries`, `similar` plain and `--json`, the agent's tool lines (stderr) and `--json` events,
 * and the messages on stderr. The folder and note names are what ICU (through Intl) calls each
 * language and the month of May in that language, so the names are not ones this project wrote:
 * Cyrillic, Han, Japanese, Hangul (also decomposed, as macOS stores it), Arabic, Thai, Devanagari
 * (ending in a vowel sign), Greek, French decomposed, and emoji (one a ZWJ sequence).
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { useCliBundle } from "../helpers/cliBundle";
import { startOpenAIServer, type OpenAIServer, type ScriptedToolCall } from "../helpers/openAIServer";
import { makeTempVault, type TempVault } from "../helpers/tempVault";

jest.setTimeout(120_000);

const MAY = new Date(Date.UTC(2026, 4, 15));
const ownName = (locale: string) => new Intl.DisplayNames([locale], { type: "language" }).of(locale) ?? locale;
const month = (locale: string) => new Intl.DateTimeFormat(locale, { month: "long", timeZone: "UTC" }).format(MAY);

/** Folders as on disk: `<locale>/<the language's own name>`. */
const FOLDERS = [
  ...["ru", "zh", "ja", "ko", "ar", "th", "hi", "el"].map((locale) => `${locale}/${ownName(locale)}`),
  `ko-nfd/${ownName("ko").normalize("NFD")}`,
  `fr-nfd/${ownName("fr").normalize("NFD")}`,
  "emoji 🦓",
  "emoji 👨‍👩‍👧",
  "notes (old)",
];
/** One note per folder, named for May in the folder's language. */
const NOTE_PATHS = FOLDERS.map((folder) => {
  const locale = folder.split(/[-/ ]/)[0] ?? "en";
  const name = /^[a-z]{2}$/.test(locale) ? month(locale) : "May";
  return `${folder}/${folder.includes("nfd") ? name.normalize("NFD") : name}.md`;
});
/** The word notes `index - 1` and `index` share, in a ring. */
const ringWord = (index: number) => `ring${index % NOTE_PATHS.length}`;
/** The notes related to note `index`: the one before it and the one after it in the ring. */
const ringNeighbours = (index: number) => [NOTE_PATHS[(index - 1 + NOTE_PATHS.length) % NOTE_PATHS.length]!, NOTE_PATHS[(index + 1) % NOTE_PATHS.length]!];
/** Names the path rule refuses (a line break): reported on stderr with their folders. */
const ODD_PATHS = FOLDERS.slice(0, 4).map((folder) => `${folder}/odd\nname.md`);

const bundle = useCliBundle();
let vault: TempVault;
let server: OpenAIServer | undefined;

beforeEach(() => {
  const notes: Record<string, string> = {};
  // Notes in a ring: each shares a word with the note before it and one with the note after it,
  // so each has exactly two related notes.
  NOTE_PATHS.forEach((path, index) => {
    notes[path] = `# Notes\n\nzebra stripes ${ringWord(index)} ${ringWord(index + 1)}\n`;
  });
  for (const path of ODD_PATHS) notes[path] = "zebra\n";
  vault = makeTempVault(notes);
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  vault.remove();
});

function runBuiltCli(argv: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bundle.path, ...argv], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.on("close", (status) => resolve({ status, stdout, stderr })));
}

const jsonLines = <T>(stdout: string): T[] => stdout.trim().split("\n").map((line) => JSON.parse(line) as T);
const sorted = (paths: Iterable<string>) => [...paths].sort();

/** Every vault path in the output is one of these, byte for byte; none was shortened to "…/name". */
function expectExactPaths(output: string, paths: readonly string[]): void {
  expect(output).not.toContain("…");
  for (const path of paths) expect(output.includes(path) ? path : `missing: ${path}`).toBe(path);
}

describe("paths in every script, through the built CLI", () => {
  it("search: plain, --json and --queries print each path as it is on disk", async () => {
    const plain = await runBuiltCli(["search", "--vault", vault.root, "--limit", "50", "zebra"]);
    expect(plain.status).toBe(0);
    expectExactPaths(plain.stdout, NOTE_PATHS);
    // The refused names are reported on stderr, each with its folder, escaped but not rewritten.
    for (const path of ODD_PATHS) expect(plain.stderr).toContain(JSON.stringify(path));
    expect(plain.stderr).not.toContain("…");

    const json = await runBuiltCli(["search", "--vault", vault.root, "--limit", "50", "--json", "zebra"]);
    expect(json.status).toBe(0);
    expect(sorted(jsonLines<{ results: { path: string }[] }>(json.stdout)[0]?.results.map((hit) => hit.path) ?? [])).toEqual(sorted(NOTE_PATHS));

    const queries = join(bundle.folder, "queries.jsonl");
    writeFileSync(queries, `${JSON.stringify({ _id: "q1", text: "zebra stripes" })}\n${JSON.stringify({ _id: "q2", text: ownName("ru") })}\n`);
    const batch = await runBuiltCli(["search", "--vault", vault.root, "--limit", "50", "--queries", queries]);
    expect(batch.status).toBe(0);
    const [all, russian] = jsonLines<{ id: string; results: { path: string }[] }>(batch.stdout);
    expect(sorted(all?.results.map((hit) => hit.path) ?? [])).toEqual(sorted(NOTE_PATHS));
    expect(russian?.results.map((hit) => hit.path)).toContain(NOTE_PATHS[0]);
  });

  it("similar: plain and --json name each note and its neighbours as they are on disk", async () => {
    const json = await runBuiltCli(["similar", "--vault", vault.root, "--limit", "50", "--json", ...NOTE_PATHS]);
    expect(json.stderr).not.toContain("…");
    expect(json.status).toBe(0);
    const lines = jsonLines<{ note: string; similar: { path: string }[] }>(json.stdout);
    expect(lines.map((line) => line.note)).toEqual(NOTE_PATHS);
    // Its two ring neighbours at least (a note of the same name, "5월" in both Korean folders, is related too), each path as on disk.
    lines.forEach((line, index) => {
      const paths = line.similar.map((note) => note.path);
      expect(paths).toEqual(expect.arrayContaining(ringNeighbours(index)));
      expect(paths.filter((path) => !NOTE_PATHS.includes(path))).toEqual([]);
    });

    const plain = await runBuiltCli(["similar", "--vault", vault.root, "--limit", "50", ...NOTE_PATHS]);
    expect(plain.status).toBe(0);
    expectExactPaths(plain.stdout, NOTE_PATHS);
  });

  it("errors on stderr name the path as typed (the agent's error lines below cover every folder)", async () => {
    // A process each: the command stops at the first name it cannot find.
    for (const folder of [FOLDERS[0], FOLDERS[6], FOLDERS[11]]) {
      const missing = `${folder}/nowhere`;
      const result = await runBuiltCli(["similar", "--vault", vault.root, missing]);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`vault-copilot: no note matches ${JSON.stringify(missing)}`);
      expect(result.stderr).not.toContain("…");
    }
  });

  it("agent: the tool lines on stderr and the --json events carry each path as it is on disk", async () => {
    const calls: ScriptedToolCall[] = [
      ...NOTE_PATHS.map((path) => ({ name: "readNote", arguments: JSON.stringify({ notePath: path }) })),
      ...FOLDERS.map((folder) => ({ name: "readNote", arguments: JSON.stringify({ notePath: `${folder}/nowhere.md` }) })),
      { name: "getFileTree", arguments: "{}" },
    ];
    const missingLines = FOLDERS.map((folder) => `No note matches ${JSON.stringify(`${folder}/nowhere.md`)}`);
    for (const json of [false, true]) {
      await server?.close();
      server = await startOpenAIServer([{ toolCalls: calls }, { text: `Прочитано: ${NOTE_PATHS.join(", ")}` }]);
      const result = await runBuiltCli(["agent", "--vault", vault.root, "--base-url", server.baseUrl, "--model", "m", "--tools", "readNote,getFileTree", ...(json ? ["--json"] : []), "Прочитай"]);
      expect(result.status).toBe(0);
      if (json) {
        const events = jsonLines<Record<string, unknown>>(result.stdout);
        const starts = events.filter((event) => event.type === "tool-call-start").map((event) => JSON.stringify(event.args));
        for (const path of NOTE_PATHS) expect(starts).toContain(JSON.stringify({ notePath: path }));
        const ends = events.filter((event) => event.type === "tool-call-end").map((event) => String(event.resultText)).join("\n");
        expectExactPaths(ends, NOTE_PATHS);
        for (const line of missingLines) expect(ends).toContain(line);
        expect(result.stdout).not.toContain("…");
      } else {
        // Plain: "→ readNote {args}" and "← readNote error: …" on stderr, the answer on stdout.
        for (const path of NOTE_PATHS) expect(result.stderr).toContain(`→ readNote ${JSON.stringify({ notePath: path })}`);
        for (const line of missingLines) expect(result.stderr).toContain(line);
        expect(result.stderr).not.toContain("…");
        expectExactPaths(result.stdout, NOTE_PATHS);
      }
    }
  });
});
