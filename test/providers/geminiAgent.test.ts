import type { ChainEvent } from "../../src/LLMProviders/chainRunner/ChainEvents";
import { agentOverServer } from "../helpers/agentHarness";
import { startGeminiServer, type GeminiScripted } from "../helpers/geminiServer";
import { eventLog, TEST_API_KEY } from "../helpers/runnerHarness";

const fixture = agentOverServer(
  (script: GeminiScripted[], knownModels?: string[]) => startGeminiServer(script, { knownModels }),
  { preset: "gemini", model: "gemini-test" },
  { "Alpha.md": "Alpha budget: 42,000 euros.\n" },
);
const setUp = fixture.setUp;
const theServer = fixture.server;

describe("the agent over Gemini's generateContent", () => {
  it("streams function calls, answers them by name with their signature, and reports usage", async () => {
    const { run } = await setUp([
      {
        text: "Reading both.",
        functionCalls: [
          { name: "readNote", args: { notePath: "Alpha.md" }, thoughtSignature: "sig-one" },
          { name: "readNote", args: { notePath: "Missing.md" } },
        ],
      },
      { text: "The budget is 42,000 euros.", cachedTokens: 100 },
    ]);
    const log = eventLog();
    const result = await run("What is Alpha's budget?", { onEvent: log.onEvent });
    expect(result).toMatchObject({ status: "completed", text: "The budget is 42,000 euros.", steps: 2 });

    const [first, second] = theServer().requests;
    expect(first!.url).toBe("/v1beta/models/gemini-test:streamGenerateContent?alt=sse");
    expect(first!.headers["x-goog-api-key"]).toBe(TEST_API_KEY);
    expect(first!.body.systemInstruction!.parts[0]!.text).toMatch(/vault/i);
    expect(first!.body.contents.map((content) => content.role)).toEqual(["user"]);
    const declarations = first!.body.tools![0]!.functionDeclarations;
    expect(declarations.find((declaration) => declaration.name === "readNote")).toMatchObject({ parametersJsonSchema: { type: "object" } });
    expect(first!.body.toolConfig).toEqual({ functionCallingConfig: { mode: "AUTO" } });
    expect(first!.body.generationConfig).toMatchObject({ maxOutputTokens: expect.any(Number) as number });

    const [question, model, results] = second!.body.contents;
    expect(question!.role).toBe("user");
    expect(model).toEqual({
      role: "model",
      parts: [
        { text: "Reading both." },
        { functionCall: { name: "readNote", args: { notePath: "Alpha.md" } }, thoughtSignature: "sig-one" },
        { functionCall: { name: "readNote", args: { notePath: "Missing.md" } } },
      ],
    });
    expect(results!.role).toBe("user");
    expect(results!.parts.map((part) => (part.functionResponse as { name: string }).name)).toEqual(["readNote", "readNote"]);
    expect(JSON.stringify(results!.parts[0])).toContain("42,000 euros");
    // The question comes last in the last tool result (CiC order).
    expect(JSON.stringify(results!.parts[1])).toContain("What is Alpha's budget?");

    const ends = log.events.filter((event): event is Extract<ChainEvent, { type: "step-end" }> => event.type === "step-end");
    expect(ends.map((end) => end.finishReason)).toEqual(["tool_calls", "stop"]);
    expect(ends[1]!.usage).toMatchObject({ cacheReadTokens: 100, cacheWriteTokens: 0 });
    expect(ends[1]!.usage!.inputTokens).toBe(Math.ceil(second!.rawBody.length / 4));
  });

  it("sends the server's own call ids back with the results", async () => {
    const { run } = await setUp([{ functionCalls: [{ id: "fc-77", name: "readNote", args: { notePath: "Alpha.md" } }] }, { text: "Done." }]);
    await run("Budget?");
    const [, model, results] = theServer().requests[1]!.body.contents;
    expect(model!.parts[0]).toEqual({ functionCall: { name: "readNote", args: { notePath: "Alpha.md" }, id: "fc-77" } });
    expect(results!.parts[0]).toMatchObject({ functionResponse: { name: "readNote", id: "fc-77" } });
  });

  it("switches function calling off for the last answer at the step limit", async () => {
    const { run } = await setUp([{ functionCalls: [{ name: "readNote", args: { notePath: "Alpha.md" } }] }, { text: "Out of steps." }], {
      settings: { autonomousAgentMaxIterations: 1 },
    });
    const result = await run("Budget?");
    expect(result).toMatchObject({ status: "completed", stopReason: "iteration-limit" });
    expect(theServer().requests[1]!.body.toolConfig).toEqual({ functionCallingConfig: { mode: "NONE" } });
  });
});

describe("Gemini failures", () => {
  it("reads a key refused with 400 as a refused key, and names an unknown model", async () => {
    let agentSetup = await setUp([
      { status: 400, statusText: "INVALID_ARGUMENT", message: "API key not valid. Please pass a valid API key.", details: [{ reason: "API_KEY_INVALID" }] },
    ]);
    let result = await agentSetup.run("Hi");
    expect(result).toMatchObject({ status: "failed", error: { kind: "authentication" } });
    expect(result.error?.message).toMatch(/Google Gemini \(.*\) refused the API key \(HTTP 401: API key not valid/);

    agentSetup = await setUp([{ text: "never" }], {}, ["gemini-other"]);
    result = await agentSetup.run("Hi");
    expect(result).toMatchObject({ status: "failed", error: { kind: "model-not-found" } });
    expect(result.error?.message).toMatch(/has no model "gemini-test"/);
  });

  it("waits the RetryInfo delay of a 429, retries an overloaded stream, and answers", async () => {
    const { run } = await setUp([
      { status: 429, statusText: "RESOURCE_EXHAUSTED", message: "Quota exceeded", details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "0s" }] },
      { text: "never shown", errorAfterChunks: 0 },
      { text: "Here after all." },
    ]);
    const log = eventLog();
    const result = await run("Hi", { onEvent: log.onEvent });
    expect(result).toMatchObject({ status: "completed", text: "Here after all." });
    const retries = log.events.filter((event): event is Extract<ChainEvent, { type: "retry" }> => event.type === "retry");
    expect(retries.map((retry) => [retry.delayMs, retry.message])).toEqual([
      [0, expect.stringMatching(/rate-limiting requests \(HTTP 429: Quota exceeded\)/)],
      [expect.any(Number), expect.stringMatching(/HTTP 503: The model is overloaded/)],
    ]);
  });

  it("keeps the part of a cut stream, and stops at once when aborted", async () => {
    let agentSetup = await setUp([{ text: "The first half and the second half.", cutAfterEvents: 3 }]);
    let result = await agentSetup.run("Hi");
    expect(result).toMatchObject({ status: "failed", error: { kind: "interrupted" }, text: "The first ha" });

    const controller = new AbortController();
    agentSetup = await setUp([{ text: "Never ending", holdOpen: true }]);
    result = await agentSetup.run("Hi", { signal: controller.signal, onEvent: (event) => event.type === "text-delta" && controller.abort() });
    expect(result).toMatchObject({ status: "aborted" });
  });

  it("reports a stream that ends without a finish reason as cut", async () => {
    const { run } = await setUp([{ text: "No end in sight", finishReason: "" }]);
    const result = await run("Hi");
    expect(result).toMatchObject({ status: "failed", error: { kind: "interrupted" }, text: "No end in sight" });
  });
});
