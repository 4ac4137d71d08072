import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ChatHistory } from "../../history/ChatHistory";
import { parseChat, serializeChat } from "../../history/chatNoteFormat";
import { savedChat } from "../../../test/helpers/savedChat";
import { FsVault } from "../../vault/FsVault";
import type { RecordAnswer } from "../../history/chatRecord";
import { runCli } from "../../../test/helpers/runCli";
import { startOpenAIServer, type OpenAIServer, type Script } from "../../../test/helpers/openAIServer";
import { makeTempVault, type TempVault } from "../../../test/helpers/tempVault";

jest.setTimeout(60_000);

const FOLDER = "copilot/chats";
let server: OpenAIServer | undefined;
let vault: TempVault;

beforeEach(() => {
  vault = makeTempVault({ "Soup.md": "Onions and leeks.\n" });
});
afterEach(async () => {
  vault.remove();
  await server?.close();
  server = undefined;
});

async function run(command: "chat" | "agent" | "qa", script: Script, flags: string[], prompt: string) {
  await server?.close();
  server = await startOpenAIServer(script);
  return runCli([command, "--vault", vault.root, "--base-url", server.baseUrl, "--model", "test-model", ...flags, prompt]);
}

function chatNotes(): string[] {
  return readdirSync(join(vault.root, FOLDER)).map((name) => `${FOLDER}/${name}`);
}

const read = (path: string) => readFileSync(join(vault.root, path), "utf8");

/** `text` as UTF-8, but for `words` in it, written as Latin-1 (as an editor set to Latin-1 leaves a note). */
function withLatin1(text: string, words: string): Buffer {
  const at = text.indexOf(words);
  expect(at).toBeGreaterThan(0);
  return Buffer.concat([Buffer.from(text.slice(0, at), "utf8"), Buffer.from(words, "latin1"), Buffer.from(text.slice(at + words.length), "utf8")]);
}

it("the usage lists --save and --continue NOTE for chat, qa, agent and run", async () => {
  const { status, stderr } = await runCli(["--help"]);
  expect(status).toBe(2);
  const commands = stderr.split(/\n(?=\s+vault-copilot )/);
  for (const name of ["chat", "qa", "agent", "run"]) expect(commands.find((lines) => lines.includes(`vault-copilot ${name} `))).toContain("[--save] [--continue NOTE]");
});

describe("chat --save", () => {
  it("writes one note in the history folder with the question and the answer, and prints its path on stderr", async () => {
    const { status, stdout, stderr } = await run("chat", [{ text: "Paris is the capital." }], ["--save"], "What is the capital of France?");
    expect(status).toBe(0);
    expect(stdout).toBe("Paris is the capital.\n");
    const notes = chatNotes();
    expect(notes).toHaveLength(1);
    expect(stderr).toBe(`vault-copilot: saved to ${notes[0]}\n`);
    const record = parseChat(read(notes[0] ?? ""));
    expect(record.mode).toBe("chat");
    expect(record.messages).toHaveLength(2);
    expect(record.messages[0]).toMatchObject({ role: "user", text: "What is the capital of France?" });
    expect(record.messages[1]).toMatchObject({ role: "assistant", status: "done", mode: "chat", model: "test-model", parts: [{ type: "text", text: "Paris is the capital." }] });
  });

  it("without --save or --continue writes nothing", async () => {
    const { status, stderr } = await run("chat", [{ text: "Hi." }], [], "Hello");
    expect({ status, stderr }).toEqual({ status: 0, stderr: "" });
    expect(readdirSync(vault.root)).toEqual(["Soup.md"]);
  });
});

