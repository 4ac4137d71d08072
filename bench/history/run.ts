// The chat history benchmark (`npm run bench -- history`): chats kept as notes.
// 1. Save: a 200-turn agent chat (two tool calls with results per answer) turned into its note
//    and written through FsVault.process, as the writer does at the end of a turn; and the
//    serialization alone.
// 2. Load: the note read, parsed and made ready to go on (ChatHistory.load + restoreChat).
// 3. Writes per turn: a real ChatController and ChatNoteWriter against the scripted
//    chat-completions server, for a short answer and for a long one streamed over ~5 s.
// Medians over BENCH_HISTORY_RUNS runs (default 15). Bundled and run by bench/run.mjs.
import { performance } from "node:perf_hooks";
import { makeChat } from "../../test/helpers/chatHarness";
import { startOpenAIServer } from "../../test/helpers/openAIServer";
import { makeTempVault } from "../../test/helpers/tempVault";
import type { AssistantMessage, ChatMessage, ChatState, UserMessage } from "../../src/chat/chatTypes";
import { ChatHistory } from "../../src/history/ChatHistory";
import { serializeChat } from "../../src/history/chatNoteFormat";
import { ChatNoteWriter } from "../../src/history/ChatNoteWriter";
import { freshBase, recordFromState } from "../../src/history/chatStateRecord";
import { restoreChat } from "../../src/history/restoreChat";
import { FsVault } from "../../src/vault/FsVault";

const RUNS = Number(process.env.BENCH_HISTORY_RUNS ?? 15);
const TURNS = 200;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const print = (line: string) => process.stdout.write(`${line}\n`);
const ms = (value: number) => `${value.toFixed(value >= 100 ? 0 : 1)} ms`;

function longChat(): ChatState {
  const messages: ChatMessage[] = [];
  const start = Date.UTC(2026, 11, 1);
  for (let turn = 0; turn < TURNS; turn++) {
    const at = start + turn * 60_000;
    const question: UserMessage = { id: `u${turn}`, role: "user", text: `Question ${turn}: what do my notes say about topic ${turn}?`, chips: [], artifacts: [], sentAt: at };
    const answer: AssistantMessage = {
      id: `a${turn}`,
      role: "assistant",
      status: "done",
      mode: "agent",
      model: "bench-model",
      startedAt: at + 1000,
      parts: [
        { type: "text", id: "text-1", text: "Let me look in your notes." },
        ...[1, 2].map((call) => ({
          type: "tool-call" as const,
          id: `c${turn}-${call}`,
          toolName: "localSearch",
          toolId: "localSearch",
          args: { query: `topic ${turn}`, salientTerms: ["topic", String(turn)] },
          status: "ok" as const,
          startedAt: at + 1000,
          durationMs: 40,
          resultText: `<localSearch>\n${`<document title="Note ${turn}">Some passage about topic ${turn}, with **Markdown** and a [[link]].</document>\n`.repeat(20)}</localSearch>`,
        })),
        { type: "text", id: "text-2", text: `Topic ${turn} appears in three notes. ${"Here is what they say, in short. ".repeat(12)}` },
      ],
    };
    messages.push(question, answer);
  }
  return { chatId: "chat-bench", messages, mode: "agent", model: "bench-model", project: null, running: false, activeNote: null, chips: [], approvals: [], announcement: null };
}

async function saveAndLoad(): Promise<void> {
  const vault = makeTempVault();
  try {
    const fsVault = new FsVault(vault.root);
    const history = new ChatHistory({ vault: fsVault, folder: () => "copilot/chats" });
    const state = longChat();
    const base = freshBase(Date.UTC(2026, 11, 1));
    const first = recordFromState(state, base, Date.now());
    const path = await history.create(first, serializeChat(first));
    const serialize: number[] = [];
    const save: number[] = [];
    const load: number[] = [];
    let size = 0;
    for (let run = 0; run < RUNS; run++) {
      let started = performance.now();
      const text = serializeChat(recordFromState(state, base, Date.now()));
      serialize.push(performance.now() - started);
      size = Buffer.byteLength(text);
      started = performance.now();
      await fsVault.process(path, () => serializeChat(recordFromState(state, base, Date.now())));
      save.push(performance.now() - started);
      started = performance.now();
      const { record } = await history.load(path);
      await restoreChat(record, fsVault);
      load.push(performance.now() - started);
    }
    print(`| ${TURNS}-turn agent chat (2 tool calls per answer) | ${(size / 1024).toFixed(0)} KB note |`);
    print(`| serialize (state -> note text)     | ${ms(median(serialize))} |`);
    print(`| save (serialize + Vault.process)   | ${ms(median(save))} |`);
    print(`| load (read + parse + restore)      | ${ms(median(load))} |`);
  } finally {
    vault.remove();
  }
}

async function writesPerTurn(label: string, tokens: number, chunkDelayMs: number): Promise<void> {
  const server = await startOpenAIServer(() => ({ text: "word ".repeat(tokens), chunkSize: 5, chunkDelayMs }));
  let writer!: ChatNoteWriter;
  const chat = makeChat(server, {
    settings: { defaultMode: "chat" },
    controller: {
      persistence: { questionAsked: (state) => writer.questionAsked(state), answerChanged: (state) => writer.answerChanged(state), answerEnded: (state) => writer.answerEnded(state), chatChanged: (state) => writer.chatChanged(state) },
    },
  });
  try {
    const history = new ChatHistory({ vault: chat.fsVault, folder: () => "copilot/chats" });
    writer = new ChatNoteWriter({ vault: chat.fsVault, history, enabled: () => true });
    let writes = 0;
    for (const method of ["create", "process"] as const) {
      const original = chat.fsVault[method].bind(chat.fsVault) as (...args: never[]) => Promise<unknown>;
      (chat.fsVault as unknown as Record<string, unknown>)[method] = (...args: never[]) => {
        writes++;
        return original(...args);
      };
    }
    const turns = 3;
    const started = performance.now();
    for (let turn = 0; turn < turns; turn++) await chat.controller.send(`Turn ${turn}`);
    await writer.idle();
    const seconds = (performance.now() - started) / 1000 / turns;
    print(`| writes per turn, ${label} (${tokens} tokens, ${seconds.toFixed(1)} s each) | ${(writes / turns).toFixed(1)} |`);
  } finally {
    writer.dispose();
    await chat.dispose();
    await server.close();
  }
}

async function main(): Promise<void> {
  print("| chat history | figure |");
  print("|---|---|");
  await saveAndLoad();
  await writesPerTurn("short answer", 50, 0);
  await writesPerTurn("long streamed answer", 1000, 5);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
