import { ContextManager } from "../../src/context/ContextManager";
import type { ChainEvent } from "../../src/LLMProviders/chainRunner/ChainEvents";
import { agentOverServer, testTool } from "../helpers/agentHarness";
import { startAnthropicServer, type AnthropicScripted } from "../helpers/anthropicServer";
import { eventLog, TEST_API_KEY } from "../helpers/runnerHarness";

const fixture = agentOverServer(
  (script: AnthropicScripted[], knownModels?: string[]) => startAnthropicServer(script, { knownModels }),
  { preset: "anthropic", model: "claude-test" },
  { "Alpha.md": "Alpha budget: 42,000 euros.\n" },
);
const setUp = fixture.setUp;
const theServer = fixture.server;

type Block = Record<string, unknown>;

/** Where the request put its breakpoints: "system" or "<message index>:<block index>". */
function breakpoints(index: number): string[] {
  const body = theServer().requests[index]!.body;
  const found: string[] = [];
  body.system?.forEach((block, at) => block.cache_control && found.push(`system:${at}`));
  body.messages.forEach((message, m) => message.content.forEach((block: Block, b) => block.cache_control && found.push(`${m}:${b}`)));
  return found;
}

const lastBlockOf = (index: number, message: number) => `${message}:${theServer().requests[index]!.body.messages[message]!.content.length - 1}`;

