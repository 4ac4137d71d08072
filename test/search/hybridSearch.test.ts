/**
 * Search by meaning as well as by words, end to end through the CLI with a scripted embeddings
 * server whose vectors put chosen synonyms together: a note is found by a word it never uses only
 * with embeddings on; exact titles still come first; a second run sends only what changed; the
 * excluded folders' text never reaches the server.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startEmbeddingServer, type EmbeddingServer } from "../helpers/embeddingServer";
import { runCli } from "../helpers/runCli";
import { makeTempVault, type TempVault } from "../helpers/tempVault";

const NOTES: Record<string, string> = {
  "Garage/Car repairs.md": "# Car repairs\n\nThe car needs new brakes and an oil change before winter.\n",
  "Garden/Tomatoes.md": "# Tomatoes\n\nTomatoes need compost and deep watering.\n",
  "Money/Budget.md": "# Budget\n\nRent, invoices and savings for the year.\n",
  "Private/Diary.md": "# Diary\n\nSecret thoughts about the automobile show.\n",
  "Automobile.md": "# Automobile\n\nA short note titled with the word.\n",
};

let vault: TempVault;
let server: EmbeddingServer;
beforeEach(async () => {
  vault = makeTempVault(NOTES);
  // Keep the diary out of search (and so out of the embeddings): the plugin's settings in the vault.
  mkdirSync(join(vault.root, ".obsidian", "plugins", "vault-copilot"), { recursive: true });
  writeFileSync(join(vault.root, ".obsidian", "plugins", "vault-copilot", "data.json"), JSON.stringify({ settingsVersion: 2, search: { excludedFolders: ["Private"], excludedPatterns: [], maxResults: 10 } }));
  server = await startEmbeddingServer({ synonyms: { automobile: "car", vehicle: "car", motor: "car" } });
});
afterEach(async () => {
  await server.close();
  vault.remove();
});

async function search(query: string, embeddings: boolean): Promise<string[]> {
  const flags = embeddings ? ["--embedding-base-url", server.baseUrl, "--embedding-model", "test-embed"] : [];
  const result = await runCli(["search", "--vault", vault.root, "--json", "--limit", "3", ...flags, query]);
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
  return (JSON.parse(result.stdout) as { results: Array<{ path: string }> }).results.map((hit) => hit.path);
}

describe("hybrid search", () => {
  it("finds a note by a word it never uses only with embeddings on", async () => {
    expect(await search("vehicle maintenance", false)).toEqual([]);
    expect((await search("vehicle maintenance", true))[0]).toBe("Garage/Car repairs.md");
  });

  it("keeps an exact title first, and words still count", async () => {
    const hits = await search("automobile", true);
    expect(hits[0]).toBe("Automobile.md");
    expect(hits).toContain("Garage/Car repairs.md");
    expect((await search("tomatoes compost", true))[0]).toBe("Garden/Tomatoes.md");
  });

  it("sends only what changed on a second run, and never an excluded note's text", async () => {
    await search("vehicle", true);
    const firstRun = server.inputs().length;
    expect(firstRun).toBeGreaterThan(0);
    expect(server.inputs().some((text) => text.includes("Secret thoughts"))).toBe(false);
    server.reset();
    await search("vehicle", true);
    // The query alone: every note is embedded already.
    expect(server.inputs()).toEqual(["vehicle"]);
    writeFileSync(join(vault.root, "Money", "Budget.md"), "# Budget\n\nRent, invoices, savings and a new motor.\n");
    server.reset();
    expect((await search("vehicle", true))).toContain("Money/Budget.md");
    expect(server.inputs().filter((text) => text !== "vehicle")).toEqual([expect.stringContaining("a new motor")]);
  });

  it("answers by words alone when the embeddings server fails the query", async () => {
    await search("vehicle", true);
    server.failNext({ status: 500 }, 10);
    const result = await runCli(["search", "--vault", vault.root, "--json", "--embedding-base-url", server.baseUrl, "--embedding-model", "test-embed", "tomatoes"]);
    expect(result.status).toBe(0);
    expect((JSON.parse(result.stdout) as { results: Array<{ path: string }> }).results[0]?.path).toBe("Garden/Tomatoes.md");
  });

  it("adds meaning to similar: a note close in meaning with no shared word is listed and says so", async () => {
    const flags = ["--embedding-base-url", server.baseUrl, "--embedding-model", "test-embed"];
    const without = await runCli(["similar", "--vault", vault.root, "--json", "Automobile.md"]);
    const withEmbeddings = await runCli(["similar", "--vault", vault.root, "--json", ...flags, "Automobile.md"]);
    const paths = (stdout: string) => (JSON.parse(stdout) as { similar: Array<{ path: string }> }).similar.map((note) => note.path);
    expect(paths(without.stdout)).not.toContain("Garage/Car repairs.md");
    expect(paths(withEmbeddings.stdout)[0]).toBe("Garage/Car repairs.md");
  });

  it("refuses --embedding-base-url without a model", async () => {
    const result = await runCli(["search", "--vault", vault.root, "--embedding-base-url", server.baseUrl, "x"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--embedding-base-url needs --embedding-model NAME/);
  });
});
