import { chmodSync, chownSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempVault, type TempVault } from "../../../test/helpers/tempVault";
import { INDEX_FILE_NAME } from "../../search/indexStore";
import { pluginDataFolder } from "../../vault/fsDataStore";
import { runCli } from "../../../test/helpers/runCli";

const run = (argv: string[]) => runCli(argv);

describe("vault-copilot search", () => {
  let folder: TempVault;
  beforeEach(() => {
    folder = makeTempVault({
      "Comets.md": "# Comets\nComets have tails of gas and dust.",
      "Planets/Mars.md": "Mars has two moons. A comet passed near it.",
      "Cooking.md": "Onion soup recipe.",
    });
  });
  afterEach(() => folder.remove());
  const indexFile = () => join(pluginDataFolder(folder.root), INDEX_FILE_NAME);

  it("prints the best notes for a query, score first", async () => {
    const { status, stdout, stderr } = await run(["search", "--vault", folder.root, "comet", "tails"]);
    expect({ status, stderr }).toEqual({ status: 0, stderr: "" });
    const lines = stdout.split("\n").filter((line) => /^\d/.test(line));
    expect(lines.map((line) => line.split(/\s+/)[1])).toEqual(["Comets.md", "Planets/Mars.md"]);
  });

  it("finds a note by an emoji in it, written with or without its presentation selector", async () => {
    folder.write("Праздник.md", "Мы отметили 🎉 запуск и ❤️ команду.");
    folder.write("Книги/読書.md", "#📚 今年読んだ本");
    const hits = async (query: string): Promise<string[]> => {
      const { results } = JSON.parse((await run(["search", "--vault", folder.root, "--json", query])).stdout) as { results: Array<{ path: string }> };
      return results.map((hit) => hit.path);
    };
    expect(await hits("🎉")).toEqual(["Праздник.md"]);
    expect(await hits("❤")).toEqual(["Праздник.md"]);
    expect(await hits("📚")).toEqual(["Книги/読書.md"]);
  });

  it("prints one JSON object with --json, passages included", async () => {
    const { status, stdout } = await run(["search", "--vault", folder.root, "--json", "--limit", "1", "comets"]);
    expect(status).toBe(0);
    const parsed = JSON.parse(stdout);
    expect(parsed.query).toBe("comets");
    expect(parsed.results).toEqual([
      { path: "Comets.md", title: "Comets", score: expect.any(Number), heading: "Comets", content: "Comets have tails of gas and dust." },
    ]);
  });

  it("answers a --queries file with one JSON line per query, in order", async () => {
    const queries = join(folder.root, "queries.jsonl");
    writeFileSync(queries, ['{"_id":"q1","text":"moons of mars"}', "", '{"_id": 7, "text": "onion soup"}', '{"_id":"q3","text":"zeppelin"}'].join("\n"));
    const { status, stdout } = await run(["search", "--vault", folder.root, "--queries", queries, "--limit", "5"]);
    expect(status).toBe(0);
    const lines = stdout.trim().split("\n").map((line) => JSON.parse(line) as { id: string; results: { path: string; score: number }[] });
    expect(lines.map((line) => line.id)).toEqual(["q1", "7", "q3"]);
    expect(lines[0]?.results[0]).toEqual({ path: "Planets/Mars.md", score: expect.any(Number) });
    expect(lines[1]?.results.map((hit) => hit.path)).toEqual(["Cooking.md"]);
    expect(lines[2]?.results).toEqual([]);
  });

  it("keeps the index in the plugin folder and reuses it on the next run", async () => {
    const first = await run(["search", "--vault", folder.root, "--json", "comet"]);
    const written = statSync(indexFile()).mtimeMs;
    const second = await run(["search", "--vault", folder.root, "--json", "comet"]);
    expect(second.stdout).toBe(first.stdout);
    // Nothing changed, so nothing was indexed and the file was not written again.
    expect(statSync(indexFile()).mtimeMs).toBe(written);

    writeFileSync(join(folder.root, "Cooking.md"), "A comet-shaped cake.");
    utimesSync(join(folder.root, "Cooking.md"), new Date(), new Date(Date.now() + 5_000));
    const third = await run(["search", "--vault", folder.root, "--json", "cake"]);
    expect(JSON.parse(third.stdout).results.map((hit: { path: string }) => hit.path)).toEqual(["Cooking.md"]);
    expect(statSync(indexFile()).mtimeMs).not.toBe(written);
  });

  it("honours the exclusions in the plugin's settings", async () => {
    folder.write(".obsidian/plugins/vault-copilot/data.json", JSON.stringify({ settingsVersion: 2, search: { excludedFolders: ["Planets"], excludedPatterns: [], maxResults: 10 } }));
    const { stdout } = await run(["search", "--vault", folder.root, "--json", "comet"]);
    expect(JSON.parse(stdout).results.map((hit: { path: string }) => hit.path)).toEqual(["Comets.md"]);
  });

  it("prints each problem of a hand-edited data.json on stderr, one English line each, and searches with the defaults", async () => {
    const server = { name: "поиск-笔记", enabled: true, transport: "stdio", command: "npx", args: [], env: {} };
    folder.write(".obsidian/plugins/vault-copilot/data.json", JSON.stringify({ settingsVersion: 2, search: "🔍 كل شيء", mcpServers: [server, server] }));
    const { status, stdout, stderr } = await run(["search", "--vault", folder.root, "--json", "comet"]);
    expect(stderr).toBe(
      'vault-copilot: Two MCP servers were named "поиск-笔记"; the second was dropped.\n' +
        'vault-copilot: Setting "search" was not an object; its defaults were used.\n' +
        'vault-copilot: Setting "mcpServers": 1 unreadable item(s) were dropped.\n',
    );
    expect(status).toBe(0);
    expect(JSON.parse(stdout).results.map((hit: { path: string }) => hit.path)).toEqual(["Comets.md", "Planets/Mars.md"]);
  });

  it.each([
    [["search", "comet"], "--vault is required"],
    [["search", "--vault", "x"], "needs a QUERY"],
    [["search", "--vault", "x", "--queries", "q.jsonl", "comet"], "not both"],
    [["search", "--vault", "x", "--limit", "0", "comet"], "--limit"],
    [["search", "--vault", "x", "--color", "comet"], "unknown option --color"],
  ])("exits 2 with the usage for %j", async (argv, message) => {
    const { status, stderr } = await run(argv.map((arg) => (arg === "x" ? folder.root : arg)));
    expect(status).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr).toContain("usage: vault-copilot search");
  });

  it("exits 1 with one line when the vault folder does not exist", async () => {
    const { status, stderr } = await run(["search", "--vault", join(folder.root, "missing"), "comet"]);
    expect(status).toBe(1);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toContain("no folder at --vault");
  });

  it("skips a note whose name holds a line break or an escape character, says so once, and serves the rest", async () => {
    folder.write("Line\nbreak comet.md", "A comet in a badly named note.");
    folder.write("Esc\u001b[31m comet.md", "Another comet.");
    const { status, stdout, stderr } = await run(["search", "--vault", folder.root, "--json", "comet"]);
    expect(status).toBe(0);
    expect(JSON.parse(stdout).results.map((hit: { path: string }) => hit.path)).toEqual(["Comets.md", "Planets/Mars.md"]);
    const lines = stderr.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines.join("\n")).toContain("Line\\nbreak comet.md");
    expect(lines.join("\n")).toContain("Esc\\u001b[31m comet.md");
    // Escaped: no raw escape character reaches the terminal.
    expect(stderr).not.toContain("\u001b");
  });

  it("finds notes with decomposed (NFD) names, and reports them under their names as on disk", async () => {
    const decomposed = "Re\u0301sume\u0301s/Cafe\u0301 comet.md";
    folder.write(decomposed, "A comet over the cafe.");
    const { status, stdout, stderr } = await run(["search", "--vault", folder.root, "--json", "cafe"]);
    expect({ status, stderr }).toEqual({ status: 0, stderr: "" });
    const hits = JSON.parse(stdout).results as { path: string; content: string }[];
    expect(hits.map((hit) => hit.path)).toEqual([decomposed]);
    expect(hits[0]?.content).toBe("A comet over the cafe.");
  });

  it("skips a folder it may not read, says so, and serves the rest", async () => {
    folder.write("Locked/Secret comet.md", "A comet behind a locked door.");
    chmodSync(join(folder.root, "Locked"), 0o000);
    // Root reads any folder: the test takes an ordinary user's rights for the run (and back after).
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      await run(["search", "--vault", folder.root, "comet"]); // loads every module while we may
      chownTree(folder.root, 65534);
      process.seteuid?.(65534);
    }
    let result: Awaited<ReturnType<typeof run>>;
    try {
      result = await run(["search", "--vault", folder.root, "--json", "comet"]);
    } finally {
      if (asRoot) process.seteuid?.(0);
      chmodSync(join(folder.root, "Locked"), 0o755);
    }
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout).results.map((hit: { path: string }) => hit.path)).toEqual(["Comets.md", "Planets/Mars.md"]);
    expect(result.stderr).toContain('"Locked"');
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });
});

function chownTree(path: string, uid: number): void {
  chownSync(path, uid, uid);
  if (!statSync(path).isDirectory()) return;
  for (const name of readdirSync(path)) chownTree(join(path, name), uid);
}