describe("the agent over Anthropic's Messages API", () => {
  it("streams a tool call, answers it by id, and caches each request's prefix for the next", async () => {
    const { run } = await setUp([
      { text: "Let me look.", toolCalls: [{ id: "toolu_a", name: "readNote", arguments: '{"notePath":"Alpha.md"}' }] },
      { text: "The budget is 42,000 euros." },
    ]);
    const log = eventLog();
    const result = await run("What is Alpha's budget?", { onEvent: log.onEvent });
    expect(result).toMatchObject({ status: "completed", text: "The budget is 42,000 euros.", steps: 2 });
    expect(log.streamedText(1)).toBe("Let me look.");

    const [first, second] = theServer().requests;
    expect(first!.headers["x-api-key"]).toBe(TEST_API_KEY);
    expect(first!.headers["anthropic-version"]).toBe("2023-06-01");
    expect(first!.headers.authorization).toBeUndefined();
    expect(first!.body.stream).toBe(true);
    expect(first!.body.model).toBe("claude-test");
    expect(first!.body.tool_choice).toEqual({ type: "auto" });
    const readNote = first!.body.tools!.find((tool) => tool.name === "readNote");
    expect(readNote).toMatchObject({ description: expect.stringContaining("note") as string, input_schema: { type: "object" } });
    expect(first!.body.system![0]!.text).toMatch(/Vault Copilot|vault/i);

    // The tool call goes back as tool_use, its result as a tool_result answering it by id.
    const assistant = second!.body.messages[1]!;
    expect(assistant.role).toBe("assistant");
    expect(assistant.content).toEqual([
      { type: "text", text: "Let me look." },
      { type: "tool_use", id: "toolu_a", name: "readNote", input: { notePath: "Alpha.md" } },
    ]);
    const results = second!.body.messages[2]!;
    expect(results.role).toBe("user");
    expect(results.content[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_a" });
    expect(String(results.content[0]!.content)).toContain("42,000 euros");

    // Breakpoints: after L1+L2, at the end of the request; the second adds the end of the step before.
    expect(breakpoints(0)).toEqual(["system:0", lastBlockOf(0, 0)]);
    expect(breakpoints(1)).toEqual(["system:0", lastBlockOf(1, 0), lastBlockOf(1, 2)]);
    // Same tools, same system, the first request's messages unchanged at the start of the second.
    expect(second!.body.tools).toEqual(first!.body.tools);
    expect(JSON.stringify(second!.body.messages[0]!.content.map((block: Block) => block.text))).toBe(JSON.stringify(first!.body.messages[0]!.content.map((block: Block) => block.text)));

    const [, secondUsage] = theServer().usages;
    expect(secondUsage!.cache_read_input_tokens).toBeGreaterThan(0);
    const final = log.events.find((event): event is Extract<ChainEvent, { type: "final" }> => event.type === "final");
    const reported = theServer().usages;
    expect(final?.usage).toEqual({
      inputTokens: reported.reduce((sum, usage) => sum + usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens, 0),
      outputTokens: reported.reduce((sum, usage) => sum + usage.output_tokens, 0),
      cacheReadTokens: reported.reduce((sum, usage) => sum + usage.cache_read_input_tokens, 0),
      cacheWriteTokens: reported.reduce((sum, usage) => sum + usage.cache_creation_input_tokens, 0),
    });
  });

  it("puts a breakpoint after the conversation so far, and never more than four in a long run", async () => {
    const calls = (n: number) => ({ toolCalls: [{ id: `toolu_${n}`, name: "probe", arguments: `{"value":"${n}"}` }, { id: `toolu_${n}b`, name: "probe", arguments: `{"value":"${n}b"}` }] });
    const probe = testTool("probe", async ({ value }) => `probe ${value} done`);
    const conversation = new ContextManager();
    conversation.recordTurn({ userMessage: "Earlier question", attachments: [], assistantMessage: "Earlier answer" });
    const { run } = await setUp([calls(1), calls(2), calls(3), calls(4), { text: "All probed." }], {
      extraTools: [probe],
      settings: { autonomousAgentEnabledToolIds: ["probe"], autonomousAgentMaxIterations: 10 },
    });
    const result = await run("Probe it all", { conversation });
    expect(result).toMatchObject({ status: "completed", text: "All probed.", steps: 5 });
    const requests = theServer().requests;
    for (const [index] of requests.entries()) {
      const points = breakpoints(index);
      expect(points.length).toBeLessThanOrEqual(4);
      expect(points[0]).toBe("system:0");
      // messages: 0 earlier question, 1 earlier answer, 2 this question, then step pairs.
      expect(points[1]).toBe(lastBlockOf(index, 1));
      expect(points.at(-1)).toBe(lastBlockOf(index, requests[index]!.body.messages.length - 1));
    }
    expect(breakpoints(4)).toEqual(["system:0", "1:0", lastBlockOf(4, 8), lastBlockOf(4, 10)]);
    // From the second request on, the cache serves what the request before it wrote.
    for (const usage of theServer().usages.slice(1)) expect(usage.cache_read_input_tokens).toBeGreaterThan(0);
  });

  it("splits the system prompt at the context library, so a grown library keeps L1 cached", async () => {
    const conversation = new ContextManager();
    const note = { id: "note:Alpha.md", kind: "note" as const, title: "Alpha", source: "Alpha.md", content: "Alpha budget: 42,000 euros." };
    conversation.recordTurn({ userMessage: "Earlier question", attachments: [note], assistantMessage: "Earlier answer" });
    const { run } = await setUp([{ toolCalls: [{ id: "toolu_1", name: "readNote", arguments: '{"notePath":"Alpha.md"}' }] }, { text: "Done." }]);
    await run("Budget?", { conversation });
    const [first, second] = theServer().requests;
    const system = first!.body.system!;
    expect(system).toHaveLength(2);
    expect(system[0]!.text).not.toContain("# Context library");
    expect(system[1]!.text).toMatch(/^\n\n# Context library/);
    expect(system[1]!.text).toContain("42,000 euros");
    // L1, L2, the conversation so far, the request's end: four, so the previous step's end gives way.
    expect(breakpoints(0)).toEqual(["system:0", "system:1", "1:0", lastBlockOf(0, 2)]);
    expect(breakpoints(1)).toEqual(["system:0", "system:1", "1:0", lastBlockOf(1, 4)]);
    expect(second!.body.system!.map((block) => block.text)).toEqual(system.map((block) => block.text));
    expect(theServer().usages[1]!.cache_read_input_tokens).toBeGreaterThan(0);
  });

  it("asks for the last answer with tool_choice none at the step limit", async () => {
    const { run } = await setUp(
      [{ toolCalls: [{ id: "toolu_1", name: "readNote", arguments: '{"notePath":"Alpha.md"}' }] }, { text: "Out of steps: 42,000 euros." }],
      { settings: { autonomousAgentMaxIterations: 1 } },
    );
    const result = await run("Budget?");
    expect(result).toMatchObject({ status: "completed", stopReason: "iteration-limit", text: "Out of steps: 42,000 euros." });
    const last = theServer().requests[1]!.body;
    expect(last.tool_choice).toEqual({ type: "none" });
    expect(last.tools).toEqual(theServer().requests[0]!.body.tools);
    // The limit notice joins the tool results in one user message (the API wants roles to alternate).
    expect(last.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
  });
});

describe("Anthropic failures", () => {
  it("reports a refused key and an unknown model in words", async () => {
    let agentSetup = await setUp([{ status: 401, type: "authentication_error", message: "invalid x-api-key" }]);
    let result = await agentSetup.run("Hi");
    expect(result).toMatchObject({ status: "failed", error: { kind: "authentication" } });
    expect(result.error?.message).toMatch(/Anthropic \(http:\/\/127\.0\.0\.1:\d+\/v1\) refused the API key \(HTTP 401: invalid x-api-key\)/);

    agentSetup = await setUp([{ text: "never" }], {}, ["claude-other"]);
    result = await agentSetup.run("Hi");
    expect(result).toMatchObject({ status: "failed", error: { kind: "model-not-found" } });
    expect(result.error?.message).toMatch(/has no model "claude-test"/);
  });

  it("waits as a 429 asks, retries an overloaded stream, and answers", async () => {
    const { run } = await setUp([
      { status: 429, type: "rate_limit_error", message: "Number of requests has exceeded your rate limit", headers: { "retry-after": "0" } },
      { text: "never shown", errorAfterEvents: 1, errorType: "overloaded_error" },
      { text: "Here after all." },
    ]);
    const log = eventLog();
    const result = await run("Hi", { onEvent: log.onEvent });
    expect(result).toMatchObject({ status: "completed", text: "Here after all." });
    const retries = log.events.filter((event): event is Extract<ChainEvent, { type: "retry" }> => event.type === "retry");
    expect(retries.map((retry) => retry.message)).toEqual([
      expect.stringMatching(/rate-limiting requests \(HTTP 429/),
      expect.stringMatching(/failed to answer \(HTTP 529: Overloaded\)/),
    ]);
    expect(retries[0]!.delayMs).toBe(0);
    expect(log.streamedText()).toBe("Here after all.");
  });

  it("keeps the part of an answer whose stream was cut, and of one that ended in an error event", async () => {
    let agentSetup = await setUp([{ text: "The first half and the second half.", cutAfterEvents: 6 }]);
    let result = await agentSetup.run("Hi");
    expect(result).toMatchObject({ status: "failed", error: { kind: "interrupted" }, text: "The first ha" });

    agentSetup = await setUp([{ text: "Partly there then overloaded.", errorAfterEvents: 6 }]);
    result = await agentSetup.run("Hi");
    expect(result.status).toBe("failed");
    expect(result.text).toBe("Partly there");
    expect(result.error?.message).toMatch(/HTTP 529: Overloaded/);
  });

  it("says so when an event is not JSON, keeping what came before it", async () => {
    const { run } = await setUp([{ text: "Hello there, friend.", garbageAfterEvents: 5 }]);
    const result = await run("Hi");
    expect(result).toMatchObject({ status: "failed", error: { kind: "interrupted" }, text: "Hello th" });
    expect(result.error?.message).toMatch(/sent an event that is not JSON: \{this is not json/);
  });

  it("stops at once when aborted mid-stream", async () => {
    const controller = new AbortController();
    const { run } = await setUp([{ text: "A long answer that never ends", holdOpen: true }]);
    const result = await run("Hi", {
      signal: controller.signal,
      onEvent: (event) => event.type === "text-delta" && controller.abort(),
    });
    expect(result).toMatchObject({ status: "aborted", error: { kind: "aborted" } });
  });
});
