import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { buildCliBundle } from "../../../test/helpers/cliBundle";
import { runCli } from "../../../test/helpers/runCli";
import { CLI_REFUSAL_REASON } from "./agentCommand";
import { EVERYTHING_SERVER } from "../../../test/helpers/mcpServers";
import { startOpenAIServer, type OpenAIServer, type Script } from "../../../test/helpers/openAIServer";
import { makeTempVault, type TempVault } from "../../../test/helpers/tempVault";
import { isRunning, writeScriptedMcpServer } from "../../../test/helpers/scriptedMcpServer";

jest.setTimeout(60_000);

let server: OpenAIServer | undefined;
let vault: TempVault;

beforeEach(() => {
  vault = makeTempVault({ "Projects/Alpha plan.md": "# Alpha plan\n\nThe Alpha budget is 42,000 euros.\n", "Soup.md": "Onions.\n" });
});
afterEach(async () => {
  vault.remove();
  await server?.close();
  server = undefined;
});

const cli = (argv: string[], env: Record<string, string> = {}) => runCli(argv, env);

async function agent(script: Script, flags: string[], prompt = "Do it", env: Record<string, string> = {}) {
  server = await startOpenAIServer(script);
  return cli(["agent", "--vault", vault.root, "--base-url", server.baseUrl, "--model", "test-model", ...flags, prompt], env);
}

function requests(): OpenAIServer["requests"] {
  if (!server) throw new Error("no server");
  return server.requests;
}

const writeCall = { name: "writeToFile", arguments: JSON.stringify({ path: "Notes/New.md", content: "# New\n" }) };

describe("vault-copilot chat", () => {
  it("streams the answer to stdout with the key from --api-key-env", async () => {
    server = await startOpenAIServer([{ text: "Hello from chat." }]);
    const { status, stdout, stderr } = await cli(
      ["chat", "--vault", vault.root, "--base-url", server.baseUrl, "--model", "test-model", "--api-key-env", "MY_KEY", "Say", "hello"],
      { MY_KEY: "sk-env-key" },
    );
    expect({ status, stderr }).toEqual({ status: 0, stderr: "" });
    expect(stdout).toBe("Hello from chat.\n");
    expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-env-key");
    expect(server.requests[0]?.body.tools).toBeUndefined();
    expect(server.requests[0]?.body.messages.at(-1)?.content).toBe("[User query]: Say hello");
  });

  it("exits 2 with the usage for missing flags, a missing prompt or an unset key variable", async () => {
    const cases = [
      ["chat", "--vault", vault.root, "--model", "m", "hi"],
      ["chat", "--vault", vault.root, "--base-url", "http://127.0.0.1:1/v1", "--model", "m"],
      ["chat", "--vault", vault.root, "--base-url", "ftp://x", "--model", "m", "hi"],
      ["chat", "--vault", vault.root, "--base-url", "http://127.0.0.1:1/v1", "--model", "m", "--api-key-env", "UNSET_VAR", "hi"],
    ];
    for (const argv of cases) {
      const { status, stderr } = await cli(argv);
      expect(status).toBe(2);
      expect(stderr).toMatch(/^vault-copilot: .+\nusage: vault-copilot/);
    }
  });

  it("exits 1 with one line when the folder is missing or the model fails", async () => {
    const missing = await cli(["chat", "--vault", join(vault.root, "nope"), "--base-url", "http://127.0.0.1:1/v1", "--model", "m", "hi"]);
    expect(missing).toMatchObject({ status: 1, stderr: `vault-copilot: no folder at --vault "${join(vault.root, "nope")}"\n` });
    server = await startOpenAIServer([{ status: 401, message: "Invalid key" }]);
    const refused = await cli(["chat", "--vault", vault.root, "--base-url", server.baseUrl, "--model", "m", "hi"]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^vault-copilot: the model server \(http:\/\/127\.0\.0\.1:\d+\/v1\) refused the API key \(HTTP 401: Invalid key\)\. Check the API key in the settings\.\n$/);
  });
});

