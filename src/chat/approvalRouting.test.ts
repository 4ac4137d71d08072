import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ContextManager } from "../context/ContextManager";
import { McpHub } from "../mcp/McpHub";
import { createStdioTransport } from "../mcp/node/stdioTransport";
import { withSelectionEdit } from "../prompts/selectionEdit";
import { MapSecretStore } from "../ports/SecretStore";
import { EVERYTHING_SERVER } from "../../test/helpers/mcpServers";
import { makeChat, type ChatSetup } from "../../test/helpers/chatHarness";
import { contentText } from "../../test/helpers/runnerHarness";
import { startOpenAIServer, type OpenAIServer, type RecordedChatRequest, type ScriptedResponse } from "../../test/helpers/openAIServer";
import { isAssistant, type ChatState, type ToolCallPart } from "./chatTypes";

/**
 * Approvals go to the chat whose run asks. The tools are registered once for every chat (as in
 * the plugin); each run carries its own chat, so two chats running at once each show only their
 * own questions, a closed chat holds nobody up, and a run no chat started asks the fallback (the
 * Obsidian dialogs in the plugin; here a port that refuses, saying "no chat is running").
 */

jest.setTimeout(60_000);

const EDIT_TOOLS = ["writeToFile", "replaceInFile", "mcp_ev_echo"];

/** The question of a request: the last user message, label and all. */
const questionOf = (request: RecordedChatRequest) => contentText(request.body.messages.findLast((message) => message.role === "user")?.content);
const hasToolResult = (request: RecordedChatRequest) => request.body.messages.some((message) => message.role === "tool");
const write = (path: string, content: string): ScriptedResponse => ({ toolCalls: [{ name: "writeToFile", arguments: JSON.stringify({ path, content }) }] });
const lastToolCall = (state: ChatState): ToolCallPart | undefined => state.messages.findLast(isAssistant)?.parts.findLast((part): part is ToolCallPart => part.type === "tool-call");

let server: OpenAIServer;
let chat: ChatSetup;
let hub: McpHub | undefined;
/** A question holding one of these words gets its model answer only once the gate opens. */
let gates: Map<string, Promise<void>>;

/** A gate for questions that hold `word`, and the function that opens it. */
function gate(word: string): () => void {
  let open!: () => void;
  gates.set(word, new Promise<void>((resolve) => (open = resolve)));
  return open;
}

/**
 * One model server for every chat: a question that names a note asks to write it (Альфа, Бета),
 * one that says "echo" calls the MCP echo tool; after a tool result it answers with the result.
 * A gated question's answer waits, so its chat asks only after a chat started later asked: the
 * order in which routing to "the chat that attached last" goes wrong.
 */
beforeEach(async () => {
  gates = new Map();
  server = await startOpenAIServer(async (request) => {
    if (hasToolResult(request)) return { text: "Готово. 完成。" };
    const question = questionOf(request);
    for (const [word, opened] of gates) if (question.includes(word)) await opened;
    if (question.includes("Перепиши")) return { text: "Новый текст." };
    if (question.includes("echo")) return { toolCalls: [{ name: "ev_echo", arguments: JSON.stringify({ message: "שלום 🦓" }) }] };
    const note = /«(.+?)»/.exec(question)?.[1] ?? "unnamed";
    return write(`${note}.md`, `# ${note}\n`);
  });
  chat = makeChat(server, { settings: { defaultMode: "agent", autonomousAgentEnabledToolIds: EDIT_TOOLS } });
});
afterEach(async () => {
  await hub?.closeAll();
  hub = undefined;
  await chat.dispose();
  await server.close();
});

type Chat = Pick<ChatSetup, "controller" | "until">;

/**
 * Sends `earlierQuestion` in `earlier`, whose model answer waits until `later` has sent its own
 * question and shows its approval; then lets the earlier run go on, and resolves once the two
 * chats show two questions between them, wherever they went.
 */
async function earlierAsksLast(earlier: Chat, earlierQuestion: string, gateWord: string, later: Chat, laterQuestion: string): Promise<{ earlierRun: Promise<void>; laterRun: Promise<void> }> {
  const open = gate(gateWord);
  const earlierRun = earlier.controller.send(earlierQuestion);
  await earlier.until((state) => state.running);
  const laterRun = later.controller.send(laterQuestion);
  await later.until((state) => state.approvals.length === 1);
  open();
  const both = () => earlier.controller.getState().approvals.length + later.controller.getState().approvals.length === 2;
  await Promise.race([earlier.until(both), later.until(both)]);
  return { earlierRun, laterRun };
}

