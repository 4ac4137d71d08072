/**
 * A `search` killed (SIGKILL, nothing runs after it) at several points of its first index build
 * and save: the next run starts, finds what it should, and leaves an index that a third run reuses.
 * The kill points are spread over the run's life, so some land mid-build and some mid-save; what
 * is asserted holds wherever each one lands.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { useCliBundle } from "../helpers/cliBundle";
import { runKilledWhen } from "../helpers/killProcess";
import { makeTempVault, type TempVault } from "../helpers/tempVault";

jest.setTimeout(120_000);

const NOTES = 1500;
const KILL_AFTER_MS = [40, 250, 500, 700];

const bundle = useCliBundle();


function notes(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let index = 0; index < NOTES; index++) {
    files[`Folder ${index % 30}/Note ${index}.md`] = `# Note ${index}\n\nSome words about topic ${index % 97} and gardens ${index}.\n`;
  }
  files["Special/Zebra crossing.md"] = "# Zebra crossing\n\nThe quokka lives here.\n";
  return files;
}

/** When to kill: given the data folder and the milliseconds since the run started. */
type KillPoint = (dataFolder: string, elapsedMs: number) => boolean;

/**
 * The kill points: spread over the run's life, and tied to its save. Where a kill lands depends on
 * the machine (on a fast one the run may even end first); what the test asserts must hold wherever.
 */
const KILL_POINTS: Array<[string, KillPoint]> = [
  ...KILL_AFTER_MS.map((ms): [string, KillPoint] => [`after ${ms} ms`, (_folder, elapsed) => elapsed >= ms]),
  ["the moment it starts saving (its data folder appears)", (folder) => existsSync(folder)],
  ["while its index file is being written", (folder) => existsSync(folder) && readdirSync(folder).length > 0],
];

/** Starts `search` and kills it (SIGKILL) once `killPoint` says so, polled every 2 ms; resolves when it has exited. */
function searchKilledAt(vault: TempVault, killPoint: KillPoint): Promise<void> {
  const dataFolder = join(vault.root, ".obsidian/plugins/vault-copilot");
  return runKilledWhen([bundle.path, "search", "--vault", vault.root, "quokka"], (elapsed) => killPoint(dataFolder, elapsed), 2);
}

function searchNow(vault: TempVault): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [bundle.path, "search", "--vault", vault.root, "--json", "quokka"], { encoding: "utf8" });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe("a search killed during its first index build or save", () => {
  it.each(KILL_POINTS)("killed %s: the next run recovers, finds the note, and leaves an index a third run reuses", async (_point, killPoint) => {
    const vault = makeTempVault(notes());
    try {
      await searchKilledAt(vault, killPoint);
      const next = searchNow(vault);
      expect(next.stderr).toBe("");
      expect(next.status).toBe(0);
      expect(next.stdout).toContain("Special/Zebra crossing.md");
      // The index the recovering run left is whole: a third run finds the same.
      const third = searchNow(vault);
      expect(third.status).toBe(0);
      expect(third.stdout).toBe(next.stdout);
    } finally {
      vault.remove();
    }
  });
});
