import { ContextManager } from "../../context/ContextManager";
import type { ChainEvent } from "./ChainEvents";
import { makeAgent, testTool, type AgentSetup } from "../../../test/helpers/agentHarness";
import { startOpenAIServer, type OpenAIServer, type Script } from "../../../test/helpers/openAIServer";
import { eventLog } from "../../../test/helpers/runnerHarness";

let server: OpenAIServer | undefined;
let agent: AgentSetup | undefined;

async function setUp(script: Script, options: Parameters<typeof makeAgent>[1] = {}): Promise<AgentSetup> {
  server = await startOpenAIServer(script);
  agent = makeAgent(server, { notes: { "Alpha.md": "Alpha budget: 42,000 euros.\n" }, ...options });
  return agent;
}

afterEach(async () => {
  agent?.vault.remove();
  agent = undefined;
  await server?.close();
  server = undefined;
});

function theServer(): OpenAIServer {
  if (!server) throw new Error("no server");
  return server;
}

function errorEvent(events: ChainEvent[]): Extract<ChainEvent, { type: "error" }> | undefined {
  return events.find((event): event is Extract<ChainEvent, { type: "error" }> => event.type === "error");
}

describe("the agent when things go wrong", () => {
  it("retries after 429 and answers, telling the view about the retry", async () => {
    const { run } = await setUp([{ status: 429, message: "Rate limit reached", headers: { "retry-after": "0" } }, { text: "Answer after the wait." }]);
    const log = eventLog();
    const result = await run("Hello?", { onEvent: log.onEvent });
    expect(result).toMatchObject({ status: "completed", text: "Answer after the wait." });
    expect(theServer().requests).toHaveLength(2);
    expect(theServer().requests[1]?.rawBody).toBe(theServer().requests[0]?.rawBody);
    expect(log.events.find((event) => event.type === "retry")).toMatchObject({ step: 1, attempt: 2, delayMs: 0 });
  });

  it("retries server errors with backoff and gives up with a clear error after the last try", async () => {
    const { run } = await setUp([{ status: 500 }, { status: 502 }, { status: 503, message: "overloaded" }]);
    const log = eventLog();
    const result = await run("Hello?", { onEvent: log.onEvent });
    expect(theServer().requests).toHaveLength(3);
    expect(result.status).toBe("failed");
    expect(result.error?.kind).toBe("server");
    expect(result.error?.message).toMatch(/failed to answer \(HTTP 503: overloaded\)/);
    expect(log.events.filter((event) => event.type === "retry")).toHaveLength(2);
  });

  it("does not retry a refused API key and says to check it", async () => {
    const { run } = await setUp([{ status: 401, message: "Incorrect API key provided" }, { text: "never sent" }]);
    const log = eventLog();
    const result = await run("Hello?", { onEvent: log.onEvent });
    expect(theServer().requests).toHaveLength(1);
    expect(result).toMatchObject({ status: "failed", error: { kind: "authentication" } });
    expect(result.error?.message).toMatch(/refused the API key \(HTTP 401: Incorrect API key provided\)\. Check the API key/);
    expect(errorEvent(log.events)).toMatchObject({ kind: "authentication", partialText: "" });
  });

  it("names the model when the server does not know it", async () => {
    server = await startOpenAIServer([{ text: "unused" }], { knownModels: ["llama3"] });
    agent = makeAgent(server);
    const result = await agent.run("Hello?");
    expect(result.error?.kind).toBe("model-not-found");
    expect(result.error?.message).toContain('has no model "test-model"');
  });

  it("keeps the partial text of a stream cut off mid-answer and reports the lost connection", async () => {
    const { run } = await setUp([{ text: "The budget is forty-two thousand euros.", chunkSize: 5, cutAfterChunks: 4 }, { text: "not asked for" }]);
    const log = eventLog();
    const result = await run("Budget?", { onEvent: log.onEvent });
    expect(result.status).toBe("failed");
    expect(result.text).toBe("The budget is f");
    expect(log.streamedText()).toBe("The budget is f");
    expect(result.error?.kind).toBe("interrupted");
    expect(result.error?.message).toMatch(/connection to .* was lost in the middle of the answer/);
    expect(errorEvent(log.events)?.partialText).toBe("The budget is f");
    // Half an answer is never asked for again behind the user's back.
    expect(theServer().requests).toHaveLength(1);
  });

  it("stops the model stream when aborted mid-answer and closes the connection", async () => {
    const controller = new AbortController();
    const { run } = await setUp([{ text: "A long answer that never finishes", chunkSize: 6, holdOpen: true }]);
    const log = eventLog();
    const result = await run("Go", {
      signal: controller.signal,
      onEvent: (event) => {
        log.onEvent(event);
        if (event.type === "text-delta") controller.abort(new Error("user pressed stop"));
      },
    });
    expect(result).toMatchObject({ status: "aborted", error: { kind: "aborted" } });
    expect(result.text.length).toBeGreaterThan(0);
    await theServer().requests[0]?.closed;
    expect(log.events.some((event) => event.type === "final")).toBe(false);
  });

  it("stops a running tool when aborted mid-tool and sends nothing more to the model", async () => {
    const controller = new AbortController();
    let toolSawAbort = false;
    const slow = testTool("slowLookup", (_args, { signal }) => {
      return new Promise<string>((_, reject) => {
        signal.addEventListener("abort", () => {
          toolSawAbort = true;
          reject(new Error("stopped"));
        });
        // The user presses stop while the tool is busy.
        setImmediate(() => controller.abort(new Error("user pressed stop")));
      });
    });
    const { run, conversation } = await setUp([{ toolCalls: [{ name: "slowLookup", arguments: '{"value":"x"}' }] }, { text: "never asked" }], {
      extraTools: [slow],
      settings: { autonomousAgentEnabledToolIds: ["slowLookup"] },
    });
    const log = eventLog();
    const result = await run("Look it up", { signal: controller.signal, onEvent: log.onEvent });
    expect(result.status).toBe("aborted");
    expect(toolSawAbort).toBe(true);
    expect(log.events.find((event) => event.type === "tool-call-end")).toMatchObject({ toolName: "slowLookup", status: "aborted" });
    expect(theServer().requests).toHaveLength(1);
    // An aborted turn is not recorded in the conversation.
    expect(conversation.getTurns()).toHaveLength(0);
  });

  it("says when the model server cannot be reached", async () => {
    const closed = await startOpenAIServer([]);
    const deadUrl = closed.baseUrl;
    await closed.close();
    server = await startOpenAIServer([]);
    agent = makeAgent(server);
    agent.settings.provider.baseUrl = deadUrl;
    const result = await agent.runner.run({ userMessage: "hi", conversation: new ContextManager(), signal: new AbortController().signal });
    expect(result.error?.kind).toBe("unreachable");
    expect(result.error?.message).toMatch(/^Cannot reach the model server \(http:\/\/127\.0\.0\.1:\d+\/v1\) \(connection refused\)\. Check the base URL/);
  });
});
