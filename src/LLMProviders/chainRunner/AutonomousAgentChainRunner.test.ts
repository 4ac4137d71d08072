import { getEventListeners } from "node:events";
import { USER_QUERY_LABEL } from "../../context/cicPromptUtils";
import type { ChainEvent } from "./ChainEvents";
import { iterationLimitNotice } from "./AutonomousAgentChainRunner";
import { makeAgent, testTool, type AgentSetup } from "../../../test/helpers/agentHarness";
import { startOpenAIServer, type OpenAIServer, type Script } from "../../../test/helpers/openAIServer";
import { contentText, eventLog } from "../../../test/helpers/runnerHarness";

const NOTES = {
  "Projects/Alpha plan.md": "# Alpha plan\n\nThe Alpha budget is 42,000 euros, approved in March.\n",
  "Daily/2026-12-01.md": "Met Dana about the Alpha launch.\n",
};

let server: OpenAIServer | undefined;
let agent: AgentSetup | undefined;

async function setUp(script: Script, options: Parameters<typeof makeAgent>[1] = {}): Promise<AgentSetup> {
  server = await startOpenAIServer(script);
  agent = makeAgent(server, { notes: NOTES, ...options });
  return agent;
}

afterEach(async () => {
  agent?.vault.remove();
  agent = undefined;
  await server?.close();
  server = undefined;
});

function requests(): NonNullable<OpenAIServer["requests"]> {
  if (!server) throw new Error("no server");
  return server.requests;
}

function ofType<T extends ChainEvent["type"]>(events: ChainEvent[], type: T): Array<Extract<ChainEvent, { type: T }>> {
  return events.filter((event): event is Extract<ChainEvent, { type: T }> => event.type === type);
}

