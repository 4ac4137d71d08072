import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { USER_QUERY_LABEL } from "../../context/cicPromptUtils";
import { EDIT_ANSWER_INSTRUCTION } from "../../prompts/fillPrompt";
import { RUN_WRITE_REFUSAL } from "./runCommand";
import { runCli } from "../../../test/helpers/runCli";
import { contentText } from "../../../test/helpers/runnerHarness";
import { startOpenAIServer, type OpenAIServer, type Script } from "../../../test/helpers/openAIServer";
import { makeTempVault, type TempVault } from "../../../test/helpers/tempVault";

jest.setTimeout(60_000);

const DRAFT = "# Draft\n\nThis sentense has a eror.\nThe second line stays.\n";

let server: OpenAIServer | undefined;
let vault: TempVault;

beforeEach(() => {
  vault = makeTempVault({
    "Notes/Draft.md": DRAFT,
    "copilot/prompts/Fix grammar.md": "---\ndescription: Fix grammar\nedit: true\n---\nFix the grammar of {{selection}}.\n",
    "copilot/prompts/Summarize.md": "---\ndescription: Summarize\n---\nSummarize {{activeNote}} for {{date}}.\n",
    "copilot/prompts/Broken.md": "---\nedit: maybe\n---\nBody\n",
  });
});
afterEach(async () => {
  vault.remove();
  await server?.close();
  server = undefined;
});

async function run(script: Script, flags: string[]) {
  server ??= await startOpenAIServer(script);
  return runCli(["run", "--vault", vault.root, "--base-url", server.baseUrl, "--model", "test-model", ...flags]);
}

const note = () => readFileSync(join(vault.root, "Notes/Draft.md"), "utf8");

