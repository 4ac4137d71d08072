/**
 * `--provider anthropic|gemini` end to end: the CLI's `agent` (in-process, the real command table)
 * over a folder of notes, against the scripted servers of each wire format; usage with the cache
 * counts in the `--json` output.
 */
import { startAnthropicServer, type AnthropicServer } from "../helpers/anthropicServer";
import { startGeminiServer, type GeminiServer } from "../helpers/geminiServer";
import { runCli } from "../helpers/runCli";
import { makeTempVault, type TempVault } from "../helpers/tempVault";

jest.setTimeout(60_000);

let vault: TempVault;
let close: (() => Promise<void>) | undefined;
beforeEach(() => {
  vault = makeTempVault({ "Projects/Plan.md": "# Plan\n\nBudget: 42,000 euros.\n" });
});
afterEach(async () => {
  await close?.();
  close = undefined;
  vault.remove();
});

const KEY_ENV = { PROVIDER_KEY: "provider-key-0123456789" };

function jsonEvents(stdout: string): Array<Record<string, unknown>> {
  return stdout.trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("vault-copilot agent --provider", () => {
  it("anthropic: runs the tool loop over the Messages API and prints usage with cache reads", async () => {
    const server: AnthropicServer = await startAnthropicServer([
      { toolCalls: [{ id: "toolu_1", name: "readNote", arguments: '{"notePath":"Projects/Plan.md"}' }] },
      { text: "The budget is 42,000 euros." },
    ]);
    close = () => server.close();
    const result = await runCli(
      ["agent", "--vault", vault.root, "--provider", "anthropic", "--base-url", server.baseUrl, "--model", "claude-test", "--api-key-env", "PROVIDER_KEY", "--json", "Budget of the plan?"],
      KEY_ENV,
    );
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const events = jsonEvents(result.stdout);
    expect(events.find((event) => event.type === "tool-call-end")).toMatchObject({ toolName: "readNote", status: "ok" });
    const final = events.find((event) => event.type === "final");
    expect(final).toMatchObject({ text: "The budget is 42,000 euros.", steps: 2 });
    const usage = final!.usage as Record<string, number>;
    expect(usage.cacheReadTokens).toBe(server.usages[1]!.cache_read_input_tokens);
    expect(usage.cacheReadTokens).toBeGreaterThan(0);
    expect(usage.cacheWriteTokens).toBe(server.usages[0]!.cache_creation_input_tokens + server.usages[1]!.cache_creation_input_tokens);
    expect(server.requests[0]!.headers["x-api-key"]).toBe(KEY_ENV.PROVIDER_KEY);
    expect(server.requests[1]!.body.messages[2]!.content[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_1" });
  });

  it("gemini: runs the tool loop over generateContent", async () => {
    const server: GeminiServer = await startGeminiServer([{ functionCalls: [{ name: "readNote", args: { notePath: "Projects/Plan.md" } }] }, { text: "42,000 euros." }]);
    close = () => server.close();
    const result = await runCli(
      ["agent", "--vault", vault.root, "--provider", "gemini", "--base-url", server.baseUrl, "--model", "gemini-test", "--api-key-env", "PROVIDER_KEY", "Budget of the plan?"],
      KEY_ENV,
    );
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe("42,000 euros.");
    expect(result.stderr).toMatch(/← readNote ok/);
    expect(JSON.stringify(server.requests[1]!.body.contents[2])).toContain("42,000 euros");
  });

  it("refuses an unknown provider (exit 2) and a provider that needs a key without one (exit 1)", async () => {
    const unknown = await runCli(["chat", "--vault", vault.root, "--provider", "cohere", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "Hi"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/--provider is one of openai, anthropic, gemini, not "cohere"/);
    const keyless = await runCli(["chat", "--vault", vault.root, "--provider", "anthropic", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "Hi"]);
    expect(keyless.status).toBe(1);
    expect(keyless.stderr).toMatch(/No API key for Anthropic/);
  });
});
