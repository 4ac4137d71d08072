import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startEmbeddingServer, type EmbeddingServer } from "../../../test/helpers/embeddingServer";
import { FakeScheduler } from "../../../test/helpers/fakeScheduler";
import { makeTempVault, type TempVault } from "../../../test/helpers/tempVault";
import { FsDataStore, pluginDataFolder } from "../../vault/fsDataStore";
import { FsVault } from "../../vault/FsVault";
import { createEmbeddingClient } from "./embeddingClient";
import { Embedder, EMBEDDINGS_FILE, type EmbedderOptions, type EmbedderProblem, type EmbedderSettings } from "./Embedder";
import { VectorStore } from "./vectorStore";

const hostFetch = globalThis.fetch.bind(globalThis);
/** No real waiting in tests: the policy's waits are 0–1 ms and Retry-After is "0". */
const quickRetry = { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 50, random: () => 0 };

let server: EmbeddingServer;
let temp: TempVault;
let embedders: Embedder[] = [];
/** The embedders' clock: the 2 s quiet time after a change and the 60 s resume pass only when a test moves it. */
let time: FakeScheduler;

beforeAll(async () => {
  server = await startEmbeddingServer({ dimensions: 256, synonyms: { automobile: "car", vehicle: "car" } });
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  time = new FakeScheduler();
});
afterEach(async () => {
  await Promise.all(embedders.map((embedder) => embedder.dispose()));
  embedders = [];
  temp?.remove();
});

function settingsWith(overrides: Partial<EmbedderSettings> = {}): EmbedderSettings {
  return { enabled: true, model: "embed-a", includeFolders: [], excludedFolders: [], excludedPatterns: [], batchSize: 16, ...overrides };
}

function makeEmbedder(settings: EmbedderSettings | (() => EmbedderSettings), extra: Partial<EmbedderOptions> = {}): Embedder {
  const vault = new FsVault(temp.root);
  const embedder = new Embedder({
    vault,
    store: new FsDataStore(pluginDataFolder(temp.root)),
    createClient: (current) => createEmbeddingClient({ fetch: hostFetch, baseUrl: server.baseUrl, model: current.model }),
    getSettings: typeof settings === "function" ? settings : () => settings,
    retryPolicy: quickRetry,
    saveIntervalMs: 0,
    scheduler: time,
    ...extra,
  });
  embedders.push(embedder);
  return embedder;
}

function storedFile(): VectorStore {
  return VectorStore.deserialize(readFileSync(join(pluginDataFolder(temp.root), EMBEDDINGS_FILE), "utf8"));
}

async function queryVector(text: string, model = "embed-a"): Promise<Float32Array> {
  const [vector] = await createEmbeddingClient({ fetch: hostFetch, baseUrl: server.baseUrl, model }).embed([text]);
  return vector ?? new Float32Array();
}

const notes = {
  "Garage/Repairs.md": "# Repairs\nThe automobile needs new brakes and an oil change before winter.",
  "Kitchen/Bread.md": "# Bread\nFlour, water, salt and yeast; knead for ten minutes and bake.",
  "Garden/Roses.md": "# Roses\nPrune the roses in early spring and feed them with compost.",
};

