import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { temporaryFileFor } from "./atomicWrite";
import { FsDataStore } from "./fsDataStore";

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "vault-copilot-store-"));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

describe("FsDataStore", () => {
  it("keeps its files private to the user (0600), also one that was readable by others before", async () => {
    const store = new FsDataStore(folder);
    await store.write("edit-history.json", "private text");
    expect(statSync(join(folder, "edit-history.json")).mode & 0o777).toBe(0o600);
    chmodSync(join(folder, "edit-history.json"), 0o644);
    await store.write("edit-history.json", "more private text");
    expect(statSync(join(folder, "edit-history.json")).mode & 0o777).toBe(0o600);
    expect(await store.read("edit-history.json")).toBe("more private text");
  });

  it("loses no update when two stores (two processes) append to one file at the same time", async () => {
    const first = new FsDataStore(folder);
    const second = new FsDataStore(folder);
    const append = (store: FsDataStore, entry: string) =>
      store.update("history.json", (current) => JSON.stringify([...(current === null ? [] : (JSON.parse(current) as string[])), entry]));
    await Promise.all(Array.from({ length: 20 }, (_, i) => [append(first, `a${i}`), append(second, `b${i}`)]).flat());
    const entries = JSON.parse(readFileSync(join(folder, "history.json"), "utf8")) as string[];
    expect(entries).toHaveLength(40);
    expect(statSync(join(folder, "history.json")).mode & 0o777).toBe(0o600);
  });

  it("leaves the file as it was when an update's function throws", async () => {
    const store = new FsDataStore(folder);
    await store.write("a.json", "1");
    await expect(
      store.update("a.json", () => {
        throw new Error("unreadable");
      }),
    ).rejects.toThrow("unreadable");
    expect(await store.read("a.json")).toBe("1");
    expect(readdirSync(folder)).toEqual(["a.json"]);
  });

  it("removes temporary files a killed write left behind, once older than a minute", async () => {
    const stale = temporaryFileFor(join(folder, "index-0.json"));
    const fresh = temporaryFileFor(join(folder, "index-1.json"));
    writeFileSync(stale, "half");
    writeFileSync(fresh, "under way");
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    utimesSync(stale, twoMinutesAgo, twoMinutesAgo);
    const store = new FsDataStore(folder);
    expect(await store.read("index-0.json")).toBeNull();
    expect(readdirSync(folder).sort()).toEqual([fresh.slice(folder.length + 1)]);
  });
});

it("FsDataStore removes a lock file left by a killed update on first use", async () => {
  const { spawnSync } = await import("node:child_process");
  const { lockFileFor } = await import("./fileLock");
  const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  writeFileSync(lockFileFor(join(folder, "edit-history.json")), JSON.stringify({ pid: Number(dead.stdout), at: Date.now() }));
  expect(await new FsDataStore(folder).read("edit-history.json")).toBeNull();
  expect(readdirSync(folder)).toEqual([]);
});
