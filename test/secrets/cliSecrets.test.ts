import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startOpenAIServer, type OpenAIServer, type ScriptedResponse } from "../helpers/openAIServer";
import { runCli } from "../helpers/runCli";
import { makeTempVault, type TempVault } from "../helpers/tempVault";
import { keyRunsLeft, leakedShapes } from "./leakedRuns";

/**
 * A key planted with --api-key-env and echoed back by the model server (in an error, in an
 * answer, in tool-call arguments) never appears on stdout, on stderr, in the --json events, in
 * data.json or in the search index files the run writes into the vault's plugin folder.
 */

jest.setTimeout(60_000);

const KEY = "sk-planted-cli-4b7e19d2c0aa";
const PLUGIN_FOLDER = ".obsidian/plugins/vault-copilot";

let vault: TempVault;
let server: OpenAIServer | undefined;
beforeEach(() => {
  vault = makeTempVault({ "Alpha.md": "# Alpha\nThe Alpha budget is 42,000 euros.\n" });
});
afterEach(async () => {
  vault.remove();
  await server?.close();
  server = undefined;
});

/** Every file under the plugin folder, as text. */
function pluginFiles(): Record<string, string> {
  const folder = join(vault.root, PLUGIN_FOLDER);
  if (!existsSync(folder)) return {};
  const files: Record<string, string> = {};
  const walk = (relative: string) => {
    for (const entry of readdirSync(join(folder, relative), { withFileTypes: true })) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path);
      else files[path] = readFileSync(join(folder, path), "latin1");
    }
  };
  walk("");
  return files;
}

const echoingModel = (): ScriptedResponse[] => [
  {
    text: `I was given ${KEY}. `,
    toolCalls: [
      { name: "localSearch", arguments: JSON.stringify({ query: `Alpha ${KEY}`, salientTerms: ["Alpha", KEY] }) },
      { name: "writeToFile", arguments: JSON.stringify({ path: "Leak.md", content: KEY }) },
    ],
  },
  { text: `The key is ${KEY}.` },
];

const agentArgs = (extra: string[]) => [
  "agent",
  "--vault",
  vault.root,
  "--base-url",
  server?.baseUrl ?? "",
  "--model",
  "m",
  "--api-key-env",
  "PLANTED_KEY",
  "--tools",
  "localSearch,writeToFile",
  ...extra,
  "What is the Alpha budget?",
];

describe("a key planted with --api-key-env", () => {
  it.each([["plain", []], ["--json", ["--json"]]])("never shows in %s output when the model echoes it in answers and tool arguments", async (_mode, flags) => {
    server = await startOpenAIServer(echoingModel());
    const run = await runCli(agentArgs(flags), { PLANTED_KEY: KEY });
    expect(run.status).toBe(0);
    // The key did reach the output path: redacted where it would have shown.
    expect(run.stdout + run.stderr).toContain("[redacted]");
    expect(run.stdout + run.stderr).not.toContain(KEY);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("never shows when the server echoes it in an error, for chat and agent, plain and --json", async () => {
    server = await startOpenAIServer(() => ({ status: 400, message: `upstream rejected key ${KEY}` }));
    for (const command of ["chat", "agent"]) {
      for (const flags of [[], ["--json"]]) {
        const run = await runCli([command, "--vault", vault.root, "--base-url", server.baseUrl, "--model", "m", "--api-key-env", "PLANTED_KEY", ...flags, "hi"], { PLANTED_KEY: KEY });
        expect(run.status).toBe(1);
        expect(run.stdout + run.stderr).toContain("upstream rejected key [redacted]");
        expect(run.stdout + run.stderr).not.toContain(KEY);
      }
    }
  });

  // Known gap (reported): each --json event is redacted on its own, so a key the stream cuts
  // between two text-delta events comes back whole when a script joins the deltas.
  it("never comes back whole from the --json text-delta events joined", async () => {
    server = await startOpenAIServer(echoingModel());
    const run = await runCli(agentArgs(["--json"]), { PLANTED_KEY: KEY });
    const deltas = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; text?: string })
      .filter((event) => event.type === "text-delta")
      .map((event) => event.text ?? "");
    expect(deltas.join("")).toContain("The key is");
    expect(deltas.join("")).not.toContain(KEY);
  });

  it("is written to no file: not data.json, not the search index, not a note", async () => {
    server = await startOpenAIServer(echoingModel());
    const run = await runCli(agentArgs(["--json"]), { PLANTED_KEY: KEY });
    expect(run.status).toBe(0);
    const files = pluginFiles();
    // The search ran and kept its index here, so the check looks at real files.
    expect(Object.keys(files).length).toBeGreaterThan(0);
    for (const [path, text] of Object.entries(files)) expect(`${path}: ${text.includes(KEY)}`).toBe(`${path}: false`);
    expect(existsSync(join(vault.root, "Leak.md"))).toBe(false);
  });

  it("is never written into a saved chat, though the model echoes it in its answer and its tool calls", async () => {
    server = await startOpenAIServer(echoingModel());
    const run = await runCli(agentArgs(["--save"]), { PLANTED_KEY: KEY });
    expect(run.status).toBe(0);
    const folder = join(vault.root, "copilot/chats");
    const notes = readdirSync(folder);
    expect(notes).toHaveLength(1);
    const note = readFileSync(join(folder, notes[0] ?? ""), "utf8");
    // The chat is there, tool call and answer, with the key's place marked.
    expect(note).toContain("> [!tool]- localSearch");
    expect(note).toContain("The key is [redacted].");
    expect(note.includes(KEY)).toBe(false);
  });

  it("never shows cut short, re-cased, base64- or percent-encoded, in plain or --json output or in a saved chat", async () => {
    const shapes = leakedShapes(KEY).join(" · ");
    const echoingShapes = (): ScriptedResponse[] => [
      { text: `Ключ: ${shapes}. `, toolCalls: [{ name: "localSearch", arguments: JSON.stringify({ query: shapes, salientTerms: leakedShapes(KEY) }) }] },
      { text: `キー: ${shapes}.` },
    ];
    for (const flags of [[], ["--json"], ["--save"]]) {
      await server?.close();
      server = await startOpenAIServer(echoingShapes());
      const run = await runCli(agentArgs(flags), { PLANTED_KEY: KEY });
      expect(run.status).toBe(0);
      expect(run.stdout + run.stderr).toContain("[redacted]");
      expect(keyRunsLeft(run.stdout + run.stderr, KEY)).toEqual([]);
    }
    const folder = join(vault.root, "copilot/chats");
    const [note] = readdirSync(folder);
    const saved = readFileSync(join(folder, note ?? ""), "utf8");
    expect(saved).toContain("Ключ: [redacted]");
    expect(keyRunsLeft(saved, KEY)).toEqual([]);
  });
});
