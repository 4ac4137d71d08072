/**
 * @jest-environment node
 *
 * `--project NAME` through the CLI: the scope holds for `agent` (the same escape attempts as in
 * the chat), `qa`, `search`, `similar` and `run`'s prompt variables; the note's instructions and
 * model apply, a flag wins over the note; a missing or broken project note ends with exit 1 and
 * one line on stderr.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EVERYTHING_SERVER } from "../helpers/mcpServers";
import { startOpenAIServer, type OpenAIServer } from "../helpers/openAIServer";
import { runCli } from "../helpers/runCli";
import { makeTempVault, type TempVault } from "../helpers/tempVault";
import {
  argumentStrings,
  attemptBatches,
  ESCAPE_ATTEMPTS,
  INSIDE_NOTES,
  leaksIn,
  OUTSIDE_NOTES,
  PROJECT_NAME,
  projectVaultNotes,
  shownToModel,
} from "../helpers/projectVault";

jest.setTimeout(120_000);

let vault: TempVault;
let server: OpenAIServer | undefined;

beforeEach(() => {
  vault = makeTempVault(projectVaultNotes());
});
afterEach(async () => {
  vault.remove();
  await server?.close();
  server = undefined;
});

const model = (name = "test-model") => ["--base-url", server?.baseUrl ?? "", "--model", name];
const insidePaths = new Set(Object.keys(INSIDE_NOTES).map((path) => path.normalize("NFC")));

describe("--project", () => {
  it("agent: no outside text, name or path reaches the model through any of the escape attempts, and nothing outside changes", async () => {
    const batches = attemptBatches(10);
    server = await startOpenAIServer((request) => (request.index < batches.length ? { toolCalls: (batches[request.index] ?? []).map((attempt) => attempt.call) } : { text: "Готово." }));
    const { status, stderr } = await runCli(["agent", "--vault", vault.root, ...model(), "--project", PROJECT_NAME, "--max-iterations", String(batches.length + 1), "--yes", "О методах?"]);
    // stderr follows the tool calls for the user (the attempts included); what is measured is what the model was sent.
    expect({ status, stderr: stderr.split("\n").filter((line) => line !== "" && !/^[→←] /.test(line)) }).toEqual({ status: 0, stderr: [] });
    expect(server.requests).toHaveLength(batches.length + 1);
    const own = ESCAPE_ATTEMPTS.flatMap((attempt) => argumentStrings(attempt.call.arguments));
    expect(server.requests.flatMap((request) => leaksIn(shownToModel(request, own)))).toEqual([]);
    expect(shownToModel(server.requests.at(-1)!, [])).toContain("inscope-linked-c0de");
    for (const [path, text] of Object.entries(OUTSIDE_NOTES)) expect(readFileSync(join(vault.root, path), "utf8")).toBe(text);
  });

  it("qa: the notes handed to the model are the project's only, and its instructions are in L1", async () => {
    server = await startOpenAIServer([{ text: "По [[Глава 1]]." }]);
    const question = "методы выборки дневник оклад secret";
    const { status, stdout } = await runCli(["qa", "--vault", vault.root, ...model(), "--project", PROJECT_NAME, "--json", question]);
    expect(status).toBe(0);
    const sources = stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type: string; results?: { path: string }[] })
      .find((event) => event.type === "sources");
    expect(sources?.results?.length).toBeGreaterThan(0);
    for (const result of sources?.results ?? []) expect(insidePaths.has(result.path.normalize("NFC"))).toBe(true);
    // The question's own words aside (they are the user's), nothing of an outside note is sent.
    expect(leaksIn(shownToModel(server.requests[0]!, [question]))).toEqual([]);
    expect(String(server.requests[0]?.body.messages[0]?.content)).toContain("thesis advisor");
  });

  it("search and search --queries rank the project's notes only; similar relates them only to each other", async () => {
    const one = await runCli(["search", "--vault", vault.root, "--project", PROJECT_NAME, "--json", "методах SECRET оклад 秘密 locked"]);
    expect(one.status).toBe(0);
    const hits = (JSON.parse(one.stdout) as { results: { path: string; content: string }[] }).results;
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) expect(insidePaths.has(hit.path.normalize("NFC"))).toBe(true);
    expect(leaksIn(JSON.stringify(hits).normalize("NFC").toLowerCase())).toEqual([]);

    const queries = join(vault.root, "..", `${vault.root.split("/").pop()}-queries.jsonl`);
    writeFileSync(queries, `${JSON.stringify({ _id: "q1", text: "премия" })}\n${JSON.stringify({ _id: "q2", text: "методах выборки" })}\n`);
    const batch = await runCli(["search", "--vault", vault.root, "--project", PROJECT_NAME, "--queries", queries]);
    expect(batch.status).toBe(0);
    const ranked = batch.stdout.split("\n").filter(Boolean).map((line) => JSON.parse(line) as { id: string; results: { path: string }[] });
    expect(ranked.find((line) => line.id === "q1")?.results).toEqual([]);
    expect(ranked.find((line) => line.id === "q2")?.results.map((result) => result.path)).toContain("Тезис/Глава 1.md");

    const similar = await runCli(["similar", "--vault", vault.root, "--project", PROJECT_NAME, "--json", "Тезис/Глава 1.md"]);
    expect(similar.status).toBe(0);
    const related = (JSON.parse(similar.stdout) as { similar: { path: string }[] }).similar;
    for (const note of related) expect(insidePaths.has(note.path.normalize("NFC")) || note.path === "Тезис/Инструкция.md").toBe(true);
    const outsideNote = await runCli(["similar", "--vault", vault.root, "--project", PROJECT_NAME, "Работа/Зарплата.md"]);
    expect(outsideNote.status).toBe(1);
    expect(outsideNote.stdout).toBe("");
  });

  it("chat: the note's model when --model is left out, and the flag wins when given", async () => {
    vault.write("copilot/projects/Модель.md", "---\nfolders: [Тезис]\nmodel: note-model\n---\nКоротко.\n");
    server = await startOpenAIServer([{ text: "a" }, { text: "b" }]);
    const fromNote = await runCli(["chat", "--vault", vault.root, "--base-url", server.baseUrl, "--project", "модель", "Привет"]);
    expect(fromNote.status).toBe(0);
    expect(server.requests[0]?.body.model).toBe("note-model");
    const fromFlag = await runCli(["chat", "--vault", vault.root, ...model("flag-model"), "--project", "Модель", "Привет"]);
    expect(fromFlag.status).toBe(0);
    expect(server.requests[1]?.body.model).toBe("flag-model");
    expect(String(server.requests[1]?.body.messages[0]?.content)).toContain("Коротко.");
  });

  it.each([
    ["a missing project", "Нет такого", /^vault-copilot: No project named "Нет такого" in the projects folder "copilot\/projects" \(its projects: "Тезис"\)\.\n$/],
    ["a broken project note", "Сломан", /^vault-copilot: The project "copilot\/projects\/Сломан\.md" was not loaded: its mode "talk" is not one of chat, vault-qa, agent\.\n$/],
  ])("%s ends every command with exit 1 and one line on stderr, before the model is asked", async (_case, name, line) => {
    vault.write("copilot/projects/Сломан.md", "---\nfolders: [Тезис]\nmode: talk\n---\n");
    server = await startOpenAIServer([]);
    for (const command of ["chat", "qa", "agent"]) {
      const result = await runCli([command, "--vault", vault.root, ...model(), "--project", name, "Привет"]);
      expect({ command, status: result.status, stdout: result.stdout }).toEqual({ command, status: 1, stdout: "" });
      expect(result.stderr).toMatch(line);
    }
    const search = await runCli(["search", "--vault", vault.root, "--project", name, "методы"]);
    expect(search.status).toBe(1);
    expect(search.stderr).toMatch(line);
    expect(server.requests).toHaveLength(0);
  });

  it("run: a prompt's {{…}} variables attach only the project's notes", async () => {
    vault.write("copilot/prompts/Сводка.md", "Сравни {{[[Дневник 2026]]}}, {{#личное}}, {{Личное/}}, {{#тезис}} и {{Тезис/}}.\n");
    server = await startOpenAIServer([{ text: "ok" }]);
    const result = await runCli(["run", "--vault", vault.root, ...model(), "--project", PROJECT_NAME, "--prompt", "Сводка"]);
    expect(result.status).toBe(0);
    const shown = shownToModel(server.requests[0]!, []);
    expect(shown).toContain("inscope-cyr-4e1d");
    expect(shown).toContain("inscope-tag-9d0f");
    // The variables' own words stay in the question as written; what they would attach from outside is not there.
    for (const secret of ["secret-diary-7f3a", "secret-salary-91c2"]) expect(shown).not.toContain(secret);
  });

  it("agent: MCP tools are off in a project unless its note lists the server, and on when it does", async () => {
    const config = vault.write("mcp.json", JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_SERVER, "stdio"] } } }));
    vault.write("copilot/projects/С MCP.md", "---\nfolders: [Тезис]\nmcp: [everything]\n---\n");
    server = await startOpenAIServer([{ text: "a" }, { text: "b" }, { text: "c" }]);
    const toolNames = (index: number) => (server?.requests[index]?.body.tools ?? []).map((tool) => tool.function.name);
    for (const project of [[], ["--project", PROJECT_NAME], ["--project", "С MCP"]]) {
      const result = await runCli(["agent", "--vault", vault.root, ...model(), "--mcp-config", config, ...project, "Привет"]);
      expect(result.status).toBe(0);
    }
    const mcp = (names: string[]) => names.filter((name) => name.startsWith("everything_"));
    expect(mcp(toolNames(0)).length).toBeGreaterThan(0);
    expect(mcp(toolNames(1))).toEqual([]);
    expect(toolNames(1)).toContain("readNote");
    expect(mcp(toolNames(2))).toEqual(mcp(toolNames(0)));
  });

  it("chat --save keeps the project in the note; --continue goes on in it, and refuses another --project", async () => {
    server = await startOpenAIServer([{ text: "Первый ответ." }, { text: "Второй ответ." }]);
    const saved = await runCli(["chat", "--vault", vault.root, ...model(), "--project", PROJECT_NAME, "--save", "Первый вопрос"]);
    expect(saved.status).toBe(0);
    const path = /saved to (.+)\n/.exec(saved.stderr)?.[1] ?? "";
    expect(readFileSync(join(vault.root, path), "utf8")).toMatch(new RegExp(`^---\\nchat-id: .+\\nmode: chat\\nmodel: test-model\\nproject: ${PROJECT_NAME}\\n`));
    const continued = await runCli(["chat", "--vault", vault.root, ...model(), "--continue", path, "Второй вопрос"]);
    expect(continued.status).toBe(0);
    expect(String(server.requests[1]?.body.messages[0]?.content)).toContain(`# The project "${PROJECT_NAME}"`);
    vault.write("copilot/projects/Другой.md", "---\nfolders: [Люди]\n---\n");
    const other = await runCli(["chat", "--vault", vault.root, ...model(), "--continue", path, "--project", "Другой", "Третий вопрос"]);
    expect({ status: other.status, stderr: other.stderr }).toEqual({ status: 1, stderr: `vault-copilot: --continue: the chat is in the project "${PROJECT_NAME}", not "Другой"; leave out --project to go on with it\n` });
    expect(server.requests).toHaveLength(2);
  });
});
