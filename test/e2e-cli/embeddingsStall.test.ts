/**
 * An embeddings server that accepts requests and never answers, against the built CLI
 * (`dist/cli.js` as `npm run build` makes it, run as its own process): the command gives up on it
 * after the idle limit (VAULT_COPILOT_IDLE_TIMEOUT_MS, set low here; 120 s by default), says so in
 * one line and answers by words; SIGTERM ends it at once, while notes are embedded or while a
 * query is. The jest timeout (far below the 120 s default limit) is what a hang would hit.
 */
import { spawn } from "node:child_process";
import { useCliBundle } from "../helpers/cliBundle";
import { startEmbeddingServer, type EmbeddingServer } from "../helpers/embeddingServer";
import { startOpenAIServer, type OpenAIServer } from "../helpers/openAIServer";
import { makeTempVault, type TempVault } from "../helpers/tempVault";

jest.setTimeout(60_000);

const NOTES = {
  "Кухня/Борщ.md": "# Борщ\n\nСвёкла, капуста и укроп; варить два часа.\n",
  "Кухня/Щи.md": "# Щи\n\nКапуста и укроп; варить час.\n",
  "菜谱/番茄汤.md": "# 番茄汤\n\n番茄 和 鸡蛋，煮十分钟。\n",
  "مطبخ/حساء.md": "# حساء العدس\n\nعدس أحمر وكمون وليمون.\n",
  "Garden/Roses 🌹.md": "# Roses\n\nPrune the roses in early spring.\n",
};

const bundle = useCliBundle();
let vault: TempVault;
let server: EmbeddingServer;
let model: OpenAIServer | undefined;

beforeAll(async () => {
  server = await startEmbeddingServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.reset();
  vault = makeTempVault(NOTES);
});
afterEach(async () => {
  await model?.close();
  model = undefined;
  vault.remove();
});

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Starts `node cli.js ARGS`; `finished` settles when the process has exited. */
function start(args: string[], env: Record<string, string> = {}): { finished: Promise<Finished>; terminate: () => void } {
  const child = spawn(process.execPath, [bundle.path, ...args], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const finished = new Promise<Finished>((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
  return { finished, terminate: () => child.kill("SIGTERM") };
}

const embeddingFlags = () => ["--embedding-base-url", server.baseUrl, "--embedding-model", "test-embed"];
const QUICK = { VAULT_COPILOT_IDLE_TIMEOUT_MS: "300" };

describe("a stalled embeddings server", () => {
  it.each([
    ["search", () => ["search", "--vault", vault.root, ...embeddingFlags(), "свёкла"], "Кухня/Борщ.md"],
    ["similar", () => ["similar", "--vault", vault.root, ...embeddingFlags(), "Кухня/Борщ.md"], "Кухня/Щи.md"],
    ["qa", () => ["qa", "--vault", vault.root, "--base-url", model!.baseUrl, "--model", "test-model", ...embeddingFlags(), "Что нужно для борща?"], "Свёкла и капуста."],
    ["agent", () => ["agent", "--vault", vault.root, "--base-url", model!.baseUrl, "--model", "test-model", "--tools", "localSearch", ...embeddingFlags(), "Что нужно для борща?"], "Свёкла и капуста."],
  ])("%s: gives up after the idle limit, says so in one line, and answers by words", async (_name, args, printed) => {
    model = await startOpenAIServer([{ text: "Свёкла и капуста." }]);
    server.stall();
    const result = await start(args(), QUICK).finished;
    expect(result.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(/^vault-copilot: embeddings: The embeddings server \(http:\/\/127\.0\.0\.1:\d+\/v1\) did not answer for 0\.3 s\. \(the rest waits for the next run\); notes are searched by words alone$/),
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(printed);
    // One batch was sent and left unanswered; nothing was sent after it.
    expect(server.requests).toHaveLength(1);
  });

  it("search: a query whose embedding stalls is answered by words, with one line saying so", async () => {
    const first = await start(["search", "--vault", vault.root, ...embeddingFlags(), "свёкла"]).finished;
    expect(first.code).toBe(0);
    const embedded = server.requests.length;
    server.stall();
    const result = await start(["search", "--vault", vault.root, ...embeddingFlags(), "番茄"], QUICK).finished;
    expect(result.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(/^vault-copilot: embeddings: The embeddings server \(.*\) did not answer for 0\.3 s\. This search is by words alone\.$/),
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("菜谱/番茄汤.md");
    expect(server.requests.slice(embedded).map((request) => request.input)).toEqual([["番茄"]]);
  });

  it("search: after a stall while a changed note is embedded, the query is not sent to wait again", async () => {
    expect((await start(["search", "--vault", vault.root, ...embeddingFlags(), "свёкла"]).finished).code).toBe(0);
    const embedded = server.requests.length;
    vault.write("Кухня/Щи.md", "# Щи\n\nКапуста, укроп и свёкла.\n");
    server.stall();
    const result = await start(["search", "--vault", vault.root, ...embeddingFlags(), "свёкла"], QUICK).finished;
    expect(result.stderr.trim().split("\n")).toEqual([expect.stringMatching(/did not answer for 0\.3 s\. \(the rest waits for the next run\); notes are searched by words alone$/)]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Кухня/Щи.md");
    expect(server.requests.slice(embedded)).toHaveLength(1);
  });

  it("SIGTERM while the notes are embedded ends the command at once, with the default limit", async () => {
    server.stall();
    const run = start(["search", "--vault", vault.root, ...embeddingFlags(), "свёкла"]);
    await server.arrived(1);
    run.terminate();
    const result = await run.finished;
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe("vault-copilot: stopped while the notes were embedded (terminated); what was embedded is kept\n");
  });

  it("SIGTERM while a query is embedded ends the command at once, printing no results", async () => {
    expect((await start(["search", "--vault", vault.root, ...embeddingFlags(), "свёкла"]).finished).code).toBe(0);
    const embedded = server.requests.length;
    server.stall();
    const run = start(["search", "--vault", vault.root, ...embeddingFlags(), "番茄"]);
    await server.arrived(embedded + 1);
    run.terminate();
    const result = await run.finished;
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe("vault-copilot: terminated\n");
  });
});
