import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { makeChat, type ChatSetup } from "../../test/helpers/chatHarness";
import { startOpenAIServer, type ChatRequestBody, type OpenAIServer, type Script } from "../../test/helpers/openAIServer";
import { isAssistant } from "../chat/chatTypes";
import { noteChip, selectionChip } from "../chat/chipArtifacts";
import type { CopilotSettings } from "../settings/settingsSchema";
import { FakeScheduler } from "../../test/helpers/fakeScheduler";
import type { Scheduler } from "../ports/timers";
import { ChatHistory } from "./ChatHistory";
import { parseChat } from "./chatNoteFormat";
import { ChatNoteWriter } from "./ChatNoteWriter";
import { restoreChat } from "./restoreChat";

/**
 * Chats kept as notes, end to end over real parts: the ChatController and the real runners
 * against the scripted chat-completions server, ChatNoteWriter and ChatHistory over a real folder.
 */

const NOTES = {
  "Garden/Roses.md": "# Roses\n\nPrune in early spring.\nWater at the roots.\nMulch in May.\n",
  "Kitchen/Soup.md": "Tomato soup with basil.\n",
};
const FOLDER = "copilot/chats";

interface Setup extends ChatSetup {
  history: ChatHistory;
  writer: ChatNoteWriter;
  problems: string[];
  requests: ChatRequestBody[];
  /** The chat notes on disk, vault-relative. */
  chatNotes: () => string[];
  read: (path: string) => string;
}