describe("vault-copilot run", () => {
  it("runs a prompt note with the open note attached before the question, and prints the answer", async () => {
    const { status, stdout, stderr } = await run([{ text: "A draft with an error." }], ["--prompt", "summarize", "--note", "Notes/Draft"]);
    expect(status).toBe(0);
    expect(stdout).toBe("A draft with an error.\n");
    // The broken prompt is reported; the others still load.
    expect(stderr).toBe('vault-copilot: The prompt "copilot/prompts/Broken.md" was not loaded: its "edit" is not true or false.\n');
    const user = contentText(server?.requests[0]?.body.messages.at(-1)?.content);
    const document = user.indexOf("This sentense has a eror.");
    const question = user.indexOf(`${USER_QUERY_LABEL} Summarize the note [[Notes/Draft]] (attached above) for `);
    expect(document).toBeGreaterThan(-1);
    expect(question).toBeGreaterThan(document);
    expect(user).toMatch(/for \d{4}-\d{2}-\d{2}\.$/);
  });

  it("--apply without --yes changes nothing and says it needs approval", async () => {
    const { status, stdout, stderr } = await run([{ text: "This sentence has an error." }], ["--prompt", "Fix grammar", "--note", "Notes/Draft.md", "--selection", "This sentense has a eror.", "--apply"]);
    expect(stdout).toBe("This sentence has an error.\n");
    expect(status).toBe(1);
    expect(stderr).toContain("replacing the selection needs approval: run again with --yes. Notes/Draft.md was not changed.");
    expect(note()).toBe(DRAFT);
    const user = contentText(server?.requests[0]?.body.messages.at(-1)?.content);
    expect(user).toContain(`Fix the grammar of the selected text (attached above).\n\n${EDIT_ANSWER_INSTRUCTION}`);
  });

  it("--apply --yes replaces exactly the selection, and the edit can be undone like the agent's", async () => {
    const { status, stderr } = await run([{ text: "This sentence has an error.\n" }], ["--prompt", "Fix grammar", "--note", "Notes/Draft.md", "--selection", "This sentense has a eror.", "--apply", "--yes"]);
    expect({ status }).toEqual({ status: 0 });
    expect(stderr).toContain("replaced the selection in Notes/Draft.md");
    expect(note()).toBe("# Draft\n\nThis sentence has an error.\nThe second line stays.\n");
    const history = readdirSync(join(vault.root, ".obsidian/plugins/vault-copilot"));
    expect(history.some((file) => file.startsWith("edit-history"))).toBe(true);
  });

  it("--apply --yes with an agent prompt approves the selection's replacement only: the agent's own writes are refused, and it says so", async () => {
    vault.write("copilot/prompts/Правка.md", "---\nedit: true\nmode: agent\n---\nИсправь {{selection}}.\n");
    const script: Script = [
      {
        toolCalls: [
          { name: "writeToFile", arguments: JSON.stringify({ path: "Notes/Чужая.md", content: "# Не просили\n" }) },
          { name: "replaceInFile", arguments: JSON.stringify({ path: "Notes/Draft.md", oldText: "The second line stays.", newText: "洗掉 🦓" }) },
        ],
      },
      { text: "This sentence has an error." },
    ];
    const { status, stderr } = await run(script, ["--prompt", "Правка", "--note", "Notes/Draft.md", "--selection", "This sentense has a eror.", "--apply", "--yes"]);
    expect(status).toBe(0);
    // The replacement --yes approved is made; nothing else the agent tried to write is.
    expect(note()).toBe("# Draft\n\nThis sentence has an error.\nThe second line stays.\n");
    expect(existsSync(join(vault.root, "Notes/Чужая.md"))).toBe(false);
    expect(stderr).toContain(`vault-copilot: ${RUN_WRITE_REFUSAL} (writeToFile, Notes/Чужая.md)`);
    expect(stderr).toContain(`vault-copilot: ${RUN_WRITE_REFUSAL} (replaceInFile, Notes/Draft.md)`);
    expect(stderr).toContain("replaced the selection in Notes/Draft.md");
    // The model is told why, so it does not ask for --yes again.
    const results = (server?.requests[1]?.body.messages ?? []).filter((message) => message.role === "tool").map((message) => contentText(message.content));
    expect(results).toHaveLength(2);
    for (const result of results) expect(result).toContain(RUN_WRITE_REFUSAL);
  });

  it("--apply without --yes with an agent prompt writes nothing at all", async () => {
    vault.write("copilot/prompts/Правка.md", "---\nedit: true\nmode: agent\n---\nИсправь {{selection}}.\n");
    const script: Script = [{ toolCalls: [{ name: "writeToFile", arguments: JSON.stringify({ path: "Notes/Чужая.md", content: "x" }) }] }, { text: "Fixed." }];
    const { status, stderr } = await run(script, ["--prompt", "Правка", "--note", "Notes/Draft.md", "--selection", "This sentense has a eror.", "--apply"]);
    expect(status).toBe(1);
    expect(note()).toBe(DRAFT);
    expect(existsSync(join(vault.root, "Notes/Чужая.md"))).toBe(false);
    expect(stderr).toContain(`vault-copilot: ${RUN_WRITE_REFUSAL} (writeToFile, Notes/Чужая.md)`);
    expect(stderr).toContain("replacing the selection needs approval: run again with --yes.");
  });

  it("changes nothing when the selection is not in the note exactly once", async () => {
    vault.write("Notes/Draft.md", `${DRAFT}This sentense has a eror.\n`);
    const { status, stderr } = await run([{ text: "Fixed." }], ["--prompt", "Fix grammar", "--note", "Notes/Draft.md", "--selection", "This sentense has a eror.", "--apply", "--yes"]);
    expect(status).toBe(1);
    expect(stderr).toContain("the selection was not replaced");
    expect(note()).toBe(`${DRAFT}This sentense has a eror.\n`);
  });

  it("refuses bad arguments before asking the model", async () => {
    const unknown = await run([], ["--prompt", "Nope"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('no prompt named "Nope" in copilot/prompts/ (there are: Fix grammar, Summarize)');
    const notEdit = await run([], ["--prompt", "Summarize", "--note", "Notes/Draft.md", "--selection", "x", "--apply"]);
    expect(notEdit.status).toBe(2);
    expect(notEdit.stderr).toContain('"Summarize" is not one');
    const noSelection = await run([], ["--prompt", "Fix grammar", "--apply", "--note", "Notes/Draft.md"]);
    expect(noSelection.status).toBe(2);
    expect(server?.requests).toHaveLength(0);
    expect(note()).toBe(DRAFT);
  });
});