describe("Embedder", () => {
  it("finds a note by a word it never uses, through vectors alone", async () => {
    temp = makeTempVault(notes);
    expect(Object.values(notes).some((text) => /\bcar\b/i.test(text))).toBe(false);
    const embedder = makeEmbedder(settingsWith());
    await embedder.start();
    const hits = embedder.vectors.search(await queryVector("car"), 3);
    expect(hits[0]?.path).toBe("Garage/Repairs.md");
    expect(hits[0]?.score).toBeGreaterThan(0.2);
    expect(hits.slice(1).every((hit) => hit.score < 0.05)).toBe(true);
    expect(embedder.status()).toMatchObject({ notes: 3, embeddedNotes: 3, sections: 3, waiting: 0, failed: 0, model: "embed-a", running: false });
    expect(embedder.status().bytes).toBeGreaterThan(0);
  });

  it("does not embed unchanged notes again across runs, and only the changed section of a changed note", async () => {
    temp = makeTempVault({
      ...notes,
      "Long.md": `# One\n${"alpha words here ".repeat(20)}\n# Two\n${"beta words there ".repeat(20)}`,
    });
    await makeEmbedder(settingsWith()).start();
    const firstRun = server.inputs().length;
    expect(firstRun).toBe(5);

    await makeEmbedder(settingsWith()).start();
    expect(server.inputs()).toHaveLength(firstRun);

    temp.write("Long.md", `# One\n${"alpha words here ".repeat(20)}\n# Two\n${"gamma words changed ".repeat(20)}`);
    const third = makeEmbedder(settingsWith());
    await third.start();
    const sent = server.inputs().slice(firstRun);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain("gamma");
    expect(third.vectors.sectionCount).toBe(5);
  });

  it("re-embeds everything when the model changes, and stores the new model", async () => {
    temp = makeTempVault(notes);
    await makeEmbedder(settingsWith({ model: "embed-a" })).start();
    await makeEmbedder(settingsWith({ model: "embed-a" })).start();
    expect(server.requests.every((request) => request.model === "embed-a")).toBe(true);
    const before = server.inputs().length;

    const changed = makeEmbedder(settingsWith({ model: "embed-b" }));
    await changed.start();
    const sent = server.requests.filter((request) => request.model === "embed-b").flatMap((request) => request.input);
    expect(sent).toHaveLength(before);
    expect(storedFile().model).toBe("embed-b");
    expect(storedFile().noteCount).toBe(3);
  });

  it("re-embeds every note when the model changes between runs of one embedder, even if a single note changed", async () => {
    temp = makeTempVault(notes);
    const vault = new FsVault(temp.root);
    let settings = settingsWith({ model: "embed-a" });
    const embedder = makeEmbedder(() => settings, { vault });
    await embedder.start();
    settings = settingsWith({ model: "embed-b" });
    await vault.create("Garden/Tulips.md", "# Tulips\nPlant tulip bulbs in autumn.");
    await afterChanges(embedder);
    expect(server.requests.filter((request) => request.model === "embed-b").flatMap((request) => request.input)).toHaveLength(4);
    expect(embedder.status()).toMatchObject({ model: "embed-b", embeddedNotes: 4, notes: 4 });
  });

  it("keeps what was stored when the server fails mid-run, and the next run finishes the rest", async () => {
    temp = makeTempVault({ ...notes, "Garden/Tulips.md": "# Tulips\nPlant tulip bulbs in autumn, pointed end up." });
    const problems: EmbedderProblem[] = [];
    server.failRequest(2, { status: 500, message: "model crashed" });
    server.failRequest(3, { status: 500, message: "model crashed" });
    server.failRequest(4, { status: 500, message: "model crashed" });
    // Read at each progress report: the file grows batch by batch, so a killed run keeps its part.
    const storedAtProgress: number[] = [];
    const onProgress = () => storedAtProgress.push(existsSync(join(pluginDataFolder(temp.root), EMBEDDINGS_FILE)) ? storedFile().noteCount : 0);
    const first = makeEmbedder(settingsWith({ batchSize: 1 }), { onProblem: (problem) => problems.push(problem), onProgress });
    await first.start();
    expect(storedAtProgress.slice(0, 3)).toEqual([0, 1, 2]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ stopped: true, willResume: true });
    expect(problems[0]?.error.message).toContain("model crashed");
    expect(first.status()).toMatchObject({ embeddedNotes: 2, failed: 1, waiting: 1 });
    // What the file holds: the two notes embedded before the failure.
    expect(storedFile().noteCount).toBe(2);
    const firstRequests = server.requests.length;
    expect(firstRequests).toBe(5);

    const second = makeEmbedder(settingsWith({ batchSize: 1 }));
    await second.start();
    expect(server.requests.slice(firstRequests)).toHaveLength(2);
    expect(second.status()).toMatchObject({ embeddedNotes: 4, failed: 0, waiting: 0 });
    expect(storedFile().noteCount).toBe(4);
  });

  it("waits out a rate limit (Retry-After) and resumes without losing the batch", async () => {
    temp = makeTempVault(notes);
    const problems: EmbedderProblem[] = [];
    server.failNext({ status: 429, retryAfter: "0" }, 2);
    const embedder = makeEmbedder(settingsWith({ batchSize: 2 }), { onProblem: (problem) => problems.push(problem) });
    await embedder.start();
    expect(problems).toEqual([]);
    expect(server.requests.map((request) => request.failed)).toEqual([true, true, false, false]);
    expect(embedder.status()).toMatchObject({ embeddedNotes: 3, failed: 0 });
  });

  it("stops on a server it cannot reach, counts its batch failed and plans to resume", async () => {
    temp = makeTempVault(notes);
    const closed = await startEmbeddingServer();
    const unreachableUrl = closed.baseUrl;
    await closed.close();
    const problems: EmbedderProblem[] = [];
    const embedder = makeEmbedder(settingsWith(), {
      createClient: (current) => createEmbeddingClient({ fetch: hostFetch, baseUrl: unreachableUrl, model: current.model }),
      onProblem: (problem) => problems.push(problem),
    });
    await embedder.start();
    expect(problems.map((problem) => [problem.error.kind, problem.stopped, problem.willResume])).toEqual([["unreachable", true, true]]);
    expect(problems[0]?.error.message).toContain(unreachableUrl);
    expect(embedder.status()).toMatchObject({ notes: 3, embeddedNotes: 0, failed: 3, waiting: 0, running: false });
  });

  it("runs again by itself 60 s after a run stopped on a failure that may heal, and embeds what was left", async () => {
    temp = makeTempVault(notes);
    const problems: EmbedderProblem[] = [];
    // Every try of the one batch (three, per quickRetry) is refused: the run stops.
    server.failNext({ status: 503, message: "the model is loading" }, 3);
    const embedder = makeEmbedder(settingsWith(), { onProblem: (problem) => problems.push(problem) });
    await embedder.start();
    expect(problems.map((problem) => [problem.error.kind, problem.stopped, problem.willResume])).toEqual([["server", true, true]]);
    expect(embedder.status()).toMatchObject({ embeddedNotes: 0, failed: 3 });
    const firstRun = server.requests.length;

    time.advance(59_999);
    await embedder.idle();
    expect(server.requests).toHaveLength(firstRun);

    time.advance(1);
    await embedder.idle();
    const secondRun = server.requests.slice(firstRun);
    expect(secondRun.map((request) => request.failed)).toEqual([false]);
    expect(secondRun.flatMap((request) => request.input).sort()).toEqual(server.requests[0]?.input.sort());
    expect(embedder.status()).toMatchObject({ embeddedNotes: 3, failed: 0, waiting: 0, running: false });
    expect(storedFile().noteCount).toBe(3);
  });

  it("stops the run on a server that accepts and never answers, after the idle limit, and tries again 60 s later", async () => {
    temp = makeTempVault(notes);
    const problems: EmbedderProblem[] = [];
    server.stall();
    const embedder = makeEmbedder(settingsWith({ batchSize: 1 }), {
      createClient: (current) => createEmbeddingClient({ fetch: hostFetch, baseUrl: server.baseUrl, model: current.model, scheduler: time }),
      onProblem: (problem) => problems.push(problem),
    });
    const run = embedder.start();
    await server.arrived(1);
    time.advance(120_000);
    await run;
    // One batch waited out; the two behind it were not sent to wait as long.
    expect(server.requests).toHaveLength(1);
    expect(problems.map((problem) => [problem.error.kind, problem.stopped, problem.willResume])).toEqual([["timeout", true, true]]);
    expect(embedder.status()).toMatchObject({ embeddedNotes: 0, failed: 1, running: false });

    server.reset();
    time.advance(60_000);
    await embedder.idle();
    expect(server.requests).toHaveLength(3);
    expect(embedder.status()).toMatchObject({ embeddedNotes: 3, failed: 0, waiting: 0 });
  });

  it("refuses a vector beyond float32 or all zero: that note fails with a problem naming it, the others are stored, and the next run retries it", async () => {
    temp = makeTempVault({
      "Зоопарк/Зебра 🦓.md": "# Зебра\nzebramarker полоски",
      "مطبخ/صفر.md": "# صفر\nzeromarker لا شيء",
      "Garden/Roses.md": notes["Garden/Roses.md"],
    });
    const padded = (...values: number[]) => [...values, ...new Array<number>(256 - values.length).fill(0)];
    server.answerVectors((text) => (text.includes("zebramarker") ? padded(1e39, 1) : text.includes("zeromarker") ? padded() : undefined));
    const problems: EmbedderProblem[] = [];
    const first = makeEmbedder(settingsWith(), { onProblem: (problem) => problems.push(problem) });
    await first.start();
    expect(server.requests).toHaveLength(1);
    expect(problems.map((problem) => [problem.error.kind, problem.stopped, problem.willResume])).toEqual([
      ["bad-response", false, false],
      ["bad-response", false, false],
    ]);
    const messages = problems.map((problem) => problem.error.message).sort();
    expect(messages[0]).toBe('The embeddings server sent a vector for "Зоопарк/Зебра 🦓.md" that cannot be used (a value beyond the float32 range (1e+39)); the note counts as failed and is tried again on the next run.');
    expect(messages[1]).toBe('The embeddings server sent a vector for "مطبخ/صفر.md" that cannot be used (all its values are zero); the note counts as failed and is tried again on the next run.');
    expect(first.status()).toMatchObject({ embeddedNotes: 1, failed: 2, waiting: 0 });
    expect(storedFile().paths()).toEqual(["Garden/Roses.md"]);

    server.answerVectors(null);
    const second = makeEmbedder(settingsWith());
    await second.start();
    expect(server.requests.slice(1).flatMap((request) => request.input).map((text) => /zebramarker|zeromarker/.exec(text)?.[0]).sort()).toEqual(["zebramarker", "zeromarker"]);
    expect(second.status()).toMatchObject({ embeddedNotes: 3, failed: 0 });
    expect(storedFile().paths().sort()).toEqual(["Garden/Roses.md", "Зоопарк/Зебра 🦓.md", "مطبخ/صفر.md"].sort());
  });

  it("stops at dispose, keeping what was embedded before it", async () => {
    temp = makeTempVault(notes);
    let calls = 0;
    let disposed: Promise<void> | undefined;
    const embedder: Embedder = makeEmbedder(settingsWith({ batchSize: 1 }), {
      saveIntervalMs: 60_000,
      createClient: (current) => {
        const client = createEmbeddingClient({ fetch: hostFetch, baseUrl: server.baseUrl, model: current.model });
        return {
          model: client.model,
          embed: (texts, signal) => {
            if (++calls === 2) disposed = embedder.dispose();
            return client.embed(texts, signal);
          },
        };
      },
    });
    await embedder.start();
    await disposed;
    expect(server.requests.length).toBeLessThanOrEqual(2);
    expect(storedFile().noteCount).toBe(1);
    expect(embedder.status().running).toBe(false);
  });

  it("never sends an excluded note's text, nor one outside the include-only folders", async () => {
    temp = makeTempVault({
      "Work/Plan.md": "# Plan\nworkmarker quarterly goals",
      "Work/Private/Salary.md": "# Salary\nsalarymarker figures",
      "Work/Draft.secret.md": "# Draft\nsecretmarker text",
      "Home/Diary.md": "# Diary\ndiarymarker thoughts",
    });
    const settings = settingsWith({ includeFolders: ["Work"], excludedFolders: ["Work/Private"], excludedPatterns: ["*.secret.md"] });
    const embedder = makeEmbedder(settings);
    await embedder.start();
    // Changes to excluded notes, made while the embedder follows the vault, are not sent either.
    const vault = new FsVault(temp.root);
    const followed = makeEmbedder(settings, { vault });
    await followed.start();
    await vault.create("Home/Later.md", "# Later\nlatermarker");
    await vault.create("Work/Private/More.md", "# More\nmoremarker");
    await vault.create("Work/New.md", "# New\nnewmarker idea");
    await afterChanges(followed);
    const sent = server.inputs().join("\n");
    for (const marker of ["salarymarker", "secretmarker", "diarymarker", "latermarker", "moremarker"]) expect(sent).not.toContain(marker);
    expect(sent).toContain("workmarker");
    expect(sent).toContain("newmarker");
    expect(embedder.vectors.paths()).toEqual(["Work/Plan.md"]);
    expect(followed.status().notes).toBe(2);
  });

  it("does not keep the vectors of a note deleted while its batch was on the way", async () => {
    temp = makeTempVault(notes);
    const vault = new FsVault(temp.root);
    const embedder = makeEmbedder(settingsWith({ batchSize: 1 }), {
      vault,
      createClient: (current) => {
        const client = createEmbeddingClient({ fetch: hostFetch, baseUrl: server.baseUrl, model: current.model });
        return {
          model: client.model,
          embed: async (texts, signal) => {
            if (texts.some((text) => text.includes("Prune"))) await vault.trash("Garden/Roses.md");
            return client.embed(texts, signal);
          },
        };
      },
    });
    await embedder.start();
    await embedder.idle();
    expect(embedder.vectors.paths().sort()).toEqual(["Garage/Repairs.md", "Kitchen/Bread.md"]);
    expect(storedFile().has("Garden/Roses.md")).toBe(false);
  });

  it("follows renames and deletions, and does nothing at all while disabled", async () => {
    temp = makeTempVault(notes);
    const vault = new FsVault(temp.root);
    const embedder = makeEmbedder(settingsWith(), { vault });
    await embedder.start();
    const before = server.inputs().length;
    await vault.rename("Kitchen/Bread.md", "Kitchen/Sourdough.md");
    await vault.trash("Garden/Roses.md");
    await afterChanges(embedder);
    expect(embedder.vectors.paths().sort()).toEqual(["Garage/Repairs.md", "Kitchen/Sourdough.md"]);
    expect(server.inputs().length).toBe(before + 1);
    expect(storedFile().paths().sort()).toEqual(["Garage/Repairs.md", "Kitchen/Sourdough.md"]);

    temp = makeTempVault(notes);
    const disabled = makeEmbedder(settingsWith({ enabled: false }));
    await disabled.start();
    expect(server.inputs().length).toBe(before + 1);
    expect(disabled.status()).toMatchObject({ notes: 0, embeddedNotes: 0, running: false });
  });
});

/** Lets the quiet time after the last vault change pass, then waits for the run it starts. */
async function afterChanges(embedder: Embedder): Promise<void> {
  time.advance(2000);
  await embedder.idle();
}
