import { vaultContents } from "../helpers/vaultContents";
import { EVERYTHING_SERVER } from "../helpers/mcpServers";
import { startOpenAIServer, type OpenAIServer } from "../helpers/openAIServer";
import { runCli } from "../helpers/runCli";
import { makeTempVault, type TempVault } from "../helpers/tempVault";

/**
 * `chat --save` and `agent --save` with secrets typed into the first question (the key of
 * --api-key-env, an MCP config's env value): no secret is stored anywhere in the vault, neither in
 * a file's bytes nor in a file's or folder's name, though the note's name comes from that question.
 */

jest.setTimeout(60_000);

// An HTTP header holds ASCII only; the MCP value goes to a process environment and may be any text.
const KEY = "sk-proj-7Qx-9f3e2d1c0b4a";
const MCP_TOKEN = "mcp-токен-令牌-5b8e7a";

let vault: TempVault;
let outside: TempVault;
let server: OpenAIServer | undefined;
beforeEach(() => {
  vault = makeTempVault({ "Соус.md": "Лук и чеснок.\n" });
  outside = makeTempVault({}, "vault-copilot-outside-");
});
afterEach(async () => {
  vault.remove();
  outside.remove();
  await server?.close();
  server = undefined;
});


function expectNowhere(secrets: readonly string[]): void {
  const all = vaultContents(vault.root);
  const chats = [...all.keys()].filter((path) => path.startsWith("copilot/chats/") && path.endsWith(".md"));
  expect(chats).toHaveLength(1);
  for (const secret of secrets) {
    for (const [path, bytes] of all) {
      expect(path).not.toContain(secret);
      expect(path.normalize("NFC")).not.toContain(secret.normalize("NFC"));
      expect(bytes).not.toContain(secret);
    }
  }
}

it("chat --save: a key typed as the first question's first words is in neither the note's name nor its text", async () => {
  server = await startOpenAIServer([{ text: `Noted: ${KEY}.` }]);
  const question = `${KEY} is my key, 秘密 🔑`;
  const { status, stderr } = await runCli(
    ["chat", "--vault", vault.root, "--base-url", server.baseUrl, "--model", "test-model", "--api-key-env", "PLANTED_KEY", "--save", question],
    { PLANTED_KEY: KEY },
  );
  expect(status).toBe(0);
  expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  const [chat = ""] = [...vaultContents(vault.root).keys()].filter((path) => path.startsWith("copilot/chats/"));
  expect(chat).toMatch(/^copilot\/chats\/\d{4}-\d{2}-\d{2} redacted is my key, 秘密 🔑\.md$/);
  expect(stderr).toBe(`vault-copilot: saved to ${chat}\n`);
  expectNowhere([KEY]);
});

it("agent --save: an MCP config's env value and the key typed into the question are stored nowhere in the vault", async () => {
  server = await startOpenAIServer([{ text: `Both: ${MCP_TOKEN} ${KEY}` }]);
  const config = outside.write("mcp.json", JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_SERVER, "stdio"], env: { PLANTED_TOKEN: MCP_TOKEN } } } }));
  const question = `Token ${MCP_TOKEN} and key ${KEY}: keep them`;
  const { status, stderr } = await runCli(
    ["agent", "--vault", vault.root, "--base-url", server.baseUrl, "--model", "test-model", "--api-key-env", "PLANTED_KEY", "--mcp-config", config, "--tools", "readNote", "--save", question],
    { PLANTED_KEY: KEY },
  );
  expect(status).toBe(0);
  const [chat = ""] = [...vaultContents(vault.root).keys()].filter((path) => path.startsWith("copilot/chats/"));
  expect(chat).toMatch(/^copilot\/chats\/\d{4}-\d{2}-\d{2} Token redacted and key redacted keep them\.md$/);
  expect(stderr).toContain(`vault-copilot: saved to ${chat}\n`);
  expectNowhere([KEY, MCP_TOKEN]);
});

it("agent --save: a key in a failed call's kind (the note it named, which is not there) is kept out of the note, though its line writes '%' as \\u0025", async () => {
  // ASCII, as a header needs, with a '%' the failure line escapes: the redaction has to find it there too.
  const key = "sk-100%-Qx7-9f3e";
  server = await startOpenAIServer([{ toolCalls: [{ name: "readNote", arguments: JSON.stringify({ notePath: `Заметки/${key} 笔记.md` }) }] }, { text: "Такой заметки нет 🤷" }]);
  const { status, stderr } = await runCli(
    ["agent", "--vault", vault.root, "--base-url", server.baseUrl, "--model", "test-model", "--api-key-env", "PLANTED_KEY", "--tools", "readNote", "--save", "Прочитай заметку ✨"],
    { PLANTED_KEY: key },
  );
  expect(status).toBe(0);
  expect(stderr).toContain("vault-copilot: saved to copilot/chats/");
  const [chat = ""] = [...vaultContents(vault.root).keys()].filter((path) => path.startsWith("copilot/chats/"));
  const note = vaultContents(vault.root).get(chat) ?? "";
  expect(note).toContain("> %%failure: note-not-found ");
  expect(note).not.toContain(key.replace(/%/g, "\\u0025"));
  expectNowhere([key]);
});