describe("what the CLI prints never holds a secret, a URL password, a path outside the vault or a raw escape", () => {
  const KEY = "sk-planted-0123456789abcdef";
  const ESC = "\u001b";

  it("redacts the key from --api-key-env when the server's error echoes it, on stderr and in --json", async () => {
    server = await startOpenAIServer((request) => ({ status: 401, message: `Incorrect API key provided: ${String(request.headers.authorization).replace("Bearer ", "")}` }));
    for (const command of ["chat", "agent"]) {
      const plain = await cli(["chat", "--vault", vault.root, "--base-url", server.baseUrl, "--model", "m", "--api-key-env", "MY_KEY", "hi"], { MY_KEY: KEY });
      const json = await cli([command, "--vault", vault.root, "--base-url", server.baseUrl, "--model", "m", "--api-key-env", "MY_KEY", "--json", "hi"], { MY_KEY: KEY });
      for (const run of [plain, json]) {
        expect(run.status).toBe(1);
        expect(run.stdout + run.stderr).not.toContain(KEY);
      }
      expect(plain.stderr).toContain("Incorrect API key provided: [redacted]");
      expect(json.stdout).toContain("Incorrect API key provided: [redacted]");
    }
  });

  it("redacts the values an MCP config file gives (env, headers) when a server echoes them", async () => {
    const planted = "planted-mcp-token-0123456789";
    const config = vault.write("mcp.json", JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_SERVER, "stdio"], env: { PLANTED_TOKEN: planted } } } }));
    const script: Script = (request) =>
      request.index === 0 ? { toolCalls: [{ name: request.body.tools?.find((tool) => tool.function.name.endsWith("get-env"))?.function.name ?? "none", arguments: "{}" }] } : { text: "Done." };
    const { status, stdout, stderr } = await agent(script, ["--mcp-config", config, "--yes", "--json"]);
    expect(status).toBe(0);
    // The tool did run and echo it (the model gets what the tool returns); the terminal does not.
    expect(JSON.stringify(requests()[1]?.body.messages)).toContain(planted);
    expect(stdout).toContain("PLANTED_TOKEN");
    expect(stdout + stderr).not.toContain(planted);
  });

  it("hides a base-URL password and absolute paths outside the vault, keeping the vault's and the user's own", async () => {
    const outside = "/home/someone/.cache/models/weights.bin";
    const failed = await cli(["chat", "--vault", vault.root, "--base-url", "http://user:hunter2@127.0.0.1:1/v1", "--model", "m", "hi"]);
    expect(failed.status).toBe(1);
    expect(failed.stderr).not.toContain("hunter2");
    server = await startOpenAIServer([{ status: 400, message: `cannot open ${outside} nor ${vault.root}/Soup.md` }]);
    const { stderr } = await cli(["chat", "--vault", vault.root, "--base-url", server.baseUrl, "--model", "m", "hi"]);
    expect(stderr).not.toContain("/home/someone");
    expect(stderr).toContain("weights.bin");
    expect(stderr).toContain(`${vault.root}/Soup.md`);
  });

  it("strips terminal escape sequences from answers and tool lines in plain mode, keeping newlines and tabs", async () => {
    vault.write("Trap.md", `Title${ESC}]0;pwned${ESC}\\ and ${ESC}[2J cleared\u009b31m\u0007\r`);
    const script = [
      { toolCalls: [{ name: "readNote", arguments: JSON.stringify({ notePath: `Trap${ESC}[31m` }) }] },
      { text: `Red ${ESC}[31mtext${ESC}[0m\tand a bell\u0007\nnext line` },
    ];
    const plain = await agent(script, []);
    expect(plain.status).toBe(0);
    expect(plain.stdout).toBe("Red text\tand a bell\nnext line\n");
    const controls = [...plain.stderr].filter((character) => {
      const code = character.charCodeAt(0);
      return (code < 0x20 && character !== "\n" && character !== "\t") || (code >= 0x7f && code <= 0x9f);
    });
    expect(controls).toEqual([]);
    await server?.close();
    const json = await agent(script, ["--json"]);
    // JSON escapes control characters itself: the events keep the model's exact text.
    const final = json.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; text?: string })
      .find((event) => event.type === "final");
    expect(final?.text).toBe(script[1]?.text);
  });
});

