/**
 * `chat --save` run as the built `dist/cli.js` process and killed (SIGKILL) while the answer
 * streams: the note written so far stays a readable chat holding the question and the part of the
 * answer saved by the last progress write (every 2 s), marked partial. Only the tail is lost.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseChat } from "../../src/history/chatNoteFormat";
import type { RecordAnswer, RecordMessage } from "../../src/history/chatRecord";
import { useCliBundle } from "../helpers/cliBundle";
import { startOpenAIServer, type OpenAIServer } from "../helpers/openAIServer";
import { makeTempVault, type TempVault } from "../helpers/tempVault";

jest.setTimeout(60_000);

const FOLDER = "copilot/chats";
/** 40 chunks of 4 characters, 150 ms apart: about 6 s of streaming. */
const ANSWER = "The soup needs onions, leeks, stock, salt, and a long slow simmer to taste good...".slice(0, 160).padEnd(160, ".");

const bundle = useCliBundle();
let vault: TempVault;
let server: OpenAIServer;

beforeEach(() => {
  vault = makeTempVault({ "Soup.md": "Onions.\n" });
});
afterEach(async () => {
  await server.close();
  vault.remove();
});

/** The chat notes in the history folder. */
function notes(): string[] {
  const folder = join(vault.root, FOLDER);
  return existsSync(folder) ? readdirSync(folder) : [];
}

/** The text of the answer in the only note, once a progress write has put some there; else null. */
function savedAnswer(): { messages: RecordMessage[]; text: string } | null {
  const [name] = notes();
  if (!name) return null;
  const messages = parseChat(readFileSync(join(vault.root, FOLDER, name), "utf8")).messages;
  const answer = messages[1] as RecordAnswer | undefined;
  const text = answer?.parts.map((part) => (part.type === "text" ? part.text : "")).join("") ?? "";
  return text ? { messages, text } : null;
}

it("keeps the question and the answer saved so far when the process is killed mid-stream", async () => {
  server = await startOpenAIServer([{ text: ANSWER, chunkDelayMs: 150 }]);
  const child = spawn(process.execPath, [bundle.path, "chat", "--vault", vault.root, "--base-url", server.baseUrl, "--model", "test-model", "--save", "How do I make soup?"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  const closed = new Promise<void>((resolve) => child.on("close", () => resolve()));

  // Waits (up to the test's timeout) for the first progress write that carries answer text.
  let saved = null as ReturnType<typeof savedAnswer>;
  while (!saved) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    try {
      saved = savedAnswer();
    } catch {
      // A note being replaced is read again on the next look.
    }
  }
  child.kill("SIGKILL");
  await closed;

  expect(notes()).toHaveLength(1);
  const after = savedAnswer();
  expect(after?.messages).toHaveLength(2);
  expect(after?.messages[0]).toMatchObject({ role: "user", text: "How do I make soup?" });
  expect(after?.messages[1]).toMatchObject({ role: "assistant", status: "partial", mode: "chat", model: "test-model" });
  expect(after?.text.length).toBeGreaterThan(0);
  expect(after?.text.length).toBeLessThan(ANSWER.length);
  expect(ANSWER.startsWith(after?.text ?? "-")).toBe(true);
  // What the terminal showed was streamed live; the note lags it by at most a progress interval.
  expect(stdout.startsWith(after?.text ?? "-")).toBe(true);
  expect(readdirSync(vault.root).sort()).toEqual(["Soup.md", "copilot"]);
});
