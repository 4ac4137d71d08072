/**
 * An `agent --yes` killed (SIGKILL, nothing runs after it) while it writes an approved edit of a
 * large note: the note is the old text or the new one, never a mix, and the next run edits it as
 * usual (the dead run's lock is taken over; its temporary file stays hidden from the vault). The
 * kill points are spread over the run's life and tied to the moment its temporary file appears.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildCliBundle } from "../helpers/cliBundle";
import { startOpenAIServer, type OpenAIServer } from "../helpers/openAIServer";
import { makeTempVault, type TempVault } from "../helpers/tempVault";

jest.setTimeout(120_000);

/** Large enough that writing it takes a while: the kill can land between the temporary file and the rename. */
const OLD = `# Big\n\n${"old line of the note\n".repeat(300_000)}`;
const NEW = `# Big\n\n${"new line, written by the agent\n".repeat(300_000)}`;
const TEMPORARY = /^\.Big\.md\.vault-copilot-\d+-[0-9a-f]{8}\.tmp$/;

let bundleFolder: string;
let bundle: string;
let server: OpenAIServer | undefined;

beforeAll(async () => {
  bundleFolder = mkdtempSync(join(tmpdir(), "vault-copilot-crash-edit-"));
  bundle = await buildCliBundle(bundleFolder);
});
afterAll(() => rmSync(bundleFolder, { recursive: true, force: true }));
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type KillPoint = (vault: TempVault, elapsedMs: number) => boolean;

const KILL_POINTS: Array<[string, KillPoint]> = [
  ...[300, 600, 900].map((ms): [string, KillPoint] => [`after ${ms} ms`, (_vault, elapsed) => elapsed >= ms]),
  ["the moment its temporary file appears beside the note", (vault) => readdirSync(vault.root).some((name) => TEMPORARY.test(name))],
];

function agentArgs(vault: TempVault): string[] {
  return ["agent", "--vault", vault.root, "--base-url", server?.baseUrl ?? "", "--model", "m", "--tools", "writeToFile", "--yes", "Rewrite Big.md"];
}

/** Starts the agent and kills it once `killPoint` says so (polled every millisecond); resolves when it has exited. */
function agentKilledAt(vault: TempVault, killPoint: KillPoint): Promise<void> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bundle, ...agentArgs(vault)], { stdio: "ignore" });
    const poll = setInterval(() => {
      if (!killPoint(vault, Date.now() - started)) return;
      child.kill("SIGKILL");
      clearInterval(poll);
    }, 1);
    child.on("exit", () => {
      clearInterval(poll);
      resolve();
    });
  });
}

describe("an agent killed while it writes an approved edit", () => {
  it.each(KILL_POINTS)("killed %s: the note is whole (old or new), and the next run edits it", async (_point, killPoint) => {
    const vault = makeTempVault({ "Big.md": OLD });
    try {
      server = await startOpenAIServer(() => ({ toolCalls: [{ name: "writeToFile", arguments: JSON.stringify({ path: "Big.md", content: NEW }) }], argumentChunkSize: 1_000_000 }));
      await agentKilledAt(vault, killPoint);
      const after = readFileSync(join(vault.root, "Big.md"), "utf8");
      expect(after === OLD || after === NEW).toBe(true);

      // The next run: a fresh server that asks for another edit and then answers.
      await server.close();
      const FINAL = "# Big\n\nsmall now\n";
      const steps = [{ toolCalls: [{ name: "writeToFile", arguments: JSON.stringify({ path: "Big.md", content: FINAL }) }] }, { text: "Done." }];
      server = await startOpenAIServer(() => steps.shift() ?? { text: "Done." });
      const next = spawnSync(process.execPath, [bundle, ...agentArgs(vault)], { encoding: "utf8" });
      expect({ status: next.status, stderr: next.stderr }).toEqual({ status: 0, stderr: "" });
      expect(readFileSync(join(vault.root, "Big.md"), "utf8")).toBe(FINAL);
      // What the killed write left is hidden: no note lists it, and no lock blocks the note.
      const listed = spawnSync(process.execPath, [bundle, "search", "--vault", vault.root, "--json", "small"], { encoding: "utf8" });
      expect(listed.stdout).not.toContain(".tmp");
      expect(existsSync(join(vault.root, ".Big.md.vault-copilot.lock"))).toBe(false);
    } finally {
      vault.remove();
    }
  });
});