describe("chats kept as notes", () => {
  let server: OpenAIServer;
  let setup: Setup;

  const open = async (script: Script, settings: Partial<CopilotSettings> = {}, progressIntervalMs = 2000, scheduler?: Scheduler): Promise<Setup> => {
    const requests: ChatRequestBody[] = [];
    const scripted = Array.isArray(script) ? [...script] : null;
    server = await startOpenAIServer(async (request) => {
      requests.push(request.body);
      if (scripted) return scripted.shift() ?? { text: "(no more answers)" };
      return (script as Exclude<Script, unknown[]>)(request);
    });
    const problems: string[] = [];
    let writer!: ChatNoteWriter;
    const chat = makeChat(server, {
      notes: NOTES,
      settings: { defaultMode: "chat", ...settings },
      controller: { persistence: { questionAsked: (state) => writer.questionAsked(state), answerChanged: (state) => writer.answerChanged(state), answerEnded: (state) => writer.answerEnded(state), chatChanged: (state) => writer.chatChanged(state) } },
    });
    const history = new ChatHistory({ vault: chat.fsVault, folder: () => chat.settings.history.folder, searcher: () => chat.index });
    writer = new ChatNoteWriter({ vault: chat.fsVault, history, enabled: () => chat.settings.history.autosave, progressIntervalMs, onProblem: (message) => problems.push(message), ...(scheduler ? { scheduler } : {}) });
    const chatNotes = () => listNotes(join(chat.vault.root, FOLDER)).sort();
    setup = { ...chat, history, writer, problems, requests, chatNotes, read: (path) => readFileSync(join(chat.vault.root, path), "utf8") };
    return setup;
  };

  /** Opens a saved chat in the controller as the view does. */
  const reopen = async (path: string) => {
    const { record, text } = await setup.history.load(path);
    const { chat, problems } = await restoreChat(record, setup.fsVault);
    await setup.controller.restore(chat);
    setup.writer.adopt(record, path, text);
    return problems;
  };

  afterEach(async () => {
    setup?.writer.dispose();
    await setup?.dispose();
    await server?.close();
  });

  it("saves the question before the model is asked, then the answer, in one note named from the question", async () => {
    let onDiskWhenAsked = "";
    const { controller, chatNotes, read, writer } = await open(() => {
      onDiskWhenAsked = chatNotes().map((path) => setup.read(path)).join("");
      return { text: "Prune just above an outward-facing bud." };
    });
    await controller.send("How do I prune roses?");
    await writer.idle();
    expect(onDiskWhenAsked).toContain("How do I prune roses?");
    expect(onDiskWhenAsked).toMatch(/## Copilot · [^\n]* · partial\n/);
    const notes = chatNotes();
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^copilot\/chats\/\d{4}-\d{2}-\d{2} How do I prune roses\.md$/);
    expect(writer.path).toBe(notes[0]);
    const record = parseChat(read(notes[0] ?? ""));
    expect(record.id).toBe(controller.getState().chatId);
    expect(record.messages).toMatchObject([
      { role: "user", text: "How do I prune roses?" },
      { role: "assistant", status: "done", mode: "chat", model: "test-model", parts: [{ type: "text", text: "Prune just above an outward-facing bud." }] },
    ]);
  });

  it("keeps an agent's tool calls in the note: tool, arguments, result and status", async () => {
    const { controller, chatNotes, read, writer } = await open(
      [{ toolCalls: [{ name: "readNote", arguments: JSON.stringify({ notePath: "Kitchen/Soup.md" }) }] }, { text: "Simmer it with basil." }],
      { defaultMode: "agent", autonomousAgentEnabledToolIds: ["readNote"] },
    );
    await controller.send("What is in the soup?");
    await writer.idle();
    const text = read(chatNotes()[0] ?? "");
    expect(text).toContain("> [!tool]- readNote · ok");
    const answer = parseChat(text).messages[1];
    if (answer?.role !== "assistant") throw new Error("no answer");
    expect(answer.parts[0]).toMatchObject({ type: "tool", name: "readNote", status: "ok" });
    expect(JSON.parse(answer.parts[0]?.type === "tool" ? answer.parts[0].args : "")).toEqual({ notePath: "Kitchen/Soup.md" });
    expect(answer.parts[0]?.type === "tool" && answer.parts[0].result).toContain("Tomato soup with basil.");
    expect(answer.parts[1]).toEqual({ type: "text", text: "Simmer it with basil." });
  });

  it("a reopened chat goes on with the same request, byte for byte, as the chat that wrote it", async () => {
    const { controller, chatNotes, read, requests, writer } = await open(() => ({ text: "Noted." }));
    controller.addChip(noteChip("Garden/Roses.md"));
    await controller.send("First question");
    controller.addChip(selectionChip("Kitchen/Soup.md", "Tomato soup with basil.", 1, 1));
    await controller.send("Second question");
    await writer.idle();
    const path = chatNotes()[0] ?? "";
    const afterTwo = read(path);

    await controller.send("Third question");
    const live = requests.at(-1);

    await controller.newChat();
    writeFileSync(join(setup.vault.root, path), afterTwo);
    expect(await reopen(path)).toEqual([]);
    expect(controller.getState().messages).toHaveLength(4);
    await controller.send("Third question");
    const restored = requests.at(-1);

    expect(JSON.stringify(restored?.messages)).toBe(JSON.stringify(live?.messages));
    // The history really was in it: the earlier questions and answers, before the new one.
    const contents = (live?.messages ?? []).map((message) => JSON.stringify(message.content));
    expect(contents.some((content) => content.includes("Prune in early spring."))).toBe(true);
    expect(contents.filter((content) => content.includes("First question") || content.includes("Second question"))).toHaveLength(2);
    await writer.idle();
    expect(chatNotes()).toEqual([path]);
    expect(parseChat(read(path)).messages).toHaveLength(6);
  });

  it("what a person wrote in the note is what the model reads when the chat goes on", async () => {
    const { controller, chatNotes, read, requests, writer } = await open(() => ({ text: "Roses like sun." }));
    await controller.send("Where do roses grow best?");
    await writer.idle();
    const path = chatNotes()[0] ?? "";
    const edited = read(path).replace("Where do roses grow best?", "Where do climbing roses grow best?").replace("Roses like sun.", "Roses like sun and wind shelter.");
    writeFileSync(join(setup.vault.root, path), `${edited}\nA line the person added.\n`);

    await controller.newChat();
    await reopen(path);
    await controller.send("And in shade?");
    const history = (requests.at(-1)?.messages ?? []).map((message) => message.content);
    expect(history).toContainEqual("Where do climbing roses grow best?");
    expect(history).toContainEqual("Roses like sun and wind shelter.\n\nA line the person added.");
    await writer.idle();
    expect(chatNotes()).toEqual([path]);
    expect(read(path)).toContain("Where do climbing roses grow best?");
  });

  it("a note edited while its chat is open keeps the edit; the new exchange goes after it", async () => {
    const { controller, chatNotes, read, writer } = await open(() => ({ text: "An answer." }));
    await controller.send("Question one");
    await writer.idle();
    const path = chatNotes()[0] ?? "";
    writeFileSync(join(setup.vault.root, path), read(path).replace("An answer.", "An answer, corrected by hand."));
    await controller.send("Question two");
    await writer.idle();
    const messages = parseChat(read(path)).messages;
    expect(messages.map((message) => (message.role === "user" ? message.text : message.parts.map((part) => (part.type === "text" ? part.text : "")).join("")))).toEqual([
      "Question one",
      "An answer, corrected by hand.",
      "Question two",
      "An answer.",
    ]);
    expect(chatNotes()).toEqual([path]);
  });

  it("a note that stopped being a chat is left as it is, and the chat goes on in a new note", async () => {
    const { controller, chatNotes, read, writer, problems } = await open(() => ({ text: "Fine." }));
    await controller.send("Keep this");
    await writer.idle();
    const path = chatNotes()[0] ?? "";
    const broken = read(path).replace(/^---\n[\s\S]*?\n---\n/, "My own note now.\n");
    writeFileSync(join(setup.vault.root, path), broken);
    await controller.send("And this");
    await writer.idle();
    expect(read(path)).toBe(broken);
    const others = chatNotes().filter((note) => note !== path);
    expect(others).toHaveLength(1);
    expect(parseChat(read(others[0] ?? "")).messages).toHaveLength(4);
    expect(problems).toEqual([expect.stringContaining("no longer a chat note")]);
  });

  it("finds its note by id after the note was moved, and updates it there", async () => {
    const { controller, chatNotes, read, writer } = await open(() => ({ text: "Yes." }));
    await controller.send("Before the move");
    await writer.idle();
    const from = join(setup.vault.root, chatNotes()[0] ?? "");
    const to = join(setup.vault.root, "Archive/Moved chat.md");
    mkdirSync(dirname(to), { recursive: true });
    renameSync(from, to);
    await controller.send("After the move");
    await writer.idle();
    expect(chatNotes()).toEqual([]);
    expect(parseChat(read("Archive/Moved chat.md")).messages).toHaveLength(4);
    expect(await setup.history.findById(controller.getState().chatId)).toBe("Archive/Moved chat.md");
  });

  describe("a note moved while its answer streams, beside a copy with the same chat id", () => {
    /**
     * A first exchange saved, its note copied beside it (as "Make a copy" does, or a sync conflict
     * does `whileStreaming`, with the same text), then a second answer held mid-stream while `move` runs.
     */
    const moveMidAnswer = async (move: (from: string) => Promise<string>, copyWhileStreaming: boolean) => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const answers: Script = [{ text: "Первый ответ." }, { text: "Второй ответ 🌱 полностью.", chunkSize: 3, pauseAfterChunks: 3, resumeWhen: gate }];
      const { controller, chatNotes, read, writer, until } = await open(answers);
      await controller.send("Первый вопрос");
      await writer.idle();
      const [original = ""] = chatNotes();
      const copy = original.replace(/\.md$/, " 1.md");
      const makeCopy = () => writeFileSync(join(setup.vault.root, copy), read(original));
      if (!copyWhileStreaming) makeCopy();

      const sent = controller.send("Второй вопрос");
      await until((state) => state.messages.length === 4 && state.messages[3]?.role === "assistant" && state.messages[3].parts.length > 0);
      await writer.idle();
      if (copyWhileStreaming) makeCopy();
      const copyBytes = read(copy);
      const moved = await move(original);
      release();
      await sent;
      await writer.idle();
      expect(read(copy)).toBe(copyBytes);
      const record = parseChat(read(moved));
      expect(record.id).toBe(controller.getState().chatId);
      expect(record.messages.map((message) => (message.role === "user" ? message.text : message.parts))).toEqual([
        "Первый вопрос",
        [{ type: "text", text: "Первый ответ." }],
        "Второй вопрос",
        [{ type: "text", text: "Второй ответ 🌱 полностью." }],
      ]);
      expect(chatNotes()).toEqual([copy]);
    };

    it("follows the note through the vault's rename event (a move in Obsidian): the answer lands there, the copy of the same text is untouched", async () => {
      await moveMidAnswer(async (from) => {
        await setup.fsVault.rename(from, "Архив/Перенесённый чат.md");
        return "Архив/Перенесённый чат.md";
      }, true);
    });

    it("finds the note moved behind the vault's back by id, and of the two holding it, the one it wrote last", async () => {
      await moveMidAnswer((from) => {
        const to = join(setup.vault.root, "Архив/Перенесённый чат.md");
        mkdirSync(dirname(to), { recursive: true });
        renameSync(join(setup.vault.root, from), to);
        return Promise.resolve("Архив/Перенесённый чат.md");
      }, false);
    });
  });

  it("a copy of a chat note, continued, gets a chat id of its own and says so; the original keeps its id and its bytes", async () => {
    const { controller, chatNotes, read, writer, problems } = await open((request) => ({ text: `Ответ ${request.index + 1}` }));
    await controller.send("Исходный вопрос");
    await writer.idle();
    const [original = ""] = chatNotes();
    const firstId = parseChat(read(original)).id;
    const copy = original.replace(/\.md$/, " (conflicted copy).md");
    writeFileSync(join(setup.vault.root, copy), read(original));
    const originalBytes = read(original);

    await controller.newChat();
    await reopen(copy);
    await controller.send("Вопрос в копии");
    await writer.idle();
    const copied = parseChat(read(copy));
    expect(copied.id).not.toBe(firstId);
    expect(copied.id).toMatch(/^chat-/);
    expect(copied.messages).toHaveLength(4);
    expect(read(original)).toBe(originalBytes);
    expect(problems).toEqual([`"${copy}" held the same chat id as "${original}" (a copy of one chat), so it now has its own: each goes on in its own note.`]);

    // From then on each note is found by its own id: the copy goes on in itself, once more without a word.
    await controller.send("Ещё вопрос");
    await writer.idle();
    expect(parseChat(read(copy))).toMatchObject({ id: copied.id, messages: { length: 6 } });
    expect(problems).toHaveLength(1);
    expect(await setup.history.notesWithId(firstId)).toEqual([original]);
  });

  it("Regenerate keeps the replaced answer as an earlier version, in the note and when reopened", async () => {
    const answers = ["First try.", "Second try."];
    const { controller, chatNotes, read, writer } = await open(() => ({ text: answers.shift() ?? "?" }));
    await controller.send("Say something");
    await controller.regenerate();
    await writer.idle();
    const path = chatNotes()[0] ?? "";
    const text = read(path);
    expect(text).toContain("> [!earlier]- Earlier version");
    expect(text).toContain("> First try.");
    await controller.newChat();
    await reopen(path);
    const answer = controller.getState().messages.findLast(isAssistant);
    expect(answer?.parts).toMatchObject([{ type: "text", text: "Second try." }]);
    expect(answer?.earlier?.[0]?.map((message) => message.role)).toEqual(["user", "assistant"]);
  });

  it("an edit the user undid is told to the model the same way, byte for byte, by the chat and by the chat reopened from its note", async () => {
    const { controller, chatNotes, read, requests, writer, until, editHistory } = await open(
      (request) =>
        request.index === 0
          ? { toolCalls: [{ name: "replaceInFile", arguments: JSON.stringify({ path: "Garden/Roses.md", oldText: "Mulch in May.", newText: "Mulch in June." }) }] }
          : { text: `Answer ${request.index}` },
      { defaultMode: "agent", autonomousAgentEnabledToolIds: ["replaceInFile"] },
    );
    const sent = controller.send("Move the mulching to June");
    const asked = await until((state) => state.approvals.length > 0);
    controller.answerApproval(asked.approvals[0]!.id, { approved: true });
    await sent;
    // What the banner's Undo does: the edit history puts the note back, the chat is told.
    expect((await editHistory.undoLast()).status).toBe("undone");
    const answer = controller.getState().messages.findLast(isAssistant)!;
    const call = answer.parts.find((part) => part.type === "tool-call")!;
    await controller.markEditUndone(answer.id, call.id, "Garden/Roses.md");
    await writer.idle();
    const path = chatNotes()[0] ?? "";
    const undoneNotTold = read(path);
    expect(undoneNotTold).toMatch(/^> \[!tool\]- replaceInFile · ok · \d+ ms · undone Garden\/Roses\.md$/m);

    const askBoth = async (note: string, question: string) => {
      await controller.send(question);
      const live = requests.at(-1);
      await writer.idle();
      const after = read(path);
      await controller.newChat();
      writeFileSync(join(setup.vault.root, path), note);
      expect(await reopen(path)).toEqual([]);
      await controller.send(question);
      expect(JSON.stringify(requests.at(-1)?.messages)).toBe(JSON.stringify(live?.messages));
      // Back to the chat as it was after the live question, for the next step.
      await writer.idle();
      await controller.newChat();
      writeFileSync(join(setup.vault.root, path), after);
      await reopen(path);
      return live!;
    };
    // Undone, not yet told: the next question tells it, before the question.
    const second = await askBoth(undoneNotTold, "What now?");
    expect(JSON.stringify(second.messages.at(-1)?.content)).toContain("The user undid the edit of Garden/Roses.md");
    const told = read(path);
    expect(told).toContain("> - edit undone: [[Garden/Roses]]");
    // Told: later questions carry it in the library, not as news.
    const third = await askBoth(told, "And then?");
    expect(JSON.stringify(third.messages[0]?.content)).toContain("The user undid the edit of Garden/Roses.md");
    expect(JSON.stringify(third.messages.at(-1)?.content)).not.toContain("The user undid");
  });

  it("writes nothing when saving is switched off", async () => {
    const { controller, chatNotes, writer } = await open(() => ({ text: "Not kept." }), { history: { folder: FOLDER, autosave: false } });
    await controller.send("Private question");
    await writer.idle();
    expect(existsSync(join(setup.vault.root, FOLDER))).toBe(false);
    expect(chatNotes()).toEqual([]);
  });

  it("writes a long answer now and then while it streams, never per token", async () => {
    // Each streamed piece takes 250 ms of fake time: a write every 2 s is one per 8 pieces.
    const time = new FakeScheduler();
    const words = Array.from({ length: 60 }, (_, index) => `word${index} `).join("");
    // Paced, so that each piece arrives in a read of its own (what one read brings is merged).
    const { controller, fsVault, writer, chatNotes, read } = await open(() => ({ text: words, chunkSize: 6, chunkDelayMs: 1 }), {}, 2000, time);
    let changes = 0;
    const answerChanged = writer.answerChanged.bind(writer);
    writer.answerChanged = (state) => {
      changes++;
      time.advance(250);
      answerChanged(state);
    };
    let writes = 0;
    const process = fsVault.process.bind(fsVault);
    fsVault.process = (path, transform) => {
      writes++;
      return process(path, transform);
    };
    await controller.send("Count slowly");
    await writer.idle();
    expect(changes).toBeGreaterThanOrEqual(16);
    // The first save creates the note; then about one write per 2 s of streaming, and one at the end.
    const streamedFor = changes * 250;
    expect(writes).toBeGreaterThanOrEqual(Math.floor(streamedFor / 2000));
    expect(writes).toBeLessThanOrEqual(Math.floor(streamedFor / 2000) + 2);
    const answer = parseChat(read(chatNotes()[0] ?? "")).messages[1];
    expect(answer?.role === "assistant" && answer.parts[0]).toEqual({ type: "text", text: words });
  });
});

function listNotes(folder: string, prefix = FOLDER): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listNotes(join(folder, entry.name), `${prefix}/${entry.name}`) : entry.name.endsWith(".md") ? [`${prefix}/${entry.name}`] : [],
  );
}
