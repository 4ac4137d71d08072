/**
 * PDFs and canvases through the CLI: `search`, `similar`, `qa` and the agent's localSearch and
 * readNote (in-process, `main()` with the real command table, against the scripted
 * OpenAI-compatible server), and `search` through the built bundle, whose pdfjs-dist runs in a
 * worker thread the bundle starts.
 */
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { runCli } from "../helpers/runCli";
import { contentText } from "../helpers/runnerHarness";
import { useCliBundle } from "../helpers/cliBundle";
import { startOpenAIServer, type OpenAIServer } from "../helpers/openAIServer";
import { startEmbeddingServer } from "../helpers/embeddingServer";
import { standardFontPdf, unicodePdf } from "../helpers/pdfFiles";
import { makeTempVault, type TempVault } from "../helpers/tempVault";

jest.setTimeout(60_000);

const TIDES = [
  "Chapter one. The harbour town and its fishing fleet.",
  "Chapter two. Spring tides come twice a month, at new and full moon; the tide gauge at the pier records each one.",
  "Chapter three. Recipes for smoked mackerel.",
];

let vault: TempVault;
let server: OpenAIServer | undefined;

beforeEach(async () => {
  vault = makeTempVault({
    "Notes/Moon.md": "# Moon\n\nThe moon pulls the sea: spring tides come at new and full moon, twice a month.\n",
    "Notes/Garden.md": "# Garden\n\nPlant tulip bulbs in autumn.\n",
    "Boards/Проект.canvas": JSON.stringify({
      nodes: [
        { id: "a", type: "text", text: "Измерить приливы 潮汐", x: 0, y: 0, width: 100, height: 60 },
        { id: "b", type: "file", file: "Papers/Tides.pdf", x: 0, y: 200, width: 100, height: 60 },
      ],
      edges: [{ id: "e", fromNode: "a", toNode: "b", label: "источник" }],
    }),
  });
  writePdf("Papers/Tides.pdf", await standardFontPdf(TIDES));
  writePdf("Papers/Сканы/Чек.pdf", await standardFontPdf(["", ""]));
  writePdf("Papers/Отчёт.pdf", unicodePdf(["Годовой отчёт", "Приливы и отливы 潮汐 в заливе"]));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  vault.remove();
});

function writePdf(path: string, bytes: Uint8Array): void {
  vault.write(path, bytes);
}