describe("chat --continue NOTE", () => {
  it("sends the earlier turn as L4 before the new question and adds the exchange to the same note", async () => {
    await run("chat", [{ text: "Paris is the capital." }], ["--save"], "What is the capital of France?");
    const [path = ""] = chatNotes();
    // Named without ".md": the same note.
    const { status, stdout, stderr } = await run("chat", [{ text: "Rome." }], ["--continue", path.replace(/\.md$/, "")], "And of Italy?");
    expect(status).toBe(0);
    expect(stdout).toBe("Rome.\n");
    expect(stderr).toBe(`vault-copilot: saved to ${path}\n`);
    const messages = server?.requests[0]?.body.messages ?? [];
    expect(messages.slice(-3)).toEqual([
      { role: "user", content: "What is the capital of France?" },
      { role: "assistant", content: "Paris is the capital." },
      { role: "user", content: "[User query]: And of Italy?" },
    ]);
    expect(chatNotes()).toEqual([path]);
    const record = parseChat(read(path));
    expect(record.messages.map((message) => (message.role === "user" ? message.text : message.parts))).toEqual([
      "What is the capital of France?",
      [{ type: "text", text: "Paris is the capital." }],
      "And of Italy?",
      [{ type: "text", text: "Rome." }],
    ]);
  });

  it("goes on with a note that begins with a byte-order mark, keeps the mark, and the history lists the note", async () => {
    await run("chat", [{ text: "Борщ — свёкла." }], ["--save"], "Что в борще?");
    const [path = ""] = chatNotes();
    writeFileSync(join(vault.root, path), `\uFEFF${read(path)}`);
    const { status, stderr } = await run("chat", [{ text: "酸奶油。" }], ["--continue", path], "И сверху?");
    expect({ status, stderr }).toEqual({ status: 0, stderr: `vault-copilot: saved to ${path}\n` });
    expect(server?.requests[0]?.body.messages.slice(-3)).toEqual([
      { role: "user", content: "Что в борще?" },
      { role: "assistant", content: "Борщ — свёкла." },
      { role: "user", content: "[User query]: И сверху?" },
    ]);
    const bytes = readFileSync(join(vault.root, path));
    expect([...bytes.subarray(0, 6)]).toEqual([0xef, 0xbb, 0xbf, 0x2d, 0x2d, 0x2d]);
    expect(parseChat(bytes.toString("utf8")).messages).toHaveLength(4);
    const history = new ChatHistory({ vault: new FsVault(vault.root), folder: () => FOLDER });
    expect((await history.list()).chats.map((chat) => chat.path)).toEqual([path]);
  });

  it("exits 1 with one line, the note untouched, for a missing note and for a note that is not a chat", async () => {
    const plain = "---\ntags: [food]\n---\n# Soup\n\nOnions.\n";
    vault.write(`${FOLDER}/Soup chat.md`, plain);
    const before = readFileSync(join(vault.root, "Soup.md"));
    for (const named of [`${FOLDER}/Nowhere`, `${FOLDER}/Soup chat.md`, "Soup"]) {
      const { status, stdout, stderr } = await run("chat", [{ text: "never" }], ["--continue", named], "More?");
      expect(status).toBe(1);
      expect(stdout).toBe("");
      expect(stderr).toMatch(/^vault-copilot: [^\n]+\n$/);
      expect(server?.requests).toHaveLength(0);
    }
    expect(read(`${FOLDER}/Soup chat.md`)).toBe(plain);
    expect(readFileSync(join(vault.root, "Soup.md"))).toEqual(before);
    expect(chatNotes()).toEqual([`${FOLDER}/Soup chat.md`]);
  });
});

describe("chat --continue with a long history", () => {
  /** A saved chat of 8 exchanges of about 850 tokens each (Cyrillic and Thai). */
  function longChat(): string {
    const record = savedChat("chat-long", "Вопрос 1", "2026-12-01T10:00:00Z");
    record.messages = Array.from({ length: 8 }, (_, index) => [
      { role: "user" as const, time: "2026-12-01T10:00:00Z", text: `Вопрос ${index + 1}`, context: [] },
      { role: "assistant" as const, time: "2026-12-01T10:00:00Z", mode: "chat" as const, model: "test-model", status: "done" as const, parts: [{ type: "text" as const, text: `Ответ ${index + 1}: ${"слово สวัสดี ".repeat(70)}` }], earlier: [] },
    ]).flat();
    return vault.write(`${FOLDER}/Long chat.md`, serializeChat(record)).slice(vault.root.length + 1);
  }
  const questionsSent = () => (server?.requests[0]?.body.messages ?? []).filter((message) => message.role === "user").map((message) => message.content);

  it("--context-tokens N: sends the latest exchanges that fit, drops the oldest first, and says on stderr how many it left out", async () => {
    const path = longChat();
    const { status, stdout, stderr } = await run("chat", [{ text: "Коротко." }], ["--continue", path, "--context-tokens", "8000"], "Итог?");
    expect({ status, stdout }).toEqual({ status: 0, stdout: "Коротко.\n" });
    const sent = questionsSent();
    const kept = sent.length - 1;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(8);
    expect(sent).toEqual([...Array.from({ length: kept }, (_, index) => `Вопрос ${8 - kept + index + 1}`), "[User query]: Итог?"]);
    expect(stderr).toBe(
      `vault-copilot: ${8 - kept} earlier exchanges of this chat were left out of the request to fit the model's context window (8,000 tokens); the model does not see them.\n` +
        `vault-copilot: saved to ${path}\n`,
    );
    // The note keeps every exchange: only the request was cut.
    expect(parseChat(read(path)).messages).toHaveLength(18);
  });

  it("without the flag the model's own window (128k by default) holds the whole chat, and nothing is said", async () => {
    const path = longChat();
    const { status, stderr } = await run("chat", [{ text: "Всё." }], ["--continue", path], "Итог?");
    expect({ status, stderr }).toEqual({ status: 0, stderr: `vault-copilot: saved to ${path}\n` });
    expect(questionsSent()).toHaveLength(9);
  });

  it("refuses a --context-tokens that is not a whole number of tokens", async () => {
    for (const value of ["many", "12.5", "10"]) {
      const { status, stderr } = await run("chat", [{ text: "never" }], ["--context-tokens", value], "Hi");
      expect(status).toBe(2);
      expect(stderr).toContain(`--context-tokens takes a whole number of tokens from 1000 to 100000000, not "${value}"`);
    }
  });
});

