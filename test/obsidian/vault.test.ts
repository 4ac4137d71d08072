/**
 * The double stands in for Obsidian in every test that touches the app, so it must behave as
 * Obsidian does where our code depends on it: these tests pin those behaviours.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { App, Events, normalizePath, Plugin, requestUrl, SecretStorage, TAbstractFile, TFile, Vault } from "./obsidian";

describe("normalizePath (Obsidian's algorithm)", () => {
  it.each([
    ["a//b///c.md", "a/b/c.md"],
    ["/a/b/", "a/b"],
    ["///a", "a"],
    ["a\\b\\c.md", "a/b/c.md"],
    ["a\\/\\b", "a/b"],
    ["", "/"],
    ["/", "/"],
    ["//", "/"],
    ["a\u00a0b.md", "a b.md"],
    ["a\u202fb.md", "a b.md"],
    ["Cafe\u0301.md", "Café.md"],
  ])("normalizes %j to %j", (input, expected) => {
    expect(normalizePath(input)).toBe(expected);
  });

  it("leaves dot segments alone (vaultPath.ts is what refuses them)", () => {
    expect(normalizePath("a/../b")).toBe("a/../b");
    expect(normalizePath("./a")).toBe("./a");
  });

  it("keeps inner spaces and case", () => {
    expect(normalizePath(" Notes/My Note.md ")).toBe(" Notes/My Note.md ");
  });
});

describe("Vault.process", () => {
  async function vaultWithNote(text: string): Promise<{ vault: Vault; file: TFile; modified: string[] }> {
    const vault = new Vault();
    const file = await vault.create("note.md", text);
    const modified: string[] = [];
    vault.on("modify", (changed) => {
      if (changed instanceof TFile) modified.push(changed.path);
    });
    return { vault, file, modified };
  }

  it("hands the transform the current text, saves and returns its result, and announces one change", async () => {
    const { vault, file, modified } = await vaultWithNote("one");
    const seen: string[] = [];
    const result = await vault.process(file, (text) => {
      seen.push(text);
      return `${text} two`;
    });
    expect(seen).toEqual(["one"]);
    expect(result).toBe("one two");
    expect(await vault.read(file)).toBe("one two");
    expect(modified).toEqual(["note.md"]);
  });

  it("loses no update when two edits start at once (read-transform-write is one step)", async () => {
    const { vault, file } = await vaultWithNote("x");
    await Promise.all([vault.process(file, (text) => `${text}a`), vault.process(file, (text) => `${text}b`)]);
    expect(await vault.read(file)).toBe("xab");
  });

  it("runs the transform before the call returns, so a modify right after it cannot be overwritten", async () => {
    const { vault, file } = await vaultWithNote("x");
    const edit = vault.process(file, (text) => `${text}!`);
    await vault.modify(file, "replaced");
    await edit;
    expect(await vault.read(file)).toBe("replaced");
  });

  it("leaves the file as it was when the transform throws, and rejects with that error", async () => {
    const { vault, file, modified } = await vaultWithNote("keep me");
    const refusal = new Error("no match");
    await expect(
      vault.process(file, () => {
        throw refusal;
      }),
    ).rejects.toBe(refusal);
    expect(await vault.read(file)).toBe("keep me");
    expect(modified).toEqual([]);
  });

  it("refuses a file that was deleted", async () => {
    const { vault, file } = await vaultWithNote("x");
    await vault.delete(file);
    await expect(vault.process(file, (text) => text)).rejects.toThrow(/not in this vault/);
  });
});

describe("Vault files and folders", () => {
  it("create needs the parent folder, as Obsidian's does; createFolder makes the missing parents", async () => {
    const vault = new Vault();
    await expect(vault.create("a/b/note.md", "x")).rejects.toThrow(/ENOENT/);
    const folder = await vault.createFolder("a/b");
    expect(folder.path).toBe("a/b");
    expect(vault.getFolderByPath("a")?.children.map((child) => child.path)).toEqual(["a/b"]);
    const file = await vault.create("a/b/note.md", "x");
    expect(file.parent).toBe(folder);
    expect(file.basename).toBe("note");
    expect(file.extension).toBe("md");
    expect(file.stat.size).toBe(1);
  });

  it("create refuses a path that is taken; createFolder refuses an existing folder", async () => {
    const vault = new Vault();
    await vault.create("note.md", "x");
    await expect(vault.create("note.md", "y")).rejects.toThrow("File already exists.");
    await vault.createFolder("f");
    await expect(vault.createFolder("f")).rejects.toThrow("Folder already exists.");
  });

  it("lists Markdown notes apart from other files, and looks entries up by kind", async () => {
    const vault = new Vault();
    await vault.create("a.md", "");
    await vault.create("b.png", "");
    await vault.createFolder("dir");
    expect(vault.getMarkdownFiles().map((file) => file.path)).toEqual(["a.md"]);
    expect(vault.getFiles().map((file) => file.path)).toEqual(["a.md", "b.png"]);
    expect(vault.getFileByPath("dir")).toBeNull();
    expect(vault.getFolderByPath("a.md")).toBeNull();
    expect(vault.getAbstractFileByPath("dir")?.name).toBe("dir");
  });

  it("moves a folder with everything in it, and announces the old path", async () => {
    const vault = new Vault();
    await vault.createFolder("old/inner");
    const note = await vault.create("old/inner/n.md", "text");
    const renames: [string, string][] = [];
    vault.on("rename", (file, oldPath) => {
      if (file instanceof TAbstractFile) renames.push([file.path, String(oldPath)]);
    });
    await vault.rename(vault.getFolderByPath("old")!, "new");
    expect(note.path).toBe("new/inner/n.md");
    expect(vault.getFileByPath("new/inner/n.md")).toBe(note);
    expect(await vault.read(note)).toBe("text");
    expect(renames).toEqual([["new", "old"]]);
  });

  it("keeps the config folder in the adapter but not among the vault's files", async () => {
    const vault = new Vault({ configDir: ".config" });
    await vault.adapter.write(".config/app.json", "{}");
    expect(await vault.adapter.exists(".config/app.json")).toBe(true);
    expect(vault.getFiles()).toEqual([]);
  });
});

describe("Events", () => {
  it("calls listeners in order with the triggered data, and offref stops one", () => {
    const events = new Events();
    const calls: string[] = [];
    const first = events.on("x", (value) => calls.push(`first ${String(value)}`));
    events.on("x", (value) => calls.push(`second ${String(value)}`));
    events.trigger("x", 1);
    events.offref(first);
    events.trigger("x", 2);
    expect(calls).toEqual(["first 1", "second 1", "second 2"]);
  });
});

describe("Plugin data and unloading", () => {
  const manifest = { id: "p", name: "P", author: "", version: "1", minAppVersion: "1.11.4", description: "", dir: ".obsidian/plugins/p" };
  class TestPlugin extends Plugin {}

  it("loadData gives null without a file, round-trips saveData, and throws on a file that is not JSON", async () => {
    const app = new App();
    const plugin = new TestPlugin(app, manifest);
    expect(await plugin.loadData()).toBeNull();
    await plugin.saveData({ a: 1 });
    expect(await plugin.loadData()).toEqual({ a: 1 });
    await app.vault.adapter.write(".obsidian/plugins/p/data.json", "{ not json");
    await expect(plugin.loadData()).rejects.toThrow(SyntaxError);
  });

  it("undoes registered events and commands on unload", () => {
    const app = new App();
    const plugin = new TestPlugin(app, manifest);
    plugin.load();
    plugin.registerEvent(app.vault.on("create", () => undefined));
    plugin.addCommand({ id: "go", name: "Go", callback: () => undefined });
    expect(app.vault.listenerCount("create")).toBe(1);
    expect([...plugin.registered.commands.keys()]).toEqual(["p:go"]);
    plugin.unload();
    expect(app.vault.listenerCount("create")).toBe(0);
    expect(plugin.registered.commands.size).toBe(0);
  });
});

describe("SecretStorage", () => {
  it("stores secrets under lowercase-dash ids and refuses other ids", () => {
    const storage = new SecretStorage();
    storage.setSecret("openai-key-2", "sk-1");
    expect(storage.getSecret("openai-key-2")).toBe("sk-1");
    expect(storage.getSecret("missing")).toBeNull();
    expect(storage.listSecrets()).toEqual(["openai-key-2"]);
    for (const bad of ["OpenAI", "a_b", "-a", "a-", "a--b", "", "a b"]) {
      expect(() => storage.setSecret(bad, "x")).toThrow(/Invalid secret ID/);
    }
  });
});

describe("requestUrl", () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === "/missing") {
        response.writeHead(404, { "Content-Type": "text/plain", "X-Reason": "gone" }).end("not here");
        return;
      }
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        response.writeHead(200, { "Content-Type": "application/json" });
        response.end(JSON.stringify({ method: request.method, type: request.headers["content-type"], body }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("sends method, content type and body, and offers text and json shortcuts", async () => {
    const request = { url: `${base}/echo`, method: "POST", contentType: "text/plain", body: "hello" };
    const response = await requestUrl(request);
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ method: "POST", type: "text/plain", body: "hello" });
    expect(await requestUrl(request).text).toContain('"body":"hello"');
  });

  it("throws for an error status unless asked not to, like Obsidian's", async () => {
    await expect(requestUrl(`${base}/missing`)).rejects.toMatchObject({ status: 404 });
    const response = await requestUrl({ url: `${base}/missing`, throw: false });
    expect(response.status).toBe(404);
    expect(response.text).toBe("not here");
    expect(response.headers["x-reason"]).toBe("gone");
  });
});

describe("Vault mirror (double only: what keeps the demo's folder on disk in step)", () => {
  it("hands every change to notes and folders to the mirror in order, and none under the config folder", async () => {
    const changes: unknown[] = [];
    const vault = new Vault({ mirror: async (change) => void changes.push(change) });
    await vault.createFolder("A/B");
    const file = await vault.create("A/B/n.md", "one");
    await vault.modify(file, "two");
    await vault.process(file, (text) => `${text}!`);
    await vault.rename(file, "A/m.md");
    await vault.trash(file);
    await vault.delete(vault.getAbstractFileByPath("A")!);
    await vault.createFolder(".obsidian/plugins/x");
    await vault.create(".obsidian/plugins/x/data.json", "{}");
    expect(changes).toEqual([
      { type: "folder", path: "A" },
      { type: "folder", path: "A/B" },
      { type: "write", path: "A/B/n.md", data: "one" },
      { type: "write", path: "A/B/n.md", data: "two" },
      { type: "write", path: "A/B/n.md", data: "two!" },
      { type: "rename", path: "A/B/n.md", newPath: "A/m.md" },
      { type: "trash", path: "A/m.md" },
      { type: "delete", path: "A" },
    ]);
  });

  it("a change resolves only once the mirror has applied it, and a failed mirror rejects that change alone", async () => {
    const applied: string[] = [];
    let release: () => void = () => undefined;
    const vault = new Vault({
      mirror: (change) => {
        if (change.type === "write" && change.data === "refused") return Promise.reject(new Error("refused by the mirror"));
        if (change.type === "write" && change.data === "slow") return new Promise<void>((resolve) => (release = () => (applied.push("slow"), resolve())));
        applied.push(change.type === "write" ? change.data : change.type);
        return Promise.resolve();
      },
    });
    const file = await vault.create("n.md", "first");
    const slow = vault.modify(file, "slow");
    const after = vault.modify(file, "after");
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(applied).toEqual(["first"]); // "after" waits behind "slow"
    release();
    await Promise.all([slow, after]);
    expect(applied).toEqual(["first", "slow", "after"]);
    await expect(vault.modify(file, "refused")).rejects.toThrow("refused by the mirror");
    await vault.modify(file, "later");
    expect(applied.at(-1)).toBe("later");
  });

  it("seedFile puts a note from disk in the vault with its times, making its folders, mirroring nothing", async () => {
    const changes: unknown[] = [];
    const vault = new Vault({ mirror: async (change) => void changes.push(change) });
    const file = vault.seedFile("Projects/Plan.md", "plan", { ctime: 1000, mtime: 2000 });
    vault.seedFolder("Projects/Empty/Inner");
    expect(vault.getFolderByPath("Projects/Empty/Inner")).not.toBeNull();
    expect(file.stat).toEqual({ type: "file", ctime: 1000, mtime: 2000, size: 4 });
    expect(vault.getFolderByPath("Projects")?.children[0]).toBe(file);
    expect(await vault.read(file)).toBe("plan");
    expect(changes).toEqual([]);
  });
});