describe("vault-copilot search and similar over PDFs and canvases", () => {
  it('search --json names a PDF hit\'s page ("page": 2); plain output prints PATH#page=2; a scan is named on stderr', async () => {
    const json = await runCli(["search", "--vault", vault.root, "--json", "tide gauge pier"]);
    expect(json.status).toBe(0);
    const hits = (JSON.parse(json.stdout) as { results: Array<Record<string, unknown>> }).results;
    expect(hits[0]).toMatchObject({ path: "Papers/Tides.pdf", page: 2, title: "Tides.pdf" });
    expect(String(hits[0]?.content)).toContain("Spring tides come twice a month");
    expect(hits.find((hit) => hit.path === "Notes/Moon.md")).not.toHaveProperty("page");
    expect(json.stderr).toContain('"Papers/Сканы/Чек.pdf" has no text layer: none of its 2 pages has text');

    const plain = await runCli(["search", "--vault", vault.root, "tide gauge pier"]);
    expect(plain.status).toBe(0);
    expect(plain.stdout.split("\n")[0]).toMatch(/^\d\.\d{3} {2}Papers\/Tides\.pdf#page=2$/);
  });

  it("search finds a PDF and a canvas by their Cyrillic and Han text", async () => {
    const { stdout } = await runCli(["search", "--vault", vault.root, "--json", "приливы"]);
    const hits = (JSON.parse(stdout) as { results: Array<{ path: string; page?: number }> }).results;
    expect(hits.map((hit) => [hit.path, hit.page])).toEqual(
      expect.arrayContaining([
        ["Papers/Отчёт.pdf", 2],
        ["Boards/Проект.canvas", undefined],
      ]),
    );
  });

  it("similar gives a note's PDF neighbour, and a PDF's note neighbour", async () => {
    const { status, stdout } = await runCli(["similar", "--vault", vault.root, "--json", "Notes/Moon.md", "Papers/Tides.pdf"]);
    expect(status).toBe(0);
    const [moon, tides] = stdout.trim().split("\n").map((line) => JSON.parse(line) as { note: string; similar: Array<{ path: string }> });
    expect(moon?.similar[0]?.path).toBe("Papers/Tides.pdf");
    expect(tides?.note).toBe("Papers/Tides.pdf");
    expect(tides?.similar[0]?.path).toBe("Notes/Moon.md");
  });
});

describe("search by meaning over PDFs", () => {
  it("embeds a PDF's text (a scan beside it stops nothing) and finds the PDF by a word it does not hold", async () => {
    const embeddings = await startEmbeddingServer({ synonyms: { marina: "harbour" } });
    try {
      const { status, stdout, stderr } = await runCli(["search", "--vault", vault.root, "--json", "--embedding-base-url", embeddings.baseUrl, "--embedding-model", "e", "marina"]);
      expect(status).toBe(0);
      expect(stderr).not.toContain("Embedding the notes stopped");
      expect(embeddings.inputs().join("")).not.toContain("\f");
      expect(embeddings.inputs().some((text) => text.includes("Tides.pdf") && text.includes("Spring tides come twice a month"))).toBe(true);
      const hits = (JSON.parse(stdout) as { results: Array<{ path: string; page?: number }> }).results;
      expect(hits.map((hit) => hit.path)).toContain("Papers/Tides.pdf");
      expect(hits.find((hit) => hit.path === "Papers/Tides.pdf")?.page).toBe(1);
    } finally {
      await embeddings.close();
    }
  });
});

describe("vault-copilot qa and agent over PDFs", () => {
  it("qa sends the PDF's page with the link to cite it by, and the model's citation is printed as it came", async () => {
    server = await startOpenAIServer([{ text: "Twice a month [[Papers/Tides.pdf#page=2]]." }]);
    const { status, stdout } = await runCli(["qa", "--vault", vault.root, "--base-url", server.baseUrl, "--model", "m", "When are spring tides?"]);
    expect(status).toBe(0);
    expect(stdout).toBe("Twice a month [[Papers/Tides.pdf#page=2]].\n");
    const user = contentText(server.requests[0]?.body.messages.at(-1)?.content);
    expect(user).toContain('path="Papers/Tides.pdf" page="2" cite="[[Papers/Tides.pdf#page=2]]"');
    expect(user).toContain("Spring tides come twice a month");
    expect(user).toContain("is cited exactly as that attribute says, e.g. [[Papers/x.pdf#page=2]]");
  });

  it("the agent's localSearch names the page, and readNote reads the PDF by its pages", async () => {
    server = await startOpenAIServer([
      { toolCalls: [{ name: "localSearch", arguments: JSON.stringify({ query: "tide gauge pier", salientTerms: ["gauge"] }) }] },
      { toolCalls: [{ name: "readNote", arguments: JSON.stringify({ notePath: "Papers/Tides.pdf#page=2" }) }] },
      { toolCalls: [{ name: "readNote", arguments: JSON.stringify({ notePath: "Сканы/Чек.pdf" }) }] },
      { text: "Done." },
    ]);
    const { status } = await runCli(["agent", "--vault", vault.root, "--base-url", server.baseUrl, "--model", "m", "--tools", "localSearch,readNote", "--json", "Tides?"]);
    expect(status).toBe(0);
    const toolResult = (request: number) => String(server!.requests[request]?.body.messages.filter((message) => message.role === "tool").at(-1)?.content);
    expect(toolResult(1)).toContain('path="Papers/Tides.pdf" page="2" cite="[[Papers/Tides.pdf#page=2]]"');
    expect(toolResult(2)).toContain('pages="1-3 of 3"');
    expect(toolResult(2)).toContain("[page 2]\nChapter two. Spring tides come twice a month");
    expect(toolResult(3)).toContain('"Papers/Сканы/Чек.pdf" has no text layer');
  });
});

describe("the built CLI", () => {
  const bundle = useCliBundle();

  it("reads PDFs with pdfjs-dist in a worker thread and exits when done", async () => {
    // The bundle sits in a temporary folder here; installed, it finds pdfjs-dist beside it.
    const child = spawn(process.execPath, [bundle.path, "search", "--vault", vault.root, "--json", "tide gauge pier"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NODE_PATH: resolve(__dirname, "../../node_modules") },
    });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    const status = await new Promise<number | null>((done) => child.on("close", done));
    expect(status).toBe(0);
    expect((JSON.parse(stdout) as { results: unknown[] }).results[0]).toMatchObject({ path: "Papers/Tides.pdf", page: 2 });
  });
});