describe("approvals, routed by run", () => {
  it("two chats running at once each show only their own question, and each answer reaches its own run", async () => {
    const first = chat;
    const second = chat.anotherChat();
    // The first chat's run asks after the second chat started (and asked).
    const { earlierRun: firstRun, laterRun: secondRun } = await earlierAsksLast(first, "Создай заметку «Альфа»", "Альфа", second, "Создай заметку «Бета»");
    const asked = (state: ChatState) => state.approvals.map((approval) => approval.kind === "edit" && approval.proposal.path);

    // Each chat shows its own run's question, and only that one.
    expect(asked(first.controller.getState())).toEqual(["Альфа.md"]);
    expect(asked(second.controller.getState())).toEqual(["Бета.md"]);
    const firstAsking = first.controller.getState();
    const secondAsking = second.controller.getState();

    // Accepted in the second chat: its note is written; the first chat's question still waits.
    second.controller.answerApproval(secondAsking.approvals[0]!.id, { approved: true });
    await secondRun;
    expect(readFileSync(join(chat.vault.root, "Бета.md"), "utf8")).toBe("# Бета\n");
    expect(first.controller.getState().approvals).toHaveLength(1);
    expect(existsSync(join(chat.vault.root, "Альфа.md"))).toBe(false);

    first.controller.answerApproval(firstAsking.approvals[0]!.id, { approved: false, reason: "не сейчас" });
    await firstRun;
    expect(existsSync(join(chat.vault.root, "Альфа.md"))).toBe(false);
    expect(lastToolCall(first.controller.getState())?.resultText).toContain("не сейчас");
    expect(lastToolCall(second.controller.getState())?.resultText).not.toContain("не сейчас");
  });

  it("an MCP call asks the chat whose run made it, while another chat waits on its own edit", async () => {
    hub = new McpHub({
      registry: chat.registry,
      createTransport: (config) => (config.transport === "stdio" ? Promise.resolve(createStdioTransport(config, new MapSecretStore())) : Promise.reject(new Error("stdio only here"))),
      approval: chat.fallbackApprovals,
      isAutoApproved: () => false,
    });
    expect((await hub.connect({ name: "ev", enabled: true, transport: "stdio", command: process.execPath, args: [EVERYTHING_SERVER, "stdio"], env: {} })).state).toBe("connected");
    const echoing = chat;
    const editing = chat.anotherChat();
    // The echo's chat starts first; its call comes after the other chat started and asked.
    const { earlierRun: echoRun, laterRun: editRun } = await earlierAsksLast(echoing, "Please echo a greeting", "echo", editing, "Создай заметку «Гамма»");
    const echoAsking = echoing.controller.getState();

    expect(echoAsking.approvals[0]).toMatchObject({ kind: "tool-call", proposal: { toolId: "mcp_ev_echo", arguments: { message: "שלום 🦓" } } });
    expect(editing.controller.getState().approvals.map((approval) => approval.kind)).toEqual(["edit"]);
    echoing.controller.answerApproval(echoAsking.approvals[0]!.id, { approved: true });
    await echoRun;
    expect(lastToolCall(echoing.controller.getState())?.resultText).toBe("Echo: שלום 🦓");

    editing.controller.stop();
    await editRun;
    expect(existsSync(join(chat.vault.root, "Гамма.md"))).toBe(false);
  });

  it("a closed chat holds nobody up: its waiting question is refused, and a late one is refused at once", async () => {
    const closing = chat.anotherChat();
    const open = chat;
    const closingRun = closing.controller.send("Создай заметку «Дельта»");
    await closing.until((state) => state.approvals.length === 1);
    // The view closes: its controller is disposed while the question waits.
    await closing.controller.dispose();
    await closingRun;
    expect(existsSync(join(chat.vault.root, "Дельта.md"))).toBe(false);

    // Nothing waits on the closed chat: a question that reaches it now is answered at once.
    const late = closing.controller.requestApproval({ toolId: "writeToFile", path: "Дельта.md", before: null, after: "x" }, new AbortController().signal);
    await expect(Promise.race([late, Promise.resolve("still waiting")])).resolves.toEqual({ approved: false, reason: "the chat was closed" });

    // The chat still open asks in itself, and its answer writes.
    const openRun = open.controller.send("Создай заметку «Эпсилон»");
    const asking = await open.until((state) => state.approvals.length === 1);
    open.controller.answerApproval(asking.approvals[0]!.id, { approved: true });
    await openRun;
    expect(readFileSync(join(chat.vault.root, "Эпсилон.md"), "utf8")).toBe("# Эпсилон\n");
  });

  it("an edit started from a command, with no chat of its own, asks the fallback and not the chat that is running", async () => {
    chat.vault.write("Черновик.md", "Старый текст.\n");
    const running = chat.controller.send("Создай заметку «Дзета»");
    await chat.until((state) => state.approvals.length === 1);

    // What a command runs: the edit prompt's runner and replaceInFile, started by no chat.
    const replaceInFile = chat.registry.getAllTools().find((definition) => definition.metadata.id === "replaceInFile")!.tool;
    const runner = withSelectionEdit(
      chat.createRunner("chat", chat.settings.provider.model),
      { path: "Черновик.md", text: "Старый текст." },
      replaceInFile,
      10_000,
    );
    const events: string[] = [];
    const command = new AbortController();
    const commandRun = runner.run({
      userMessage: "Перепиши «Черновик»",
      conversation: new ContextManager(),
      signal: command.signal,
      onEvent: (event) => {
        if (event.type === "tool-call-end") events.push(event.resultText);
      },
    });
    // Asked in the running chat instead, the command would wait there: see which comes first.
    const outcome = await Promise.race([commandRun, chat.until((state) => state.approvals.length > 1)]);
    command.abort();
    expect(outcome).toMatchObject({ status: "completed" });
    expect(events).toHaveLength(1);
    expect(events[0]).toContain("no chat is running");
    expect(readFileSync(join(chat.vault.root, "Черновик.md"), "utf8")).toBe("Старый текст.\n");
    // The running chat was not asked: it still shows its own question only.
    expect(chat.controller.getState().approvals.map((approval) => approval.kind === "edit" && approval.proposal.path)).toEqual(["Дзета.md"]);

    chat.controller.stop();
    await running;
  });
});
