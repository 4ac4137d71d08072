/**
 * "Rebuild search index"'s failure as the user reads it: a rebuild whose index cannot be saved
 * (the plugin's data folder is a file) and one of a closed index, from a real NoteIndex over a
 * real folder. In English the index's own sentence, as before; in another language the sentence
 * for its case, the platform's words kept where they are the reason.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { makeTempVault, type TempVault } from "../../test/helpers/tempVault";
import { t } from "../i18n/t";
import { NoteIndex } from "../search/NoteIndex";
import { FsDataStore, pluginDataFolder } from "../vault/fsDataStore";
import { FsVault } from "../vault/FsVault";
import { indexFailureText } from "./coreNotices";

let folder: TempVault;
afterEach(() => {
  folder.remove();
  window.localStorage.removeItem("language");
});

/** The notice of a rebuild that could not save, then of one after the index closed. */
async function rebuildNotices(): Promise<string[]> {
  folder = makeTempVault({ "Заметки/Роза 玫瑰.md": "роза 🌹", "ملاحظة.md": "وردة", "บันทึก.md": "ดอกกุหลาบ" });
  const index = new NoteIndex({ vault: new FsVault(folder.root), store: new FsDataStore(pluginDataFolder(folder.root)), getSettings: () => ({ excludedFolders: [], excludedPatterns: [] }), timeZone: () => "UTC" });
  await index.start();
  const data = pluginDataFolder(folder.root);
  mkdirSync(dirname(data), { recursive: true });
  rmSync(data, { recursive: true, force: true });
  writeFileSync(data, "");
  const notSaved = await index.rebuild().catch((error: unknown) => error);
  rmSync(data);
  await index.dispose();
  const closed = await index.rebuild().catch((error: unknown) => error);
  return [notSaved, closed].map((error) => t("notice.indexRebuildFailed", { reason: indexFailureText(error) }));
}

describe("Rebuild search index's failure in the interface's language", () => {
  it("in English, the index's own sentences", async () => {
    expect(await rebuildNotices()).toEqual([
      expect.stringMatching(/^The search index could not be rebuilt: Could not write the plugin data file "search-index\.txt": .+/),
      "The search index could not be rebuilt: The note index was closed.",
    ]);
  });

  it("in Korean and in French, each by its case", async () => {
    window.localStorage.setItem("language", "ko");
    expect(await rebuildNotices()).toEqual([
      expect.stringMatching(/^검색 색인을 다시 만들지 못했습니다: 색인을 저장하지 못했습니다\(Could not write the plugin data file "search-index\.txt": .+\)$/),
      "검색 색인을 다시 만들지 못했습니다: 검색 색인이 닫혔습니다.",
    ]);
    folder.remove();
    window.localStorage.setItem("language", "fr");
    expect(await rebuildNotices()).toEqual([
      expect.stringMatching(/^Impossible de reconstruire l’index de recherche : il n’a pas pu être enregistré \(Could not write the plugin data file "search-index\.txt": .+\)$/),
      "Impossible de reconstruire l’index de recherche : l’index de recherche a été fermé.",
    ]);
  });
});
