/**
 * The built-in tools driven end to end: the CLI's `agent` command (in-process, `main()` with the
 * real command table) over a temporary folder, against the scripted OpenAI-compatible server.
 * What the model is told is read back from the next request the agent sends.
 */
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli/index";
import { CLI_COMMANDS } from "../../src/cli/commands";
import { CLI_REFUSAL_REASON } from "../../src/cli/commands/agentCommand";
import { MODEL_FLAGS, openCliServices, openCliSession } from "../../src/cli/cliRuntime";
import { parseArgs } from "../../src/cli/args";
import { ContextManager } from "../../src/context/ContextManager";
import { refuseAllToolCalls, type ApprovalPort } from "../../src/ports/approval";
import { EditHistory } from "../../src/tools/edit/EditHistory";
import { FsDataStore, pluginDataFolder } from "../../src/vault/fsDataStore";
import { FsVault } from "../../src/vault/FsVault";
import { startOpenAIServer, type OpenAIServer, type ScriptedToolCall } from "../helpers/openAIServer";
import { makeTempVault, type TempVault } from "../helpers/tempVault";

jest.setTimeout(60_000);

const PLAN = "---\ntags: [project]\n---\n# Plan\n\n- [ ] draft\n- [ ] review\n\nBudget: 42,000 euros.\n";
const DAILY = "Worked on [[Plan]] today. #daily\n";

let vault: TempVault;
let server: OpenAIServer | undefined;

beforeEach(() => {
  vault = makeTempVault({ "Projects/Plan.md": PLAN, "Daily/2026-12-01.md": DAILY, "Inbox.md": "inbox\n" });
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  vault.remove();
});

/** Every file of the folder and its text, leaving out the plugin's own data (the edit history). */
function snapshot(root = vault.root): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (relative: string) => {
    for (const entry of readdirSync(join(root, relative), { withFileTypes: true })) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (path === ".obsidian/plugins") continue;
      if (entry.isSymbolicLink()) files[path] = "(symbolic link, not followed)";
      else if (entry.isDirectory()) walk(path);
      else files[path] = readFileSync(join(root, path), "utf8");
    }
  };
  walk("");
  return files;
}

/** One step of tool calls, then a closing answer. */
async function runAgent(toolCalls: ScriptedToolCall[], flags: string[] = []) {
  server = await startOpenAIServer([{ toolCalls }, { text: "Done." }]);
  let stdout = "";
  let stderr = "";
  const io = { stdout: (text: string) => (stdout += text), stderr: (text: string) => (stderr += text), env: {}, signal: new AbortController().signal };
  const status = await main(
    ["agent", "--vault", vault.root, "--base-url", server.baseUrl, "--model", "test-model", "--json", ...flags, "Please do it"],
    io,
    CLI_COMMANDS,
  );
  return { status, stdout, stderr, toolResults: toolResultsSentBack(server) };
}

/** The tool messages of the agent's second request: what the model was told. */
function toolResultsSentBack(openAI: OpenAIServer): string[] {
  const messages = openAI.requests[1]?.body.messages ?? [];
  return messages.filter((message) => message.role === "tool").map((message) => String(message.content));
}

const call = (name: string, args: object, id?: string): ScriptedToolCall => ({ name, arguments: JSON.stringify(args), ...(id ? { id } : {}) });
const historyOf = (root: string) => {
  const fsVault = new FsVault(root);
  return new EditHistory(fsVault, new FsDataStore(pluginDataFolder(root, fsVault.configDir)));
};