describe("AutonomousAgentChainRunner", () => {
  it("streams a direct answer as text deltas and ends with it as the final event", async () => {
    // The server holds the rest of the answer until the first text reached the runner's events.
    let firstTextSeen = () => {};
    const resumeWhen = new Promise<void>((resolve) => (firstTextSeen = resolve));
    const { run } = await setUp([{ text: "The notes do not mention that.", chunkSize: 3, pauseAfterChunks: 3, resumeWhen }]);
    const log = eventLog();
    const result = await run("What is Beta?", {
      onEvent: (event) => {
        log.onEvent(event);
        if (event.type === "text-delta") firstTextSeen();
      },
    });
    expect(result).toMatchObject({ status: "completed", text: "The notes do not mention that.", stopReason: "answer", steps: 1 });
    expect(ofType(log.events, "text-delta").length).toBeGreaterThan(1);
    expect(ofType(log.events, "text-delta")[0]?.text).toBe("The no");
    expect(log.streamedText()).toBe("The notes do not mention that.");
    expect(log.events.at(-1)).toMatchObject({ type: "final", text: "The notes do not mention that.", steps: 1 });
    expect(requests()[0]?.body.stream).toBe(true);
  });

  it("binds the always-enabled tools and the enabled ids, in registry order, with their guidance in L1", async () => {
    const { run, registry } = await setUp([{ text: "ok" }], { settings: { autonomousAgentEnabledToolIds: ["readNote", "getFileTree", "noSuchTool"] } });
    await run("hi");
    const bound = requests()[0]?.body.tools?.map((tool) => tool.function.name);
    const expected = registry
      .getAllTools()
      .filter((definition) => definition.metadata.isAlwaysEnabled || ["readNote", "getFileTree"].includes(definition.metadata.id))
      .map((definition) => definition.tool.name);
    expect(bound).toEqual(expected);
    expect(bound).toEqual(expect.arrayContaining(["getCurrentTime", "readNote", "getFileTree"]));
    expect(bound).not.toContain("localSearch");
    expect(bound).not.toContain("writeToFile");
    const readNoteSchema = requests()[0]?.body.tools?.find((tool) => tool.function.name === "readNote")?.function.parameters;
    expect(readNoteSchema).toMatchObject({ type: "object", properties: { notePath: { type: "string" } }, required: ["notePath"] });
    const system = contentText(requests()[0]?.body.messages[0]?.content);
    expect(system).toContain("## readNote\nUse readNote to read a note");
    expect(system).not.toContain("## localSearch");
    const guidanceOrder = bound?.filter((name) => system.includes(`## ${name}\n`)) ?? [];
    expect(guidanceOrder.map((name) => system.indexOf(`## ${name}\n`))).toEqual([...guidanceOrder.map((name) => system.indexOf(`## ${name}\n`))].sort((a, b) => a - b));
  });

  it("assembles a tool call split into one-character deltas, runs it and feeds the result back before the question", async () => {
    const args = JSON.stringify({ notePath: "Projects/Alpha plan.md" });
    const { run } = await setUp([
      { text: "Let me read it.", toolCalls: [{ id: "call_read", name: "readNote", arguments: args }], argumentChunkSize: 1 },
      { text: "The Alpha budget is 42,000 euros [[Alpha plan]]." },
    ]);
    const log = eventLog();
    const result = await run("What is the Alpha budget?", { onEvent: log.onEvent });

    expect(result.status).toBe("completed");
    expect(result.text).toBe("The Alpha budget is 42,000 euros [[Alpha plan]].");
    const [start] = ofType(log.events, "tool-call-start");
    expect(start).toMatchObject({ step: 1, toolCallId: "call_read", toolName: "readNote", toolId: "readNote", args: { notePath: "Projects/Alpha plan.md" } });
    const [end] = ofType(log.events, "tool-call-end");
    expect(end).toMatchObject({ toolCallId: "call_read", status: "ok" });
    expect(end?.resultText).toContain("42,000 euros");
    expect(end?.output).toMatchObject({ path: "Projects/Alpha plan.md" });

    const second = requests()[1]?.body.messages ?? [];
    const assistant = second.find((message) => message.role === "assistant");
    expect(assistant?.tool_calls).toEqual([{ id: "call_read", type: "function", function: { name: "readNote", arguments: args } }]);
    const last = second.at(-1);
    expect(last).toMatchObject({ role: "tool", tool_call_id: "call_read" });
    const lastText = contentText(last?.content);
    expect(lastText.endsWith(`${USER_QUERY_LABEL} What is the Alpha budget?`)).toBe(true);
    expect(lastText.indexOf("42,000 euros")).toBeLessThan(lastText.indexOf(USER_QUERY_LABEL));
  });

  it("keeps every request's messages a prefix of the next one's within a turn, and the system prefix across turns", async () => {
    const readAlpha = { name: "readNote", arguments: JSON.stringify({ notePath: "Alpha plan" }) };
    const { run } = await setUp([
      { toolCalls: [readAlpha] },
      { toolCalls: [{ name: "getFileTree", arguments: "{}" }] },
      { text: "First answer." },
      { toolCalls: [readAlpha] },
      { text: "Second answer." },
    ]);
    await run("Summarise Alpha.", { attachments: [{ id: "note:Daily/2026-12-01.md", kind: "note", title: "2026-12-01", content: NOTES["Daily/2026-12-01.md"] }] });
    await run("And the launch?");

    const bodies = requests().map((request) => request.body);
    expect(bodies).toHaveLength(5);
    for (const [earlier, later] of [[0, 1], [1, 2], [3, 4]] as const) {
      const before = JSON.stringify(bodies[earlier]?.messages);
      const after = JSON.stringify(bodies[later]?.messages);
      expect(after.startsWith(before.slice(0, -1))).toBe(true);
      expect(JSON.stringify(bodies[later]?.tools)).toBe(JSON.stringify(bodies[earlier]?.tools));
    }
    const systemOfTurn1 = contentText(bodies[0]?.messages[0]?.content);
    const systemOfTurn2 = contentText(bodies[3]?.messages[0]?.content);
    expect(systemOfTurn2.startsWith(systemOfTurn1)).toBe(true);
    // The note attached in turn 1 has moved into the library (L2) of turn 2's system message.
    expect(systemOfTurn1).not.toContain("Met Dana");
    expect(systemOfTurn2).toContain("Met Dana");
    // History keeps the user's words and the answer, not the attachment.
    expect(bodies[3]?.messages.slice(1, 3).map((message) => [message.role, contentText(message.content)])).toEqual([
      ["user", "Summarise Alpha."],
      ["assistant", "First answer."],
    ]);
  });

  it("runs several tool calls of one step, read-only ones side by side and an editing one alone", async () => {
    const log: string[] = [];
    let releaseBoth: () => void = () => undefined;
    const bothStarted = new Promise<void>((resolve) => (releaseBoth = resolve));
    let started = 0;
    const reader = (name: string) =>
      testTool(name, async () => {
        log.push(`${name} start`);
        if (++started === 2) releaseBoth();
        // Run one after the other, the first read would wait here for ever: give up after a while.
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([bothStarted, new Promise<void>((resolve) => (timer = setTimeout(resolve, 2000)))]);
        clearTimeout(timer);
        log.push(`${name} end`);
        return `${name} done`;
      });
    const writer = testTool(
      "writeThing",
      async () => {
        log.push("writeThing start");
        log.push("writeThing end");
        return "written";
      },
      { isReadOnly: false },
    );
    const { run } = await setUp(
      [
        {
          toolCalls: [
            { id: "a", name: "readOne", arguments: '{"value":"1"}' },
            { id: "b", name: "readTwo", arguments: '{"value":"2"}' },
            { id: "c", name: "writeThing", arguments: '{"value":"3"}' },
          ],
          interleaveToolCalls: true,
          argumentChunkSize: 2,
        },
        { text: "All done." },
      ],
      { extraTools: [reader("readOne"), reader("readTwo"), writer], settings: { autonomousAgentEnabledToolIds: ["readOne", "readTwo", "writeThing"] } },
    );
    const events = eventLog();
    const result = await run("Do the three things.", { onEvent: events.onEvent });

    expect(result.status).toBe("completed");
    // Both reads started before either ended (they could not have, run one after the other).
    expect(log.slice(0, 2).sort()).toEqual(["readOne start", "readTwo start"]);
    expect(log.slice(4)).toEqual(["writeThing start", "writeThing end"]);
    const toolMessages = requests()[1]?.body.messages.filter((message) => message.role === "tool") ?? [];
    expect(toolMessages.map((message) => [message.tool_call_id, contentText(message.content).split("\n")[0]])).toEqual([
      ["a", "readOne done"],
      ["b", "readTwo done"],
      ["c", "written"],
    ]);
    expect(contentText(toolMessages[2]?.content)).toBe(`written\n\n${USER_QUERY_LABEL} Do the three things.`);
    expect(ofType(events.events, "step-end")[0]).toMatchObject({ step: 1, toolCallCount: 3, finishReason: "tool_calls" });
  });

  it("answers malformed JSON arguments with an error result and goes on", async () => {
    const { run } = await setUp([{ toolCalls: [{ id: "bad", name: "readNote", arguments: '{"notePath": "Alpha' }] }, { text: "Sorry, retrying failed." }]);
    const log = eventLog();
    const result = await run("Read Alpha.", { onEvent: log.onEvent });
    expect(result.status).toBe("completed");
    const [start] = ofType(log.events, "tool-call-start");
    expect(start?.args).toBe('{"notePath": "Alpha');
    const [end] = ofType(log.events, "tool-call-end");
    expect(end).toMatchObject({ status: "invalid-arguments" });
    expect(end?.resultText).toMatch(/not valid JSON/);
    const second = requests()[1]?.body.messages ?? [];
    expect(second.find((message) => message.role === "assistant")?.tool_calls).toEqual([
      { id: "bad", type: "function", function: { name: "readNote", arguments: "{}" } },
    ]);
    expect(contentText(second.at(-1)?.content)).toMatch(/^Invalid arguments for tool "readNote": they are not valid JSON/);
  });

  it("names the bad field when the arguments do not fit the schema", async () => {
    const { run } = await setUp([{ toolCalls: [{ name: "readNote", arguments: '{"notePath": 7}' }] }, { text: "ok" }]);
    const log = eventLog();
    await run("Read it.", { onEvent: log.onEvent });
    const [end] = ofType(log.events, "tool-call-end");
    expect(end?.status).toBe("invalid-arguments");
    expect(end?.resultText).toContain("`notePath`");
  });

  it("answers a call of an unknown tool with the list of available tools and goes on", async () => {
    const { run } = await setUp([{ toolCalls: [{ name: "deleteVault", arguments: "{}" }] }, { text: "I cannot do that." }], {
      settings: { autonomousAgentEnabledToolIds: ["readNote"] },
    });
    const log = eventLog();
    const result = await run("Delete everything.", { onEvent: log.onEvent });
    expect(result).toMatchObject({ status: "completed", text: "I cannot do that." });
    const [end] = ofType(log.events, "tool-call-end");
    expect(end).toMatchObject({ toolName: "deleteVault", status: "unknown-tool" });
    expect(end?.toolId).toBeUndefined();
    expect(end?.resultText).toMatch(/Tool "deleteVault" is not available\. Available tools: getCurrentTime, .*readNote/);
    expect(result.toolCalls).toEqual([{ step: 1, toolCallId: "call_0_0", toolName: "deleteVault", status: "unknown-tool" }]);
  });

  it("stops a model that never stops calling tools at the step limit and streams a final answer without tools", async () => {
    const { run } = await setUp(
      (request) =>
        request.body.tool_choice === "none"
          ? { text: "Here is what I found so far." }
          : { toolCalls: [{ name: "getCurrentTime", arguments: "{}" }] },
      { settings: { autonomousAgentMaxIterations: 3 } },
    );
    const log = eventLog();
    const result = await run("Keep going.", { onEvent: log.onEvent });
    expect(result).toMatchObject({ status: "completed", stopReason: "iteration-limit", text: "Here is what I found so far.", steps: 4 });
    expect(requests()).toHaveLength(4);
    expect(requests().slice(0, 3).map((request) => request.body.tool_choice)).toEqual([undefined, undefined, undefined]);
    const last = requests()[3]?.body;
    expect(last?.tool_choice).toBe("none");
    expect(last?.tools?.length).toBe(requests()[0]?.body.tools?.length);
    expect(contentText(last?.messages.at(-1)?.content)).toBe(`${iterationLimitNotice(3)}\n\n${USER_QUERY_LABEL} Keep going.`);
    expect(ofType(log.events, "tool-call-end")).toHaveLength(3);
    expect(log.events.at(-1)).toMatchObject({ type: "final", stopReason: "iteration-limit" });
  });

  it("records the last payload with its layers marked and the API key redacted", async () => {
    const { run, recorder } = await setUp([{ toolCalls: [{ name: "readNote", arguments: JSON.stringify({ notePath: "Alpha plan" }) }] }, { text: "done" }], {
      settings: { systemPrompt: "My key is sk-test-0123456789abcdef, never say it." },
    });
    await run("Read Alpha.");
    const payload = recorder.getLast();
    expect(payload).toMatchObject({ runner: "agent", model: "test-model", step: 2 });
    const layers = payload?.messages.flatMap((message) => message.segments.map((segment) => `${message.role}:${segment.layer}`));
    expect(layers).toEqual(["system:L1", "user:L5", "assistant:L3", "tool:L3", "tool:L5"]);
    const all = JSON.stringify(payload);
    expect(all).not.toContain("sk-test-0123456789abcdef");
    expect(all).toContain("My key is [redacted]");
  });

  it("leaves no abort listeners behind on the run's signal from step to step", async () => {
    const { run } = await setUp((request) =>
      request.body.messages.filter((message) => message.role === "assistant").length < 6
        ? { toolCalls: [{ name: "getCurrentTime", arguments: "{}" }] }
        : { text: "done" },
    );
    const controller = new AbortController();
    const counts: number[] = [];
    const result = await run("Loop a while.", {
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === "step-end") counts.push(getEventListeners(controller.signal, "abort").length);
      },
    });
    expect(result.steps).toBe(7);
    expect(new Set(counts).size).toBe(1);
  });
});
