import { readFileSync } from "node:fs";
import { join } from "node:path";
import { contentText } from "../../test/helpers/runnerHarness";
import { makeChat, type ChatSetup } from "../../test/helpers/chatHarness";
import { startOpenAIServer, type OpenAIServer, type Script } from "../../test/helpers/openAIServer";
import { answerText, isAssistant, type AssistantMessage, type ChatState, type ToolCallPart } from "./chatTypes";
import { selectionChip } from "./chipArtifacts";

const lastAnswer = (state: ChatState): AssistantMessage => {
  const answer = state.messages.findLast(isAssistant);
  if (!answer) throw new Error("no answer yet");
  return answer;
};

describe("ChatController over the real runners and a scripted chat-completions server", () => {
  let server: OpenAIServer;
  let chat: ChatSetup;
  const open = async (script: Script, options: Parameters<typeof makeChat>[1] = {}) => {
    server = await startOpenAIServer(script);
    chat = makeChat(server, options);
    return chat;
  };

  afterEach(async () => {
    await chat?.dispose();
    await server?.close();
  });

  it("streams an answer into a new message pair and ends with the usage of the turn", async () => {
    const { controller } = await open([{ text: "Hello **there**, how can I help?", usage: { prompt_tokens: 12, completion_tokens: 7 } }], { settings: { defaultMode: "chat" } });
    await controller.send("  Hi  ");
    const state = controller.getState();
    expect(state.running).toBe(false);
    expect(state.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(state.messages[0]).toMatchObject({ role: "user", text: "Hi" });
    const answer = lastAnswer(state);
    expect(answer).toMatchObject({ status: "done", mode: "chat", model: "test-model", usage: { inputTokens: 12, outputTokens: 7 } });
    expect(answerText(answer)).toBe("Hello **there**, how can I help?");
    expect(state.announcement?.text).toBe("Copilot answered: Hello **there**, how can I help?");
  });

  it("hands streamed text to subscribers once per scheduled flush, not once per token", async () => {
    const pending: Array<() => void> = [];
    const { controller } = await open([{ text: "x".repeat(400), chunkSize: 1 }], {
      settings: { defaultMode: "chat" },
      controller: { scheduleFlush: (flush) => pending.push(flush) },
    });
    let notified = 0;
    controller.subscribe(() => notified++);
    await controller.send("go");
    // 400 deltas arrived; none was scheduled more than once before its flush ran.
    expect(pending.length).toBe(1);
    expect(notified).toBeLessThan(20);
    expect(answerText(lastAnswer(controller.getState()))).toBe("x".repeat(400));
  });

  it("sends the active note and chips in this turn's context, then in the library of the next turn, each note once", async () => {
    const { controller } = await open([{ text: "First." }, { text: "Second." }], {
      settings: { defaultMode: "chat" },
      notes: { "Projects/Alpha.md": "# Alpha\nThe alpha plan.", "Beta.md": "Beta text\nline two\nline three" },
    });
    controller.setActiveNote("Projects/Alpha.md");
    controller.addChip(selectionChip("Beta.md", "line two", 2, 2));
    expect(controller.getState().chips).toHaveLength(1);
    await controller.send("What is in Alpha?");
    expect(controller.getState().chips).toEqual([]);
    const first = server.requests[0]!.body.messages;
    const firstUser = contentText(first.at(-1)!.content);
    expect(firstUser).toContain("The alpha plan.");
    expect(firstUser).toContain("line two");
    expect(firstUser.indexOf("The alpha plan.")).toBeLessThan(firstUser.indexOf("What is in Alpha?"));

    await controller.send("And now?");
    const second = server.requests[1]!.body.messages;
    const system = contentText(second[0]!.content);
    expect(system.split("The alpha plan.").length - 1).toBe(1);
    expect(contentText(second.at(-1)!.content)).not.toContain("The alpha plan.");
    // The earlier turn rides in L4.
    expect(second.map((message) => contentText(message.content))).toEqual(expect.arrayContaining(["What is in Alpha?", "First."]));
  });

  it("leaves the active note out once its chip is removed, and brings it back for the next note opened", async () => {
    const { controller } = await open([{ text: "ok" }], { settings: { defaultMode: "chat" }, notes: { "A.md": "alpha secret", "B.md": "beta" } });
    controller.setActiveNote("A.md");
    controller.includeActiveNote(false);
    await controller.send("hi");
    expect(server.requests[0]!.rawBody).not.toContain("alpha secret");
    controller.setActiveNote("B.md");
    expect(controller.getState().activeNote).toEqual({ path: "B.md", included: true });
  });

  it("Stop keeps what arrived and nothing arrives after", async () => {
    let sent!: () => void;
    const chunksSent = new Promise<void>((resolve) => (sent = resolve));
    const { controller, until } = await open([{ text: "partial answer that stays", holdOpen: true, onChunksSent: () => sent() }], { settings: { defaultMode: "chat" } });
    const done = controller.send("tell me");
    await chunksSent;
    await until((state) => answerText(lastAnswer(state)).length === "partial answer that stays".length);
    expect(controller.getState().running).toBe(true);
    controller.stop();
    await done;
    const stopped = controller.getState();
    expect(stopped.running).toBe(false);
    expect(lastAnswer(stopped)).toMatchObject({ status: "stopped" });
    expect(lastAnswer(stopped).error).toBeUndefined();
    expect(answerText(lastAnswer(stopped))).toBe("partial answer that stays");
    await server.requests[0]!.closed;
    expect(controller.getState()).toBe(stopped);
  });

  it("shows an agent's tool calls as parts between its texts, running and then done", async () => {
    const seen: ToolCallPart["status"][] = [];
    const { controller } = await open(
      [{ text: "Let me look.", toolCalls: [{ name: "readNote", arguments: '{"notePath":"Alpha.md"}' }] }, { text: "Alpha says hello." }],
      { settings: { defaultMode: "agent" }, notes: { "Alpha.md": "hello from alpha" } },
    );
    controller.subscribe(() => {
      const call = controller.getState().messages.findLast(isAssistant)?.parts.find((part): part is ToolCallPart => part.type === "tool-call");
      if (call && seen.at(-1) !== call.status) seen.push(call.status);
    });
    await controller.send("What does Alpha say?");
    const answer = lastAnswer(controller.getState());
    expect(answer.parts.map((part) => part.type)).toEqual(["text", "tool-call", "text"]);
    expect(seen).toEqual(["running", "ok"]);
    const call = answer.parts[1] as ToolCallPart;
    expect(call).toMatchObject({ toolName: "readNote", toolId: "readNote", args: { notePath: "Alpha.md" }, status: "ok" });
    expect(call.resultText).toContain("hello from alpha");
    expect(answerText(answer)).toBe("Let me look.\n\nAlpha says hello.");
  });

  it("asks for an edit's approval in the chat: Accept writes exactly, Reject writes nothing", async () => {
    const { controller, vault, until } = await open(
      [
        { toolCalls: [{ name: "replaceInFile", arguments: JSON.stringify({ path: "Plan.md", oldText: "draft", newText: "final" }) }] },
        { text: "Changed." },
        { toolCalls: [{ name: "replaceInFile", arguments: JSON.stringify({ path: "Plan.md", oldText: "final", newText: "gone" }) }] },
        { text: "Not changed." },
      ],
      { settings: { defaultMode: "agent" }, notes: { "Plan.md": "status: draft\n" } },
    );
    const first = controller.send("Make the plan final");
    const asking = await until((state) => state.approvals.length === 1);
    expect(asking.approvals[0]).toMatchObject({ kind: "edit", proposal: { path: "Plan.md", before: "status: draft\n", after: "status: final\n" } });
    controller.answerApproval(asking.approvals[0]!.id, { approved: true });
    await first;
    expect(readFileSync(join(vault.root, "Plan.md"), "utf8")).toBe("status: final\n");

    const second = controller.send("Now remove it");
    const again = await until((state) => state.approvals.length === 1);
    controller.answerApproval(again.approvals[0]!.id, { approved: false, reason: "the user rejected it" });
    await second;
    expect(readFileSync(join(vault.root, "Plan.md"), "utf8")).toBe("status: final\n");
    expect(controller.getState().approvals).toEqual([]);
    expect(server.requests[3]!.rawBody).toContain("the user rejected it");
  });

  it("a stopped run answers its waiting approval as refused, and the note is untouched", async () => {
    const { controller, vault, until } = await open(
      [{ toolCalls: [{ name: "writeToFile", arguments: JSON.stringify({ path: "New.md", content: "text" }) }] }],
      { settings: { defaultMode: "agent" } },
    );
    const run = controller.send("Create a note");
    await until((state) => state.approvals.length === 1);
    controller.stop();
    await run;
    expect(controller.getState().approvals).toEqual([]);
    expect(lastAnswer(controller.getState()).status).toBe("stopped");
    expect(() => readFileSync(join(vault.root, "New.md"))).toThrow();
  });

  it("shows a failed answer with its error, keeps the partial text, and Retry replaces it", async () => {
    const { controller } = await open([{ status: 401, message: "Incorrect API key provided" }, { text: "Now it works." }], { settings: { defaultMode: "chat" } });
    await controller.send("hello");
    const failed = lastAnswer(controller.getState());
    expect(failed.status).toBe("error");
    expect(failed.error?.kind).toBe("authentication");
    expect(failed.error?.message).toMatch(/API key/);
    await controller.retry();
    const state = controller.getState();
    expect(state.messages).toHaveLength(2);
    expect(answerText(lastAnswer(state))).toBe("Now it works.");
    expect(contentText(server.requests[1]!.body.messages.at(-1)!.content)).toContain("hello");
  });

  it("Regenerate asks again with the same question and only the earlier turns; Edit sends the new question", async () => {
    const { controller } = await open([{ text: "A1" }, { text: "A2" }, { text: "A2 again" }, { text: "A3" }], { settings: { defaultMode: "chat" } });
    await controller.send("Q1");
    await controller.send("Q2");
    await controller.regenerate();
    const regenerated = server.requests[2]!.body.messages.map((message) => contentText(message.content));
    expect(regenerated.filter((text) => text.includes("Q2"))).toHaveLength(1);
    expect(regenerated).not.toContain("A2");
    expect(answerText(lastAnswer(controller.getState()))).toBe("A2 again");

    await controller.editLastQuestion("Q2, reworded");
    const texts = controller.getState().messages.map((message) => (isAssistant(message) ? answerText(message) : message.text));
    expect(texts).toEqual(["Q1", "A1", "Q2, reworded", "A3"]);
    expect(contentText(server.requests[3]!.body.messages.at(-1)!.content)).toContain("Q2, reworded");
    // Nothing replaced is lost: both earlier versions of the exchange stay with the new answer, oldest first.
    const earlier = lastAnswer(controller.getState()).earlier ?? [];
    expect(earlier.map((version) => version.map((message) => (isAssistant(message) ? answerText(message) : message.text)))).toEqual([
      ["Q2", "A2"],
      ["Q2", "A2 again"],
    ]);
    expect(earlier.flat().every((message) => !isAssistant(message) || message.earlier === undefined)).toBe(true);
  });

  it("switches mode and model for the next message", async () => {
    const { controller } = await open([{ text: "from vault qa" }], { settings: { defaultMode: "chat" }, notes: { "Cats.md": "Cats purr when content." } });
    controller.setMode("vault-qa");
    controller.setModel("other-model");
    await controller.send("Why do cats purr?");
    expect(server.requests[0]!.body.model).toBe("other-model");
    expect(server.requests[0]!.rawBody).toContain("Cats purr when content.");
    expect(lastAnswer(controller.getState())).toMatchObject({ mode: "vault-qa", model: "other-model", status: "done" });
    expect(lastAnswer(controller.getState()).sources?.[0]?.path).toBe("Cats.md");
  });

  it("New chat during a reply stops it and starts empty with the defaults", async () => {
    const { controller, until } = await open([{ text: "never ends", holdOpen: true }], { settings: { defaultMode: "chat" } });
    const before = controller.getState().chatId;
    controller.setMode("agent");
    const run = controller.send("hello");
    await until((state) => state.messages.length === 2);
    await controller.newChat();
    await run;
    const state = controller.getState();
    expect(state).toMatchObject({ messages: [], running: false, mode: "chat" });
    expect(state.chatId).not.toBe(before);
  });
});
