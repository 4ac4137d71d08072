import { runCli } from "../../../test/helpers/runCli";
import { startAnthropicServer } from "../../../test/helpers/anthropicServer";
import { startOpenAIServer, type OpenAIServer, type Script } from "../../../test/helpers/openAIServer";
import { makeTempVault, type TempVault } from "../../../test/helpers/tempVault";

jest.setTimeout(60_000);

const NOTE = "---\ntags: [日记]\n---\n# 周报\n\n这周我们完成了 🎉 第一版，下一步\n\n```js\nconst x = 1;\n```\n\nSee [[Встреча]] and more";

let server: OpenAIServer | undefined;
let vault: TempVault;

beforeEach(() => {
  vault = makeTempVault({ "Заметки/周报.md": NOTE });
});
afterEach(async () => {
  vault.remove();
  await server?.close();
  server = undefined;
});

/** OFFSET in code points, as the command counts: an emoji is one character. */
const offsetAfter = (text: string) => [...NOTE.slice(0, NOTE.indexOf(text) + text.length)].length;

async function complete(script: Script, flags: string[]) {
  server = await startOpenAIServer(script);
  return runCli(["complete", "--vault", vault.root, "--base-url", server.baseUrl, "--model", "small", "--note", "Заметки/周报.md", ...flags]);
}

describe("vault-copilot complete", () => {
  it("prints the continuation at the offset, counted in characters (an emoji is one), and nothing else", async () => {
    const { status, stdout, stderr } = await complete([{ text: "是发布测试版。" }], ["--at", String(offsetAfter("下一步"))]);
    expect({ status, stderr }).toEqual({ status: 0, stderr: "" });
    expect(stdout).toBe("是发布测试版。");
    const request = server!.requests[0]!;
    expect(request.body.tools).toBeUndefined();
    expect(request.body.max_tokens).toBe(64);
    expect(JSON.stringify(request.body.messages)).toContain("下一步<cursor/>");
    expect(JSON.stringify(request.body.messages)).toContain('title=\\"周报\\"');
  });

  it("--json prints the completion and its usage", async () => {
    const { status, stdout } = await complete([{ text: " и дальше", usage: { prompt_tokens: 120, completion_tokens: 3 } }], ["--at", String(offsetAfter("and more")), "--json"]);
    expect(status).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ completion: " и дальше", usage: { inputTokens: 120, outputTokens: 3, cacheReadTokens: 0, cacheWriteTokens: 0 } });
  });

  it.each([
    ["frontmatter", "tags: [日记", "the cursor is in the note's frontmatter"],
    ["fenced code", "const x = 1;", "the cursor is in a fenced code block"],
    ["a [[link]]", "[[Встре", "the cursor is inside a [[link]]"],
  ])("inside %s prints nothing, sends nothing, exits 0 and says why on stderr", async (_place, before, reason) => {
    const at = offsetAfter(before);
    const { status, stdout, stderr } = await complete([], ["--at", String(at)]);
    expect({ status, stdout }).toEqual({ status: 0, stdout: "" });
    expect(stderr).toBe(`vault-copilot: no completion at Заметки/周报.md:${at}: ${reason}\n`);
    expect(server!.requests).toHaveLength(0);
  });

  it("refuses an offset past the note's end with a usage line (exit 2)", async () => {
    const { status, stderr } = await complete([], ["--at", "100000"]);
    expect(status).toBe(2);
    expect(stderr).toContain(`--at 100000 is past the end of Заметки/周报.md, which has ${[...NOTE].length} characters`);
    expect(stderr).toContain("vault-copilot complete --vault DIR");
  });

  it("refuses a missing or negative --at (exit 2)", async () => {
    expect((await complete([], [])).status).toBe(2);
    await server!.close();
    expect((await complete([], ["--at", "-3"])).status).toBe(2);
    expect(server!.requests).toHaveLength(0);
  });

  it("exits 1 with one line when the server refuses", async () => {
    const { status, stdout, stderr } = await complete([{ status: 404, message: "model small not found", code: "model_not_found" }], ["--at", String(offsetAfter("下一步"))]);
    expect({ status, stdout }).toEqual({ status: 1, stdout: "" });
    expect(stderr).toBe("vault-copilot: HTTP 404: model small not found\n");
  });

  it("with Related notes on in the vault's settings, sends passages of other notes from the index (not the note itself, not a saved chat)", async () => {
    vault.write(".obsidian/plugins/vault-copilot/data.json", JSON.stringify({ completion: { relatedNotes: true } }));
    vault.write("Проекты/Бета.md", "# 发布计划\n\n下一步是发布测试版，日期定在三月。");
    vault.write("copilot/chats/2026-12-01 发布.md", "---\nchat-id: a\n---\n## You · x\n\n下一步是发布什么？\n");
    const { status, stdout, stderr } = await complete([{ text: "是发布测试版。" }], ["--at", String(offsetAfter("下一步"))]);
    expect({ status, stdout, stderr }).toEqual({ status: 0, stdout: "是发布测试版。", stderr: "" });
    const user = String(server!.requests[0]!.body.messages[1]!.content);
    expect(user).toMatch(/^<related-notes>\n<passage note="Бета" heading="发布计划">\n下一步是发布测试版，日期定在三月。\n<\/passage>\n<\/related-notes>\n\n<note title="周报">/);
    expect(user).not.toContain("chat-id");
  });

  it("--provider anthropic sends the Messages API's request, no tools", async () => {
    const anthropic = await startAnthropicServer([{ text: "是发布。" }]);
    try {
      const { status, stdout } = await runCli(
        ["complete", "--vault", vault.root, "--provider", "anthropic", "--base-url", anthropic.baseUrl, "--model", "claude-small", "--api-key-env", "KEY", "--note", "周报", "--at", String(offsetAfter("下一步"))],
        { KEY: "sk-ant-test-key-123456" },
      );
      expect({ status, stdout }).toEqual({ status: 0, stdout: "是发布。" });
      expect(anthropic.requests[0]!.body.tools).toBeUndefined();
      expect(anthropic.requests[0]!.body.stop_sequences).toEqual(["\n\n"]);
    } finally {
      await anthropic.close();
    }
  });
});
