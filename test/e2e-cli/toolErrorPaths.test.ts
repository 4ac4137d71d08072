/**
 * What the model is told about a file it could not have names the vault path only, never where
 * the vault sits on the machine: the CLI's `agent` (in-process, the real command table) over a
 * temporary folder holding a folder, links out of the vault and in circles, an unreadable note and
 * a name too long for the disk, against the scripted OpenAI-compatible server, whose every request
 * body is searched for the folder's absolute paths.
 */
import { chmodSync, lchownSync, lstatSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI_COMMANDS } from "../../src/cli/commands";
import { main } from "../../src/cli/index";
import { startOpenAIServer, type OpenAIServer, type ScriptedToolCall } from "../helpers/openAIServer";
import { makeTempVault, type TempVault } from "../helpers/tempVault";

jest.setTimeout(60_000);

const NOBODY = 65534;
const LONG_NAME = `${"Заметка".repeat(40)}.md`;

let vault: TempVault;
let outside: string;
let server: OpenAIServer | undefined;

beforeEach(() => {
  vault = makeTempVault({ "Plan.md": "# Plan\n", "Папка/Запись.md": "запись\n", "Закрыто.md": "nobody may read this\n" });
  outside = mkdtempSync(join(tmpdir(), "outside-"));
  writeFileSync(join(outside, "Чужое.md"), "outside the vault\n");
  chmodSync(outside, 0o755);
  symlinkSync(join(outside, "Чужое.md"), join(vault.root, "Наружу.md"));
  symlinkSync(outside, join(vault.root, "Внешняя папка"));
  symlinkSync(join(vault.root, "Круг-2.md"), join(vault.root, "Круг-1.md"));
  symlinkSync(join(vault.root, "Круг-1.md"), join(vault.root, "Круг-2.md"));
  chmodSync(join(vault.root, "Закрыто.md"), 0o000);
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  vault.remove();
  rmSync(outside, { recursive: true, force: true });
});

const call = (name: string, args: object): ScriptedToolCall => ({ name, arguments: JSON.stringify(args) });

async function runAgent(toolCalls: ScriptedToolCall[]): Promise<{ status: number; toolResults: string[]; bodies: string[] }> {
  server = await startOpenAIServer([{ toolCalls }, { text: "Готово." }]);
  const io = { stdout: () => undefined, stderr: () => undefined, env: {}, signal: new AbortController().signal };
  const status = await main(["agent", "--vault", vault.root, "--base-url", server.baseUrl, "--model", "m", "--json", "--yes", "Прочитай заметки"], io, CLI_COMMANDS);
  const toolResults = (server.requests[1]?.body.messages ?? []).filter((message) => message.role === "tool").map((message) => String(message.content));
  return { status, toolResults, bodies: server.requests.map((request) => request.rawBody) };
}

/** Runs as an ordinary user when the tests run as root, who may read anything. */
async function asOrdinaryUser<T>(work: () => Promise<T>): Promise<T> {
  if (process.getuid?.() !== 0) return work();
  await work(); // loads every module while root may
  await server?.close();
  chownTree(vault.root, NOBODY);
  process.seteuid?.(NOBODY);
  try {
    return await work();
  } finally {
    process.seteuid?.(0);
  }
}

describe("tool errors sent to the model", () => {
  it("name the vault path only: a missing note, a folder, links out, links in a circle, an unreadable note, a name too long", async () => {
    const calls = [
      call("readNote", { notePath: "Нет такой.md" }),
      call("readNote", { notePath: "Папка" }),
      call("readNote", { notePath: "Наружу.md" }),
      call("readNote", { notePath: "Внешняя папка/Чужое.md" }),
      call("readNote", { notePath: "Закрыто.md" }),
      call("writeToFile", { path: "Круг-1.md", content: "x" }),
      call("writeToFile", { path: "Наружу.md", content: "x" }),
      call("writeToFile", { path: "Plan.md/Внутри.md", content: "x" }),
      call("writeToFile", { path: LONG_NAME, content: "x" }),
      call("replaceInFile", { path: "Закрыто.md", oldText: "nobody", newText: "x" }),
    ];
    const { status, toolResults, bodies } = await asOrdinaryUser(() => runAgent(calls));
    expect(status).toBe(0);
    expect(toolResults).toHaveLength(calls.length);

    const absolute = new Set([vault.root, realpathSync(vault.root), outside, realpathSync(outside), tmpdir()]);
    for (const body of bodies) {
      for (const path of absolute) expect(body.includes(path)).toBe(false);
      expect(body).not.toMatch(/'\/[^']*'/);
    }
    // Each failure was told, by its vault path and what went wrong.
    expect(toolResults[0]).toContain('No note matches "Нет такой.md"');
    expect(toolResults[1]).toContain('"Папка"');
    expect(toolResults[2]).toContain("Наружу.md");
    expect(toolResults[3]).toContain("Внешняя папка/Чужое.md");
    expect(toolResults[4]).toMatch(/Could not read "Закрыто\.md": permission denied \(EACCES\)/);
    expect(toolResults[5]).toMatch(/"Круг-1\.md": too many symbolic links encountered \(ELOOP\)/);
    expect(toolResults[6]).toContain('Refused path "Наружу.md": it leads outside the vault through a symbolic link');
    expect(toolResults[7]).toContain('Could not create "Plan.md/Внутри.md": a name on its way is a file, not a folder');
    expect(toolResults[8]).toMatch(/name too long \(ENAMETOOLONG\)/);
    expect(toolResults[9]).toMatch(/"Закрыто\.md": permission denied \(EACCES\)/);
  });
});

/** chown without following links: the vault's links point outside or in circles. */
function chownTree(path: string, uid: number): void {
  lchownSync(path, uid, uid);
  if (lstatSync(path).isDirectory()) for (const name of readdirSync(path)) chownTree(join(path, name), uid);
}
