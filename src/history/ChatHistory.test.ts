import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempVault, type TempVault } from "../../test/helpers/tempVault";
import type { NoteSearcher } from "../ports/NoteSearcher";
import { FsVault } from "../vault/FsVault";
import { ChatHistory, safeName } from "./ChatHistory";
import { ChatNoteParseError, serializeChat } from "./chatNoteFormat";
import { savedChat } from "../../test/helpers/savedChat";
import type { ChatRecord } from "./chatRecord";


describe("ChatHistory over a real folder", () => {
  let vault: TempVault;
  let history: ChatHistory;
  let hits: string[];

  const save = (record: ChatRecord) => history.create(record, serializeChat(record));

  beforeEach(() => {
    vault = makeTempVault({ "copilot/chats/My own index.md": "# Not a chat\n", "Elsewhere.md": "plain\n" });
    hits = [];
    const searcher: NoteSearcher = { search: () => Promise.resolve(hits.map((path) => ({ path, title: path, content: "", score: 1 }))) };
    history = new ChatHistory({ vault: new FsVault(vault.root), folder: () => "copilot/chats", searcher: () => searcher });
  });
  afterEach(() => vault.remove());

  it("names a new chat from its date and first question, and never overwrites a chat of the same name", async () => {
    const first = await save(savedChat("a", "What is: a *rose*? [[x]] #tag", "2026-12-01T10:00:00Z"));
    const second = await save(savedChat("b", "What is: a *rose*? [[x]] #tag", "2026-12-01T11:00:00Z"));
    expect(first).toBe("copilot/chats/2026-12-01 What is a rose x tag.md");
    expect(second).toBe("copilot/chats/2026-12-01 What is a rose x tag 2.md");
    expect(readFileSync(join(vault.root, first), "utf8")).toContain("chat-id: a");
  });

  it("lists the chats of its folder newest first, skipping notes that are not chats, reporting a broken chat id", async () => {
    await save(savedChat("old", "Old question", "2026-11-01T10:00:00Z"));
    await save(savedChat("new", "New question", "2026-12-02T10:00:00Z"));
    await save(savedChat("mid", "Mid question", "2026-11-15T10:00:00Z"));
    vault.write("copilot/chats/Broken.md", "---\nchat-id: 12\n---\n");
    const listing = await history.list();
    expect(listing.chats.map((entry) => entry.id)).toEqual(["new", "mid", "old"]);
    expect(listing.chats[0]).toMatchObject({ title: "2026-12-02 New question", updated: "2026-12-02T10:00:00Z" });
    expect(listing.problems).toEqual([{ path: "copilot/chats/Broken.md", message: "its chat-id is not text", reason: { code: "chat-id-not-text" } }]);
  });

  it("searches names first, then the chats the index finds by their text, and only chats that hold every word", async () => {
    const roses = await save(savedChat("r", "Pruning roses", "2026-12-01T10:00:00Z"));
    const soup = await save(savedChat("s", "Tomato soup", "2026-12-02T10:00:00Z"));
    const cats = await save(savedChat("c", "Кошки и розы", "2026-12-03T10:00:00Z"));
    // The searcher hands back every chat for any query, as a search by meaning may.
    hits = ["Elsewhere.md", soup, roses, cats];
    expect((await history.search("roses")).chats.map((entry) => entry.path)).toEqual([roses]);
    // In the answer's text, not the name: found through the index, and checked.
    expect((await history.search("answer SOUP")).chats.map((entry) => entry.path)).toEqual([soup]);
    expect((await history.search("РОЗЫ")).chats.map((entry) => entry.path)).toEqual([cats]);
    // More words narrow; words no chat holds list nothing.
    expect((await history.search("answer")).chats).toHaveLength(3);
    expect((await history.search("answer tomato")).chats.map((entry) => entry.path)).toEqual([soup]);
    expect((await history.search("zebra")).chats).toEqual([]);
    expect((await history.search("   ")).chats).toHaveLength(3);
  });

  it("never puts a secret it holds into a name typed for a rename", async () => {
    const key = "sk-ключ-0f9e8d7c6b";
    const guarded = new ChatHistory({ vault: new FsVault(vault.root), folder: () => "copilot/chats", secrets: () => [key] });
    const path = await guarded.create(savedChat("s", "Розы", "2026-12-01T10:00:00Z"), serializeChat(savedChat("s", "Розы", "2026-12-01T10:00:00Z")));
    const renamed = await guarded.rename(path, `Розы ${key} 🌹`);
    expect(renamed).toBe("copilot/chats/Розы redacted 🌹.md");
    expect(readdirSync(join(vault.root, "copilot/chats")).join("\n")).not.toContain(key);
  });

  it("renames a chat in its folder and still finds it by id", async () => {
    const path = await save(savedChat("r", "Pruning roses", "2026-12-01T10:00:00Z"));
    const renamed = await history.rename(path, "Roses: the / whole story");
    expect(renamed).toBe("copilot/chats/Roses the whole story.md");
    expect(existsSync(join(vault.root, path))).toBe(false);
    expect(await history.findById("r")).toBe(renamed);
    await expect(history.rename(renamed, "  ///  ")).rejects.toThrow("at least one letter");
    await save(savedChat("t", "Taken", "2026-12-01T10:00:00Z"));
    await expect(history.rename(renamed, "2026-12-01 Taken")).rejects.toThrow("already exists");
    expect(existsSync(join(vault.root, renamed))).toBe(true);
  });

  it("moves a deleted chat to the trash", async () => {
    const path = await save(savedChat("r", "Pruning roses", "2026-12-01T10:00:00Z"));
    await history.remove(path);
    expect(existsSync(join(vault.root, path))).toBe(false);
    expect(readdirSync(join(vault.root, ".trash"))).toHaveLength(1);
    expect(await history.findById("r")).toBeNull();
  });

  it("reports a note it cannot read as a chat by name, and leaves it as it was", async () => {
    vault.write("copilot/chats/Half.md", "---\nchat-id: x\nmode: sing\n---\n## You\n\nhi\n");
    const error = await history.load("copilot/chats/Half.md").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ChatNoteParseError);
    expect((error as Error).message).toBe('"copilot/chats/Half.md" is not a chat Copilot can read: its mode "sing" is not one of chat, vault-qa, agent. It was left as it is.');
    expect(error).toMatchObject({ path: "copilot/chats/Half.md", reason: { code: "mode-invalid", mode: "sing", modes: "chat, vault-qa, agent" } });
    expect(readFileSync(join(vault.root, "copilot/chats/Half.md"), "utf8")).toBe("---\nchat-id: x\nmode: sing\n---\n## You\n\nhi\n");
  });

  it("refuses a chat note that is not UTF-8 by name, with its case", async () => {
    vault.write("copilot/chats/Кафе.md", new Uint8Array([...new TextEncoder().encode("---\nchat-id: x\nmode: chat\n---\n## You\n\ncaf"), 0xe9, 0x0a]));
    const error = await history.load("copilot/chats/Кафе.md").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ChatNoteParseError);
    expect((error as Error).message).toMatch(/^"copilot\/chats\/Кафе\.md" is not UTF-8 text /);
    expect(error).toMatchObject({ path: "copilot/chats/Кафе.md", reason: { code: "not-utf8" } });
  });

  it("makes note names that a file system and a link can hold", () => {
    expect(safeName('a/b\\c:d*e?f"g<h>i|j#k^l[m]n')).toBe("a b c d e f g h i j k l m n");
    expect(safeName("...hidden")).toBe("hidden");
    expect(safeName("x".repeat(80))).toHaveLength(60);
    expect(safeName(`${"word ".repeat(20)}end`)).toBe("word word word word word word word word word word word word");
  });
});