describe("vault-copilot agent", () => {
  it("reads a note with the built-in tools over the folder and prints the answer, tool lines on stderr", async () => {
    const { status, stdout, stderr } = await agent(
      [{ toolCalls: [{ name: "readNote", arguments: JSON.stringify({ notePath: "Alpha plan" }) }] }, { text: "42,000 euros [[Alpha plan]]." }],
      [],
      "What is the Alpha budget?",
    );
    expect(status).toBe(0);
    expect(stdout).toBe("42,000 euros [[Alpha plan]].\n");
    expect(stderr).toMatch(/^→ readNote \{"notePath":"Alpha plan"\}\n← readNote ok \(\d+ ms\)\n$/);
    expect(JSON.stringify(requests()[1]?.body.messages.at(-1))).toContain("42,000 euros");
  });

  it("refuses edits without --yes, telling the model to ask for --yes, and leaves the folder alone", async () => {
    const { status, stdout } = await agent([{ toolCalls: [writeCall] }, { text: "I could not write it." }], ["--json"]);
    expect(status).toBe(0);
    expect(existsSync(join(vault.root, "Notes/New.md"))).toBe(false);
    const end = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; resultText?: string; status?: string })
      .find((event) => event.type === "tool-call-end");
    // A refused edit is an answer the model can act on, not a failed call.
    expect(end?.status).toBe("ok");
    expect(end?.resultText).toContain(CLI_REFUSAL_REASON);
    expect(end?.resultText).toContain("Nothing was written");
  });

  it("applies edits with --yes", async () => {
    const { status } = await agent([{ toolCalls: [writeCall] }, { text: "Written." }], ["--yes"]);
    expect(status).toBe(0);
    expect(readFileSync(join(vault.root, "Notes/New.md"), "utf8")).toBe("# New\n");
  });

  it("prints one JSON event per line with --json", async () => {
    const { status, stdout } = await agent(
      [{ text: "Checking.", toolCalls: [{ name: "getCurrentTime", arguments: "{}" }] }, { text: "Done." }],
      ["--json"],
    );
    expect(status).toBe(0);
    const events = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string });
    const types = events.map((event) => event.type);
    expect(types.filter((type) => type !== "text-delta")).toEqual(["step-end", "tool-call-start", "tool-call-end", "step-end", "final"]);
    expect(types[0]).toBe("text-delta");
    expect(events.at(-1)).toMatchObject({ type: "final", text: "Done.", stopReason: "answer", steps: 2 });
  });

  it("binds exactly the tools given with --tools, plus the always-enabled ones", async () => {
    const { status } = await agent([{ text: "ok" }], ["--tools", "readNote,getFileTree"]);
    expect(status).toBe(0);
    expect(requests()[0]?.body.tools?.map((tool) => tool.function.name)).toEqual([
      "getCurrentTime",
      "getTimeRangeMs",
      "getTimeInfoByEpoch",
      "convertTimeBetweenTimezones",
      "readNote",
      "getFileTree",
    ]);
  });

  it("exits 2 for an unknown tool id or a bad --max-iterations", async () => {
    const unknown = await agent([{ text: "unused" }], ["--tools", "readNote,readNotes"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/--tools: no tool with id "readNotes" \(known: .*readNote/);
    for (const value of ["0", "x", "51"]) expect((await cli(["agent", "--vault", vault.root, "--base-url", "http://127.0.0.1:1/v1", "--model", "m", "--max-iterations", value, "go"])).status).toBe(2);
  });

  it("stops after --max-iterations steps and answers without tools", async () => {
    const { status, stdout } = await agent(
      (request) => (request.body.tool_choice === "none" ? { text: "Stopped." } : { toolCalls: [{ name: "getCurrentTime", arguments: "{}" }] }),
      ["--max-iterations", "2"],
    );
    expect(status).toBe(0);
    expect(stdout).toBe("Stopped.\n");
    expect(requests()).toHaveLength(3);
  });

  it("searches the notes with localSearch, keeping the index in the vault's plugin folder", async () => {
    const search = { name: "localSearch", arguments: JSON.stringify({ query: "Alpha budget", salientTerms: ["Alpha", "budget"] }) };
    const { status } = await agent([{ toolCalls: [search] }, { text: "42,000 euros." }], ["--tools", "localSearch"]);
    expect(status).toBe(0);
    const result = JSON.stringify(requests()[1]?.body.messages.at(-1)?.content);
    expect(result).toContain('path=\\"Projects/Alpha plan.md\\"');
    expect(existsSync(join(vault.root, ".obsidian/plugins/vault-copilot"))).toBe(true);
  });

  it("honours the vault's settings as search does: the exclusions, then the flags over them", async () => {
    vault.write(
      ".obsidian/plugins/vault-copilot/data.json",
      JSON.stringify({ settingsVersion: 2, search: { excludedFolders: ["Projects"], excludedPatterns: [], maxResults: 10 }, systemPrompt: "Answer in French." }),
    );
    const search = { name: "localSearch", arguments: JSON.stringify({ query: "Alpha budget", salientTerms: ["Alpha", "budget"] }) };
    const { status } = await agent([{ toolCalls: [search] }, { text: "Rien." }], ["--tools", "localSearch"]);
    expect(status).toBe(0);
    expect(JSON.stringify(requests()[0]?.body.messages[0]?.content)).toContain("Answer in French.");
    expect(requests()[0]?.body.model).toBe("test-model");
    expect(JSON.stringify(requests()[1]?.body.messages.at(-1)?.content)).not.toContain("Alpha plan");
    // search, sharing the index file, agrees.
    const searched = await cli(["search", "--vault", vault.root, "--json", "Alpha budget"]);
    expect(JSON.parse(searched.stdout).results).toEqual([]);
  });

  it("stops at once on Ctrl-C while an MCP server is starting, and ends the server", async () => {
    const pidFile = join(vault.root, "silent.pid");
    const config = vault.write("silent.json", JSON.stringify({ mcpServers: { silent: writeScriptedMcpServer(vault.root, "silent-list", pidFile) } }));
    server = await startOpenAIServer([]);
    const controller = new AbortController();
    const running = runCli(["agent", "--vault", vault.root, "--base-url", server.baseUrl, "--model", "m", "--mcp-config", config, "hi"], {}, controller.signal);
    while (!existsSync(pidFile) || readFileSync(pidFile, "utf8") === "") await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort(new Error("interrupted"));
    const { status, stderr } = await running;
    expect({ status, stderr }).toEqual({ status: 1, stderr: "vault-copilot: interrupted\n" });
    expect(isRunning(Number(readFileSync(pidFile, "utf8")))).toBe(false);
    expect(server.requests).toHaveLength(0);
  });

  it("adds the tools of the MCP servers in --mcp-config and calls them", async () => {
    const config = vault.write("mcp.json", JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_SERVER, "stdio"] } } }));
    const echo = { name: "everything_echo", arguments: JSON.stringify({ message: "ping from the agent" }) };
    const { status, stderr } = await agent(
      (request) => (request.index === 0 ? { toolCalls: [{ ...echo, name: request.body.tools?.find((tool) => tool.function.name.endsWith("echo"))?.function.name ?? "none" }] } : { text: "Echoed." }),
      ["--mcp-config", config, "--yes"],
    );
    expect(status).toBe(0);
    expect(stderr).toMatch(/← everything_echo ok/);
    const toolMessage = requests()[1]?.body.messages.find((message) => message.role === "tool");
    expect(JSON.stringify(toolMessage?.content)).toContain("ping from the agent");
  });
});