describe("a chat note that cannot be written", () => {
  /** A saved chat whose answer was re-saved as Latin-1 (the way an old export leaves it): "Café crème" with é and è as single bytes. */
  async function latin1Chat(): Promise<{ path: string; bytes: Buffer }> {
    await run("chat", [{ text: "Café crème." }], ["--save"], "Какой кофе?");
    const [path = ""] = chatNotes();
    const latin1 = withLatin1(read(path), "Café crème.");
    writeFileSync(join(vault.root, path), latin1);
    return { path, bytes: latin1 };
  }

  it.each(["chat", "agent"] as const)("%s --continue refuses a note that is not UTF-8 before asking: exit 1, one line, the note untouched", async (command) => {
    const { path, bytes } = await latin1Chat();
    const { status, stdout, stderr } = await run(command, [{ text: "never sent" }], ["--continue", path], "И с молоком?");
    expect(status).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/^vault-copilot: [^\n]*is not UTF-8 text[^\n]*cannot be continued without rewriting it[^\n]*\n$/);
    expect(stderr).not.toContain("saved to");
    expect(server?.requests).toHaveLength(0);
    expect(readFileSync(join(vault.root, path)).equals(bytes)).toBe(true);
    expect(chatNotes()).toEqual([path]);
  });

  it("--continue refuses a read-only note before asking", async () => {
    await run("chat", [{ text: "Yes." }], ["--save"], "Read-only?");
    const [path = ""] = chatNotes();
    const before = read(path);
    chmodSync(join(vault.root, path), 0o444);
    const { status, stdout, stderr } = await run("chat", [{ text: "never sent" }], ["--continue", path], "Still there?");
    expect({ status, stdout }).toEqual({ status: 1, stdout: "" });
    expect(stderr).toMatch(/^vault-copilot: [^\n]*read-only[^\n]*\n$/);
    expect(server?.requests).toHaveLength(0);
    expect(read(path)).toBe(before);
  });

  it("never says \"saved to\" when the answer's write failed: the note turned read-only while the answer arrived", async () => {
    await run("chat", [{ text: "First." }], ["--save"], "One");
    const [path = ""] = chatNotes();
    const script: Script = () => {
      // The question is on disk by now; the answer's write will be refused.
      chmodSync(join(vault.root, path), 0o444);
      return { text: "Second answer, never saved." };
    };
    const { status, stdout, stderr } = await run("chat", script, ["--continue", path], "Two");
    expect(stdout).toBe("Second answer, never saved.\n");
    expect(status).toBe(1);
    expect(stderr).not.toContain("saved to");
    expect(stderr).toMatch(/could not be saved: [^\n]*read-only/);
    const messages = parseChat(read(path)).messages;
    expect(messages.at(-1)).toMatchObject({ role: "assistant", status: "partial" });
  });

  it("goes on in a new note, and says where, when the note stopped being UTF-8 while the answer arrived", async () => {
    await run("chat", [{ text: "Première." }], ["--save"], "Un");
    const [path = ""] = chatNotes();
    let latin1: Buffer = Buffer.alloc(0);
    const script: Script = () => {
      latin1 = withLatin1(read(path), "Première.");
      writeFileSync(join(vault.root, path), latin1);
      return { text: "Deuxième." };
    };
    const { status, stderr } = await run("chat", script, ["--continue", path], "Deux");
    expect(status).toBe(0);
    const [other = ""] = chatNotes().filter((note) => note !== path);
    expect(stderr).toContain(`"${path}" is no longer UTF-8 text, so it was left as it is; this chat goes on in "${other}"`);
    expect(stderr.endsWith(`vault-copilot: saved to ${other}\n`)).toBe(true);
    expect(readFileSync(join(vault.root, path)).equals(latin1)).toBe(true);
    expect(parseChat(read(other)).messages.map((message) => (message.role === "user" ? message.text : message.status))).toEqual(["Un", "done", "Deux", "done"]);
  });
});

