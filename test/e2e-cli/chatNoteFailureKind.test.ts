/**
 * A chat note whose tool callout keeps a failed call's kind (the `%%failure: …%%` line) still
 * reads in the built CLI: `chat --continue` goes on from it, and writes the line back as it was.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseChat, serializeChat } from "../../src/history/chatNoteFormat";
import type { ChatRecord } from "../../src/history/chatRecord";
import { runBundle, useCliBundle } from "../helpers/cliBundle";
import { startOpenAIServer, type OpenAIServer } from "../helpers/openAIServer";
import { makeTempVault, type TempVault } from "../helpers/tempVault";

jest.setTimeout(90_000);

const NOTE = "copilot/chats/2026-12-01 Где заметка.md";
const MISSING = "Нет такой 笔记 🌱 100%%.md";

const bundle = useCliBundle();
let vault: TempVault;
let server: OpenAIServer;

afterAll(async () => {
  vault.remove();
  await server.close();
});

const CHAT: ChatRecord = {
  id: "chat-missing",
  mode: "agent",
  model: "test-model",
  created: "2026-12-01T10:00:00Z",
  updated: "2026-12-01T10:00:05Z",
  tags: ["copilot-chat"],
  extraFrontmatter: "",
  preamble: "",
  messages: [
    { role: "user", time: "2026-12-01T10:00:00Z", text: "Прочитай заметку", context: [] },
    {
      role: "assistant",
      time: "2026-12-01T10:00:01Z",
      mode: "agent",
      model: "test-model",
      status: "done",
      parts: [
        { type: "tool", name: "readNote", args: JSON.stringify({ notePath: MISSING }, null, 2), status: "error", durationMs: 3, result: `Tool "readNote" failed: No note matches "${MISSING}".`, failure: { kind: "note-not-found", values: { note: MISSING } } },
        { type: "text", text: "Не нашёл 😔" },
      ],
      earlier: [],
    },
  ],
};

it("goes on from a note whose tool callout keeps a failure's kind, and keeps the line", async () => {
  const written = serializeChat(CHAT);
  const failureLine = written.split("\n").find((line) => line.startsWith("> %%failure: "));
  expect(failureLine).toBe(`> %%failure: note-not-found {"note":"Нет такой 笔记 🌱 100\\u0025\\u0025.md"}%%`);
  vault = makeTempVault({ [NOTE]: written });
  server = await startOpenAIServer(() => ({ text: "Тогда создам её ✍️" }));

  const run = await runBundle(bundle.path, ["chat", "--vault", vault.root, "--base-url", server.baseUrl, "--model", "test-model", "--continue", NOTE, "А теперь?"]);
  expect(run).toEqual({ status: 0, stdout: "Тогда создам её ✍️\n", stderr: `vault-copilot: saved to ${NOTE}\n` });
  // The model read the chat so far: the answer the failed call led to, then the new question.
  const sent = server.requests[0]!.body.messages.map((message) => message.content);
  expect(sent).toContainEqual("Не нашёл 😔");

  const after = readFileSync(join(vault.root, NOTE), "utf8");
  expect(after.split("\n")).toContain(failureLine);
  const messages = parseChat(after).messages;
  expect(messages).toHaveLength(4);
  expect(messages[1]).toEqual(CHAT.messages[1]);
});
