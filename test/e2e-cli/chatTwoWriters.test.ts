/**
 * Two processes of the built CLI continuing one chat note at the same time (`chat --continue` run
 * twice at once): both questions are saved before either answer arrives, both answers stream with
 * progress writes between them, and the note ends with each exchange whole (its question, then its
 * own answer) after the earlier ones, in the order the questions were written. Nothing is lost.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseChat, serializeChat } from "../../src/history/chatNoteFormat";
import type { RecordMessage } from "../../src/history/chatRecord";
import { runBundle, useCliBundle } from "../helpers/cliBundle";
import { startOpenAIServer, type OpenAIServer } from "../helpers/openAIServer";
import { savedChat } from "../helpers/savedChat";
import { makeTempVault, type TempVault } from "../helpers/tempVault";

jest.setTimeout(90_000);

const NOTE = "copilot/chats/2026-12-01 Травы на подоконнике.md";
const QUESTIONS = ["Базилик или мята? 🌿", "香菜怎么种？"];
/** About 3 s of streaming each (40 chunks, 75 ms apart): past one progress write (every 2 s) of each process. */
const answerTo = (question: string) => `Ответ на «${question}»: ${"полить, подождать, ".repeat(8)}готово.`;

const bundle = useCliBundle();
let vault: TempVault;
let server: OpenAIServer;

afterEach(async () => {
  await server.close();
  vault.remove();
});

function continueChat(question: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return runBundle(bundle.path, ["chat", "--vault", vault.root, "--base-url", server.baseUrl, "--model", "test-model", "--continue", NOTE, question]);
}

const summary = (message: RecordMessage) => (message.role === "user" ? `Q ${message.text}` : `A ${message.status} ${message.parts.map((part) => (part.type === "text" ? part.text : "")).join("")}`);

it("two processes continuing one note at once: each exchange whole, after what was there, none lost", async () => {
  vault = makeTempVault({ [NOTE]: serializeChat(savedChat("chat-herbs", "Что посадить?", "2026-12-01T10:00:00Z")) });
  // Neither answer starts before both questions were asked (and so saved): the writes overlap for certain.
  let arrived = 0;
  let bothAsked!: () => void;
  const asked = new Promise<void>((resolve) => (bothAsked = resolve));
  server = await startOpenAIServer(async (request) => {
    if (++arrived === 2) bothAsked();
    await asked;
    const content = request.body.messages.at(-1)?.content;
    const question = (typeof content === "string" ? content : "").replace("[User query]: ", "");
    return { text: answerTo(question), chunkSize: 4, chunkDelayMs: 75 };
  });

  const [first, second] = await Promise.all(QUESTIONS.map(continueChat));
  for (const [index, run] of [first, second].entries()) {
    expect(run).toEqual({ status: 0, stdout: `${answerTo(QUESTIONS[index] ?? "")}\n`, stderr: `vault-copilot: saved to ${NOTE}\n` });
  }
  expect(server.requests).toHaveLength(2);
  expect(readdirSync(join(vault.root, "copilot/chats"))).toEqual(["2026-12-01 Травы на подоконнике.md"]);

  const messages = parseChat(readFileSync(join(vault.root, NOTE), "utf8")).messages.map(summary);
  expect(messages.slice(0, 2)).toEqual(["Q Что посадить?", "A done Answer to Что посадить?"]);
  const exchanges = [messages.slice(2, 4), messages.slice(4, 6)];
  expect(messages).toHaveLength(6);
  // In the order the questions were written, which is either.
  const inOrder = exchanges[0]?.[0] === `Q ${QUESTIONS[0]}` ? QUESTIONS : [...QUESTIONS].reverse();
  expect(exchanges).toEqual(inOrder.map((question) => [`Q ${question}`, `A done ${answerTo(question)}`]));
});