describe("agent with the built-in tools", () => {
  it("binds the built-in tools and feeds the read-only results back", async () => {
    const { status, toolResults } = await runAgent([
      call("readNote", { notePath: "[[Plan]]" }, "c1"),
      call("getTagList", {}, "c2"),
      call("getBacklinks", { notePath: "Plan" }, "c3"),
      call("getTimeRangeMs", { timeExpression: "from 2026-03-01 to 2026-03-10" }, "c4"),
    ]);
    expect(status).toBe(0);
    const bound = (server?.requests[0]?.body.tools ?? []).map((tool) => tool.function.name);
    // Web search waits for a search service to be set (none is here).
    expect(bound).toEqual(expect.arrayContaining(["getCurrentTime", "getTimeRangeMs", "readNote", "getFileTree", "getTagList", "writeToFile", "replaceInFile", "pomodoro"]));
    expect(toolResults[0]).toContain("Budget: 42,000 euros.");
    expect(toolResults[1]).toContain("#project: 1 note (1 in frontmatter)");
    expect(toolResults[2]).toContain("Daily/2026-12-01.md (1 link)");
    expect(toolResults[3]).toMatch(/"startTime": \d+/);
  });

  it("writes nothing without --yes and tells the model the edit was refused", async () => {
    const before = snapshot();
    const { status, toolResults } = await runAgent([
      call("writeToFile", { path: "Ideas/New.md", content: "# New\n" }),
      call("replaceInFile", { path: "Projects/Plan.md", oldText: "- [ ] draft", newText: "- [x] draft" }),
    ]);
    expect(status).toBe(0);
    expect(snapshot()).toEqual(before);
    for (const result of toolResults) {
      expect(result).toContain("The user rejected the edit");
      expect(result).toContain(CLI_REFUSAL_REASON);
      expect(result).toContain("Nothing was written.");
    }
  });

  it("with --yes applies exactly the approved edits and changes nothing else", async () => {
    const before = snapshot();
    const { status, toolResults } = await runAgent(
      [
        call("replaceInFile", { path: "Projects/Plan.md", oldText: "- [ ] review", newText: "- [x] review" }),
        call("writeToFile", { path: "Ideas/Deep/New", content: "# New idea\n" }),
      ],
      ["--yes"],
    );
    expect(status).toBe(0);
    expect(snapshot()).toEqual({
      ...before,
      "Projects/Plan.md": PLAN.replace("- [ ] review", "- [x] review"),
      "Ideas/Deep/New.md": "# New idea\n",
    });
    expect(toolResults[0]).toContain('Edited "Projects/Plan.md" (+1 -1 lines)');
    expect(toolResults[1]).toContain('Created "Ideas/Deep/New.md"');
  });

  it("tells the model when oldText is ambiguous or missing, changing nothing", async () => {
    writeFileSync(join(vault.root, "Inbox.md"), "todo\ntodo\n");
    const before = snapshot();
    const { toolResults } = await runAgent(
      [call("replaceInFile", { path: "Inbox.md", oldText: "todo", newText: "done" }), call("replaceInFile", { path: "Inbox.md", oldText: "nothing", newText: "x" })],
      ["--yes"],
    );
    expect(snapshot()).toEqual(before);
    expect(toolResults[0]).toContain("oldText occurs 2 times in \"Inbox.md\" (at lines 1, 2)");
    expect(toolResults[1]).toContain("oldText was not found");
  });

  it("refuses paths that escape the vault or enter the config folder, even with --yes", async () => {
    const outside = mkdtempSync(join(tmpdir(), "outside-"));
    try {
      symlinkSync(outside, join(vault.root, "Link"));
      const before = snapshot();
      const { status, toolResults } = await runAgent(
        [
          call("writeToFile", { path: "../escaped.md", content: "x" }),
          call("writeToFile", { path: ".obsidian/plugins/evil/main.js", content: "x" }),
          call("writeToFile", { path: "Link/escaped.md", content: "x" }),
          call("replaceInFile", { path: "/etc/hosts", oldText: "localhost", newText: "x" }),
          call("readNote", { notePath: "../../etc/passwd" }),
        ],
        ["--yes"],
      );
      expect(status).toBe(0);
      expect(toolResults).toHaveLength(5);
      for (const result of toolResults) expect(result).toMatch(/Refused path/);
      expect(snapshot()).toEqual(before);
      expect(readdirSync(outside)).toEqual([]);
      expect(existsSync(join(vault.root, "..", "escaped.md"))).toBe(false);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("keeps applied edits in the plugin's history, so one undo restores the exact text", async () => {
    await runAgent([call("replaceInFile", { path: "Projects/Plan.md", oldText: "Budget: 42,000 euros.", newText: "Budget: 50,000 euros." })], ["--yes"]);
    expect(readFileSync(join(vault.root, "Projects/Plan.md"), "utf8")).toContain("50,000");
    await server?.close();
    await runAgent([call("writeToFile", { path: "Made.md", content: "made\n" })], ["--yes"]);

    // The command the plugin registers ("Undo the agent's last edit") calls exactly this.
    const history = historyOf(vault.root);
    expect((await history.undoLast()).status).toBe("undone");
    expect(existsSync(join(vault.root, "Made.md"))).toBe(false);
    expect((await history.undoLast()).status).toBe("undone");
    expect(readFileSync(join(vault.root, "Projects/Plan.md"), "utf8")).toBe(PLAN);
    expect((await history.undoLast()).status).toBe("nothing");
  });

  it("serves the rest of the vault when one folder cannot be read and one name holds a line break", async () => {
    writeFileSync(join(vault.root, "Odd\nname.md"), "budget in an odd name\n");
    const locked = join(vault.root, "Locked");
    mkdirSync(locked);
    writeFileSync(join(locked, "Secret.md"), "budget behind a locked door\n");
    chmodSync(locked, 0o000);
    const calls = [call("localSearch", { query: "budget", salientTerms: ["budget"] }, "c1"), call("getFileTree", {}, "c2"), call("readNote", { notePath: "Plan" }, "c3")];
    // Root reads any folder: the run takes an ordinary user's rights (and gives them back after).
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      await runAgent(calls); // loads every module while we may
      await server?.close();
      chownTree(vault.root, 65534);
      process.seteuid?.(65534);
    }
    let outcome: Awaited<ReturnType<typeof runAgent>>;
    try {
      outcome = await runAgent(calls);
    } finally {
      if (asRoot) process.seteuid?.(0);
      chmodSync(locked, 0o755);
    }
    expect(outcome.status).toBe(0);
    expect(outcome.toolResults[0]).toContain('path="Projects/Plan.md"');
    expect(outcome.toolResults[1]).toContain("Plan.md");
    expect(outcome.toolResults[1]).toContain("1 file whose names no tool can open is not shown");
    expect(outcome.toolResults[2]).toContain("Budget: 42,000 euros.");
    expect(outcome.stderr).toContain('Left the folder "Locked" out');
    expect(outcome.stderr).toContain('"Odd\\nname.md"');
  });

  it("does not offer web search to the model until a search service is set, and a call to it anyway is answered as unavailable", async () => {
    const { toolResults } = await runAgent([call("webSearch", { query: "obsidian" })]);
    const offered = (server!.requests[0]?.body.tools ?? []).map((tool) => tool.function.name);
    expect(offered).toContain("localSearch");
    expect(offered).not.toContain("webSearch");
    expect(toolResults[0]).toContain('Tool "webSearch" is not available');
  });
});

describe("a stale preview, through the CLI's own wiring", () => {
  // The CLI approves at once (--yes) or never; here a user edits the note while the diff is shown,
  // with the same session, registry and tools the agent command builds.
  it("makes a fresh proposal and keeps the user's change instead of writing over it", async () => {
    server = await startOpenAIServer([{ toolCalls: [call("replaceInFile", { path: "Projects/Plan.md", oldText: "- [ ] draft", newText: "- [x] draft" })] }, { text: "Done." }]);
    const io = { stdout: () => undefined, stderr: () => undefined, env: {}, signal: new AbortController().signal };
    const args = parseArgs(["--vault", vault.root, "--base-url", server.baseUrl, "--model", "test-model", "go"], { values: [...MODEL_FLAGS] });
    const session = await openCliSession(args, io);
    const seen: (string | null)[] = [];
    const userWhoEditsMeanwhile: ApprovalPort = {
      requestApproval: (proposal) => {
        seen.push(proposal.before);
        if (seen.length === 1) writeFileSync(join(vault.root, "Projects/Plan.md"), `${PLAN}Typed during review.\n`);
        return Promise.resolve({ approved: true });
      },
    };
    const services = openCliServices(session, io, { ...userWhoEditsMeanwhile, ...refuseAllToolCalls("no MCP here") });
    const result = await services.createRunner("agent", "test-model").run({ userMessage: "go", conversation: new ContextManager(), signal: io.signal, onEvent: () => undefined });
    await services.dispose();

    expect(result.status).toBe("completed");
    expect(seen).toEqual([PLAN, `${PLAN}Typed during review.\n`]);
    expect(readFileSync(join(vault.root, "Projects/Plan.md"), "utf8")).toBe(`${PLAN.replace("- [ ] draft", "- [x] draft")}Typed during review.\n`);
    expect(toolResultsSentBack(server)[0]).toContain("a fresh diff was shown");
  });
});

function chownTree(path: string, uid: number): void {
  chownSync(path, uid, uid);
  if (!statSync(path).isDirectory()) return;
  for (const name of readdirSync(path)) chownTree(join(path, name), uid);
}