describe("agent --save", () => {
  it("keeps the tool call in the note: its tool, arguments and result", async () => {
    const script: Script = [{ toolCalls: [{ name: "readNote", arguments: JSON.stringify({ notePath: "Soup.md" }) }] }, { text: "It holds onions and leeks." }];
    const { status, stdout, stderr } = await run("agent", script, ["--tools", "readNote", "--save"], "What is in my soup note?");
    expect(status).toBe(0);
    expect(stdout).toBe("It holds onions and leeks.\n");
    const notes = chatNotes();
    expect(notes).toHaveLength(1);
    expect(stderr).toContain(`vault-copilot: saved to ${notes[0]}\n`);
    const text = read(notes[0] ?? "");
    expect(text).toMatch(/^> \[!tool\][-+]? .*readNote/m);
    const answer = parseChat(text).messages[1] as RecordAnswer;
    expect(answer).toMatchObject({ role: "assistant", mode: "agent", status: "done" });
    const [call, closing] = answer.parts;
    expect(call).toMatchObject({ type: "tool", name: "readNote", status: "ok" });
    expect(call?.type === "tool" && JSON.parse(call.args)).toEqual({ notePath: "Soup.md" });
    expect(call?.type === "tool" && call.result).toContain("Onions and leeks.");
    expect(closing).toEqual({ type: "text", text: "It holds onions and leeks." });
  });
});

describe("qa and run keep their exchange as chat notes too", () => {
  it("qa --save writes a Vault QA chat whose answer cites the note it was given, and --continue adds to it", async () => {
    const { status, stdout, stderr } = await run("qa", [{ text: "Onions and leeks, see [[Soup]]." }], ["--save"], "Что в супе?");
    expect(status).toBe(0);
    expect(stdout).toContain("Onions and leeks");
    const [path = ""] = chatNotes();
    expect(stderr).toBe(`vault-copilot: saved to ${path}\n`);
    const first = parseChat(read(path));
    expect(first.mode).toBe("vault-qa");
    expect(first.messages[0]).toMatchObject({ role: "user", text: "Что в супе?" });
    expect(first.messages[1]).toMatchObject({ role: "assistant", status: "done", mode: "vault-qa" });

    const again = await run("qa", [{ text: "Nothing else." }], ["--continue", path], "Что ещё?");
    expect(again.status).toBe(0);
    expect(chatNotes()).toEqual([path]);
    // The earlier turn went to the model as history, and the note holds both exchanges.
    expect(JSON.stringify(server!.requests.at(-1)?.body)).toContain("Что в супе?");
    expect(parseChat(read(path)).messages.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant"]);
  });

  it("run --save writes the prompt's exchange: its text as the question, the answer after it", async () => {
    writeFileSync(join(vault.root, "Soup.md"), "Onions and leeks.\n");
    const prompts = join(vault.root, "copilot", "prompts");
    mkdirSync(prompts, { recursive: true });
    writeFileSync(join(prompts, "Summarize 要約.md"), "Summarize {{activeNote}} in one line.\n");
    server = await startOpenAIServer([{ text: "A leek and onion soup." }]);
    const { status, stdout, stderr } = await runCli(["run", "--vault", vault.root, "--base-url", server.baseUrl, "--model", "test-model", "--prompt", "Summarize 要約", "--note", "Soup.md", "--save"]);
    expect(status).toBe(0);
    expect(stdout).toContain("A leek and onion soup.");
    const [path = ""] = chatNotes();
    expect(stderr).toBe(`vault-copilot: saved to ${path}\n`);
    const record = parseChat(read(path));
    expect(record.messages).toHaveLength(2);
    expect(record.messages[1]).toMatchObject({ role: "assistant", status: "done", parts: [{ type: "text", text: "A leek and onion soup." }] });
  });
});