describe("the built CLI bundle", () => {
  let bundle: string;
  let bundleFolder: TempVault;
  afterAll(() => bundleFolder.remove());
  beforeAll(async () => {
    bundleFolder = makeTempVault({}, "vault-copilot-cli-bundle-");
    bundle = await buildCliBundle(bundleFolder.root);
  });

  it("runs `agent` as a process and exits 0 with the answer", async () => {
    server = await startOpenAIServer([{ toolCalls: [{ name: "getFileTree", arguments: "{}" }] }, { text: "Two notes." }]);
    const { spawn } = await import("node:child_process");
    const child = spawn(process.execPath, [bundle, "agent", "--vault", vault.root, "--base-url", server.baseUrl, "--model", "test-model", "How many notes?"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect({ code, stdout }).toEqual({ code: 0, stdout: "Two notes.\n" });
    expect(stderr).toMatch(/^→ getFileTree \{\}\n← getFileTree ok/);
    expect(JSON.stringify(server.requests[1]?.body.messages.at(-1)?.content)).toContain("Alpha plan.md");
  });

  it("exits 2 with the usage line for bad arguments", async () => {
    const { spawnSync } = await import("node:child_process");
    const result = spawnSync(process.execPath, [bundle, "agent", "--vault", vault.root], { encoding: "utf8" });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^vault-copilot: .*\nusage: vault-copilot/);
  });
});
