import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { makeTempVault } from "../../test/helpers/tempVault";
import { FsDataStore } from "./fsDataStore";
import { FsVault } from "./FsVault";
import { VaultIoError } from "./vaultIoError";

/** Node's messages name absolute paths; what the vault and its data store throw names vault paths and file names only. */
describe("file-system errors", () => {
  it("from the plugin's data store name the data file, never its absolute path", async () => {
    const vault = makeTempVault();
    try {
      const folder = join(vault.root, ".obsidian/plugins/vault-copilot");
      // A folder where the data file should be: every operation on it fails in the file system.
      mkdirSync(join(folder, "edit-history.json"), { recursive: true });
      const store = new FsDataStore(folder);
      const failures = await Promise.all([store.read("edit-history.json"), store.write("edit-history.json", "{}"), store.update("edit-history.json", () => "{}")].map((operation) => operation.then(() => null, (error: unknown) => error)));
      for (const failure of failures) {
        expect(failure).toBeInstanceOf(VaultIoError);
        expect((failure as Error).message).toMatch(/^Could not (read|write|update) the plugin data file "edit-history\.json": .+ \(E[A-Z]+\)$/);
        expect((failure as Error).message).not.toContain(vault.root);
      }
    } finally {
      vault.remove();
    }
  });

  it("from a vault folder that is gone name the vault folder, never its absolute path", async () => {
    const vault = makeTempVault({ "Заметка.md": "текст\n" });
    const fsVault = new FsVault(vault.root);
    rmSync(vault.root, { recursive: true, force: true });
    const failure = await fsVault.listNotes().then(() => null, (error: unknown) => error);
    expect((failure as Error).message).toBe("Could not list the vault folder: no such file or directory (ENOENT)");
  });
});
