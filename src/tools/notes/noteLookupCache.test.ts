import { makeTempVault, type TempVault } from "../../../test/helpers/tempVault";
import { FsVault } from "../../vault/FsVault";
import type { VaultEvent } from "../../vault/VaultPort";
import { NoteLookup } from "./noteLookup";

class ListenerCountingVault extends FsVault {
  subscribed = 0;
  override onChange(listener: (event: VaultEvent) => void): () => void {
    this.subscribed++;
    const unsubscribe = super.onChange(listener);
    return () => {
      this.subscribed--;
      unsubscribe();
    };
  }
}

let folder: TempVault;
beforeEach(() => {
  folder = makeTempVault({ "A.md": "a" });
});
afterEach(() => {
  jest.restoreAllMocks();
  folder.remove();
});

describe("the per-vault note lookup", () => {
  it("is one lookup per vault, kept current by the vault's events", async () => {
    const vault = new ListenerCountingVault(folder.root);
    const first = await NoteLookup.of(vault);
    expect(await NoteLookup.of(vault)).toBe(first);
    expect(vault.subscribed).toBe(1);
    await vault.create("B.md", "b");
    expect(first.resolve("B")).toBe("B.md");
    await vault.trash("A.md");
    expect(first.resolve("A")).toBeNull();
  });

  it("lets go of the vault on the first event after it went unused for ten minutes", async () => {
    const vault = new ListenerCountingVault(folder.root);
    const first = await NoteLookup.of(vault);
    const now = Date.now();
    jest.spyOn(Date, "now").mockReturnValue(now + 11 * 60_000);
    await vault.create("B.md", "b");
    expect(vault.subscribed).toBe(0);
    const second = await NoteLookup.of(vault);
    expect(second).not.toBe(first);
    expect(second.resolve("B")).toBe("B.md");
    expect(vault.subscribed).toBe(1);
  });
});
