/**
 * The same model faults as modelFaults.chatView.test.tsx, through the CLI: exit status 1, one clear
 * line on stderr, and what arrived of the answer still printed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../helpers/runCli";
import { startOpenAIServer, type OpenAIServer, type Script } from "../helpers/openAIServer";
import { startGarbledServer, type FaultServer } from "./faultServers";

jest.setTimeout(30_000);

let folder: string;
const servers: Array<OpenAIServer | FaultServer> = [];

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "vault-copilot-faults-"));
});

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  rmSync(folder, { recursive: true, force: true });
});

async function chatWith(server: OpenAIServer | FaultServer, model = "test-model") {
  servers.push(server);
  return runCli(["chat", "--vault", folder, "--base-url", server.baseUrl, "--model", model, "hello"]);
}

const scripted = (script: Script, knownModels?: string[]) => startOpenAIServer(script, knownModels ? { knownModels } : {});

describe("model faults through the CLI", () => {
  it.each([
    ["401", () => scripted([{ status: 401, message: "Incorrect API key provided" }]), /API key/i],
    ["an unknown model", () => scripted([], ["other-model"]), /test-model/],
    ["a storm of 429s", () => scripted(() => ({ status: 429, headers: { "retry-after": "0" } })), /rate|too many|limit/i],
    ["500", () => scripted(() => ({ status: 500, message: "internal error" })), /server|500/i],
  ])("%s: exit 1 with one clear line (after a line per retry, where it retries)", async (_name, start, words) => {
    const result = await chatWith(await start());
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split("\n");
    for (const retry of lines.slice(0, -1)) expect(retry).toMatch(/Trying again in [\d.]+ s \(try \d\)\.$/);
    expect(lines.at(-1)).toMatch(words);
    expect(lines.at(-1)).not.toMatch(/Trying again/);
  });

  it("a cut stream: the part that arrived is printed, then one line says what happened", async () => {
    const result = await chatWith(await scripted([{ text: "The first part of an answer that is cut", chunkSize: 5, cutAfterChunks: 4 }]));
    expect(result.status).toBe(1);
    expect(result.stdout).toContain("The first part");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("garbled server-sent events: the part that arrived is printed, then one line", async () => {
    const result = await chatWith(await startGarbledServer());
    expect(result.status).toBe(1);
    expect(result.stdout).toContain("Partial words");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });
});
