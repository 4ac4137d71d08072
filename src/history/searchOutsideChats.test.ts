import { makeTempVault, type TempVault } from "../../test/helpers/tempVault";
import { NoteIndex } from "../search/NoteIndex";
import { FsDataStore, pluginDataFolder } from "../vault/fsDataStore";
import { FsVault } from "../vault/FsVault";
import { searchOutsideChats } from "./searchOutsideChats";

describe("the note search the agent and vault QA use", () => {
  let temp: TempVault;
  let index: NoteIndex;
  beforeEach(() => {
    temp = makeTempVault({
      "Garden/Roses.md": "Prune roses in early spring.",
      "copilot/chats/2026-12-01 When do I prune roses.md": "---\nchat-id: a\n---\n## You · x\n\nWhen do I prune roses?\n",
      "copilot/chats-archive/Roses notes.md": "Roses, kept by hand in a folder whose name only starts like the history's.",
    });
    const vault = new FsVault(temp.root);
    index = new NoteIndex({ vault, store: new FsDataStore(pluginDataFolder(vault.root, vault.configDir)), getSettings: () => ({ excludedFolders: [], excludedPatterns: [], maxResults: 10 }), timeZone: () => "UTC" });
  });
  afterEach(async () => {
    await index.dispose();
    temp.remove();
  });

  it("leaves the saved chats out, and only them, before the limit (so the limit is filled with notes)", async () => {
    const search = searchOutsideChats(index, () => "copilot/chats/", ".obsidian");
    const paths = (await search.search("prune roses", { limit: 2 })).map((hit) => hit.path);
    expect(paths).toEqual(["Garden/Roses.md", "copilot/chats-archive/Roses notes.md"]);
    // The index itself still holds the chats: the history's search finds them by their text.
    const inside = await index.search("prune roses", { limit: 5, insideFolder: "copilot/chats" });
    expect(inside.map((hit) => hit.path)).toEqual(["copilot/chats/2026-12-01 When do I prune roses.md"]);
  });

  it("searches everything when the history folder is one the path rule refuses", async () => {
    const search = searchOutsideChats(index, () => "../elsewhere", ".obsidian");
    expect((await search.search("prune roses", { limit: 5 })).map((hit) => hit.path)).toHaveLength(3);
  });
});
