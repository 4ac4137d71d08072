import { existsSync } from "node:fs";
import { join } from "node:path";
import { USER_QUERY_LABEL } from "../../context/cicPromptUtils";
import { runCli } from "../../../test/helpers/runCli";
import { contentText } from "../../../test/helpers/runnerHarness";
import { startOpenAIServer, type OpenAIServer, type Script } from "../../../test/helpers/openAIServer";
import { makeTempVault, type TempVault } from "../../../test/helpers/tempVault";

jest.setTimeout(60_000);

let server: OpenAIServer | undefined;
let vault: TempVault;

beforeEach(() => {
  vault = makeTempVault({
    "Projects/Alpha plan.md": "# Alpha plan\n\nThe Alpha budget is 42,000 euros.\n",
    "Recipes/Soup.md": "# Soup\n\nOnions, stock, an hour of patience.\n",
  });
});
afterEach(async () => {
  vault.remove();
  await server?.close();
  server = undefined;
});

async function qa(script: Script, flags: string[] = [], prompt = "What is the Alpha budget?", env: Record<string, string> = {}) {
  server = await startOpenAIServer(script);
  return runCli(["qa", "--vault", vault.root, "--base-url", server.baseUrl, "--model", "test-model", ...flags, prompt], env);
}

function firstRequest(): NonNullable<OpenAIServer["requests"][number]> {
  const request = server?.requests[0];
  if (!request) throw new Error("the model server received no request");
  return request;
}

describe("vault-copilot qa", () => {
  it("sends the found notes before the question (guidance, documents, question last) and prints the cited answer", async () => {
    const { status, stdout, stderr } = await qa([{ text: "The budget is 42,000 euros [[Alpha plan]]." }], ["--api-key-env", "MY_KEY"], "What is the Alpha budget?", {
      MY_KEY: "sk-qa-key",
    });
    expect({ status, stderr }).toEqual({ status: 0, stderr: "" });
    expect(stdout).toBe("The budget is 42,000 euros [[Alpha plan]].\n");

    const request = firstRequest();
    expect(request.headers.authorization).toBe("Bearer sk-qa-key");
    expect(request.body.tools).toBeUndefined();
    const user = contentText(request.body.messages.at(-1)?.content);
    const guidance = user.indexOf("<guidance>");
    const document = user.indexOf('path="Projects/Alpha plan.md"');
    const noteText = user.indexOf("The Alpha budget is 42,000 euros.");
    const question = user.indexOf(`${USER_QUERY_LABEL} What is the Alpha budget?`);
    expect(guidance).toBeGreaterThanOrEqual(0);
    expect(document).toBeGreaterThan(guidance);
    expect(noteText).toBeGreaterThan(document);
    expect(question).toBeGreaterThan(noteText);
    expect(user.endsWith(`${USER_QUERY_LABEL} What is the Alpha budget?`)).toBe(true);
    // A note that does not match is not sent.
    expect(user).not.toContain("Onions");
    expect(contentText(request.body.messages[0]?.content)).toMatch(/\[\[Note title\]\]/);
  });

  it("keeps the index in the vault's plugin folder, as search does", async () => {
    const { status } = await qa([{ text: "ok" }]);
    expect(status).toBe(0);
    expect(existsSync(join(vault.root, ".obsidian/plugins/vault-copilot"))).toBe(true);
  });

  it("prints one JSON event per line with --json, the sources first", async () => {
    const { status, stdout } = await qa([{ text: "42,000 euros [[Alpha plan]]." }], ["--json"]);
    expect(status).toBe(0);
    const events = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; results?: Array<{ path: string }>; text?: string });
    expect(events[0]?.type).toBe("sources");
    expect(events[0]?.results?.map((result) => result.path)).toEqual(["Projects/Alpha plan.md"]);
    expect(events.filter((event) => event.type !== "text-delta").map((event) => event.type)).toEqual(["sources", "step-end", "final"]);
    expect(events.at(-1)).toMatchObject({ type: "final", text: "42,000 euros [[Alpha plan]]." });
  });

  it("exits 2 with the usage line when --vault or the prompt is missing", async () => {
    const cases = [
      ["qa", "--base-url", "http://127.0.0.1:1/v1", "--model", "m", "What is the Alpha budget?"],
      ["qa", "--vault", vault.root, "--base-url", "http://127.0.0.1:1/v1", "--model", "m"],
      ["qa", "--vault", vault.root, "--base-url", "http://127.0.0.1:1/v1", "--model", "m", "--tools", "readNote", "hi"],
    ];
    for (const argv of cases) {
      const { status, stdout, stderr } = await runCli(argv);
      expect({ argv, status, stdout }).toEqual({ argv, status: 2, stdout: "" });
      expect(stderr).toMatch(/^vault-copilot: .+\nusage: vault-copilot/);
      expect(stderr).toMatch(/vault-copilot qa +--vault DIR/);
    }
    expect((await runCli(cases[0]!)).stderr).toMatch(/^vault-copilot: --vault is required\n/);
  });

  it("exits 1 with one clear line when the model server refuses the key", async () => {
    const { status, stdout, stderr } = await qa([{ status: 401, message: "Invalid key" }]);
    expect(status).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/^vault-copilot: the model server \(http:\/\/127\.0\.0\.1:\d+\/v1\) refused the API key \(HTTP 401: Invalid key\)\. Check the API key in the settings\.\n$/);
  });
});
