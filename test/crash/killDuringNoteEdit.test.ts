/**
 * An `agent --yes` killed (SIGKILL, nothing runs after it) while it writes an approved edit of a
 * large note: the note is the old text or the new one, never a mix, and the next run edits it as
 * usual (the dead run's lock is taken over; its temporary file stays hidden from the vault). The
 * kill points are spread over the run's life and tied to the moment its temporary file appears.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { useCliBundle } from "../helpers/cliBundle";
import { runKilledWhen } from "../helpers/killProcess";
import { startOpenAIServer, type OpenAIServer } from "../helpers/openAIServer";
import { makeTempVault, type TempVault } from "../helpers/tempVault";

jest.setTimeout(45_000);

/** Large enough that writing it takes a while: the kill can land between the temporary file and the rename. */
const OLD = `# Big\n\n${"old line of the note\n".repeat(300_000)}`;
const NEW = `# Big\n\n${"new line, written by the agent\n".repeat(300_000)}`;
const TEMPORARY = /^\.Big\.md\.vault-copilot-\d+-[0-9a-f]{8}\.tmp$/;

const bundle = useCliBundle();
let server: OpenAIServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

type KillPoint = (vault: TempVault, elapsedMs: number) => boolean;

const temporaryFiles = (vault: TempVault) => readdirSync(vault.root).filter((name) => TEMPORARY.test(name));

/** [name, when to kill, whether the kill surely lands between the temporary file and the rename]. */
const KILL_POINTS: Array<[string, KillPoint, boolean]> = [
  ...[300, 600, 900].map((ms): [string, KillPoint, boolean] => [`after ${ms} ms`, (_vault, elapsed) => elapsed >= ms, false]),
  ["the moment its temporary file appears beside the note", (vault) => temporaryFiles(vault).length > 0, true],
];

function agentArgs(vault: TempVault): string[] {
  return ["agent", "--vault", vault.root, "--base-url", server?.baseUrl ?? "", "--model", "m", "--tools", "writeToFile", "--yes", "Rewrite Big.md"];
}

/** Starts the agent and kills it once `killPoint` says so (polled every millisecond); resolves when it has exited. */
function agentKilledAt(vault: TempVault, killPoint: KillPoint): Promise<void> {
  return runKilledWhen([bundle.path, ...agentArgs(vault)], (elapsed) => killPoint(vault, elapsed), 1);
}

/** Runs the built CLI as a process; resolves with its exit status and output. */
function runCli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bundle.path, ...args]);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

describe("an agent killed while it writes an approved edit", () => {
  it.each(KILL_POINTS)("killed %s: the note is whole (old or new), and the next run edits it", async (_point, killPoint, midWrite) => {
    const vault = makeTempVault({ "Big.md": OLD });
    try {
      server = await startOpenAIServer(() => ({ toolCalls: [{ name: "writeToFile", arguments: JSON.stringify({ path: "Big.md", content: NEW }) }], argumentChunkSize: 1_000_000 }));
      await agentKilledAt(vault, killPoint);
      const after = readFileSync(join(vault.root, "Big.md"), "utf8");
      expect(after === OLD || after === NEW).toBe(true);
      if (midWrite) {
        // Killed with the new text half in its temporary file: the note still has every old byte.
        expect(after === OLD).toBe(true);
        expect(temporaryFiles(vault)).toHaveLength(1);
      }

      // The next run: a fresh server that asks for another edit and then answers.
      await server.close();
      const FINAL = "# Big\n\nsmall now\n";
      const steps = [{ toolCalls: [{ name: "writeToFile", arguments: JSON.stringify({ path: "Big.md", content: FINAL }) }] }, { text: "Done." }];
      server = await startOpenAIServer(() => steps.shift() ?? { text: "Done." });
      // Not spawnSync: the scripted server answers from this process, which must keep running.
      const next = await runCli(agentArgs(vault));
      expect(next.status).toBe(0);
      expect(next.stderr).toContain("← writeToFile ok");
      expect(next.stderr).not.toContain("vault-copilot:");
      expect(readFileSync(join(vault.root, "Big.md"), "utf8")).toBe(FINAL);
      // What the killed write left is hidden: no note lists it, and no lock blocks the note.
      const listed = await runCli(["search", "--vault", vault.root, "--json", "small"]);
      expect(listed.stdout).not.toContain(".tmp");
      expect(existsSync(join(vault.root, ".Big.md.vault-copilot.lock"))).toBe(false);
    } finally {
      vault.remove();
    }
  });
});
