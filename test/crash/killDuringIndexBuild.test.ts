/**
 * A `search` killed (SIGKILL, nothing runs after it) at several points of its first index build
 * and save: the next run starts, finds what it should, and leaves an index that a third run reuses.
 * The kill points are spread over the run's life, so some land mid-build and some mid-save; what
 * is asserted holds wherever each one lands.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildCliBundle } from "../helpers/cliBundle";
import { makeTempVault, type TempVault } from "../helpers/tempVault";

jest.setTimeout(120_000);

const NOTES = 1500;
const KILL_AFTER_MS = [40, 250, 500, 700];

let bundleFolder: string;
let bundle: string;

beforeAll(async () => {
  bundleFolder = mkdtempSync(join(tmpdir(), "vault-copilot-crash-"));
  bundle = await buildCliBundle(bundleFolder);
});

afterAll(() => rmSync(bundleFolder, { recursive: true, force: true }));

function notes(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let index = 0; index < NOTES; index++) {
    files[`Folder ${index % 30}/Note ${index}.md`] = `# Note ${index}\n\nSome words about topic ${index % 97} and gardens ${index}.\n`;
  }
  files["Special/Zebra crossing.md"] = "# Zebra crossing\n\nThe quokka lives here.\n";
  return files;
}

/** Starts `search` and kills it after `ms`, or lets it finish if it is faster. */
function searchKilledAfter(vault: TempVault, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bundle, "search", "--vault", vault.root, "quokka"], { stdio: "ignore" });
    const timer = setTimeout(() => child.kill("SIGKILL"), ms);
    child.on("exit", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Starts `search` and kills it as soon as `ready` says so (polled every 2 ms). */
function searchKilledWhen(vault: TempVault, ready: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bundle, "search", "--vault", vault.root, "quokka"], { stdio: "ignore" });
    const poll = setInterval(() => {
      if (!ready()) return;
      child.kill("SIGKILL");
      clearInterval(poll);
    }, 2);
    child.on("exit", () => {
      clearInterval(poll);
      resolve();
    });
  });
}

function searchNow(vault: TempVault): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [bundle, "search", "--vault", vault.root, "--json", "quokka"], { encoding: "utf8" });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe("a search killed during its first index build or save", () => {
  const recovers = (vault: TempVault) => {
    const next = searchNow(vault);
    expect(next.stderr).toBe("");
    expect(next.status).toBe(0);
    expect(next.stdout).toContain("Special/Zebra crossing.md");
    // The index the recovering run left is whole: a third run finds the same.
    const third = searchNow(vault);
    expect(third.status).toBe(0);
    expect(third.stdout).toBe(next.stdout);
  };

  it.each(KILL_AFTER_MS)("killed after %i ms: the next run recovers and finds the note", async (ms) => {
    const vault = makeTempVault(notes());
    try {
      await searchKilledAfter(vault, ms);
      recovers(vault);
    } finally {
      vault.remove();
    }
  });

  it("killed the moment it starts saving (its data folder appears): the next run recovers", async () => {
    const vault = makeTempVault(notes());
    const dataFolder = join(vault.root, ".obsidian/plugins/vault-copilot");
    try {
      // Where the kill lands depends on the machine (on a fast one the run may even end first);
      // what follows must hold wherever it landed.
      await searchKilledWhen(vault, () => existsSync(dataFolder));
      recovers(vault);
    } finally {
      vault.remove();
    }
  });

  it("killed while its index file is being written: the next run recovers", async () => {
    const vault = makeTempVault(notes());
    const dataFolder = join(vault.root, ".obsidian/plugins/vault-copilot");
    try {
      await searchKilledWhen(vault, () => existsSync(dataFolder) && readdirSync(dataFolder).length > 0);
      recovers(vault);
    } finally {
      vault.remove();
    }
  });
});
