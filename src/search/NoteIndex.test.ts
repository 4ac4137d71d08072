import { mkdirSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { makeTempVault, type TempVault } from "../../test/helpers/tempVault";
import { FsDataStore, pluginDataFolder } from "../vault/fsDataStore";
import type { ExclusionSettings } from "./exclusions";
import { INDEX_FILE_NAME } from "./indexStore";
import { LONGEST_UPDATE_DELAY_MS, NoteIndex, REWRITTEN_NOTE_DELAY_MS, type NoteIndexOptions } from "./NoteIndex";
import { NoteIndexError } from "./noteIndexError";
import type { IndexProgress } from "./reconcile";
import { WatchedVault } from "../../test/helpers/WatchedVault";
import { FakeScheduler } from "../../test/helpers/fakeScheduler";

const NO_EXCLUSIONS: ExclusionSettings = { excludedFolders: [], excludedPatterns: [] };

describe("NoteIndex", () => {
  let folder: TempVault;
  const open: NoteIndex[] = [];

  afterEach(async () => {
    await Promise.all(open.splice(0).map((index) => index.dispose()));
    folder?.remove();
  });

  function setUp(files: Record<string, string>, options: Partial<NoteIndexOptions> = {}) {
    folder = makeTempVault(files, "vault-copilot-search-");
    return openIndex(options);
  }

  function openIndex(options: Partial<NoteIndexOptions> = {}) {
    const vault = new WatchedVault(folder.root);
    const store = new FsDataStore(pluginDataFolder(folder.root));
    const index = new NoteIndex({ vault, store, getSettings: () => NO_EXCLUSIONS, timeZone: () => "UTC", ...options });
    open.push(index);
    return { vault, store, index };
  }

  const paths = async (index: NoteIndex, query: string, options: { salientTerms?: string[] } = {}) =>
    (await index.search(query, { limit: 10, ...options })).map((hit) => hit.path);

  describe("words only", () => {
    it("leaves out the notes close in meaning alone when asked for words only", async () => {
      // A meaning side that finds "Cats.md" close to any query.
      const vectors = { search: () => Promise.resolve([{ path: "Cats.md", score: 0.9 }]), similarToNote: () => null };
      const { index } = setUp({ "Roses.md": "Prune roses in spring.", "Cats.md": "Кошки спят весь день." }, { vectors: () => vectors });
      expect(await paths(index, "roses")).toEqual(["Roses.md", "Cats.md"]);
      expect((await index.search("roses", { limit: 10, wordsOnly: true })).map((hit) => hit.path)).toEqual(["Roses.md"]);
    });
  });

  describe("ranking", () => {
    it("ranks a note named for the query above one that only mentions it", async () => {
      const { index } = setUp({
        "Weekly log.md": "Monday: meetings. Tuesday: some gardening in the afternoon. Wednesday: reading.",
        "Gardening.md": "Tomatoes need sun. Water the beds in the morning.",
      });
      expect(await paths(index, "gardening")).toEqual(["Gardening.md", "Weekly log.md"]);
    });

    it("finds notes by tag and by alias, which the body does not mention", async () => {
      const { index } = setUp({
        "Sky.md": "---\ntags: [astronomy]\n---\nSaw Jupiter tonight.",
        "JS.md": "---\naliases: [JavaScript]\n---\nClosures and promises.",
        "Other.md": "Nothing relevant here.",
      });
      expect(await paths(index, "astronomy")).toEqual(["Sky.md"]);
      expect(await paths(index, "javascript")).toEqual(["JS.md"]);
    });

    it("counts inline tags and folder names", async () => {
      const { index } = setUp({ "Recipes/Soup.md": "Onions, stock. #vegetarian", "Log.md": "Plain text." });
      expect(await paths(index, "recipes")).toEqual(["Recipes/Soup.md"]);
      expect(await paths(index, "vegetarian")).toEqual(["Recipes/Soup.md"]);
    });

    it("matches other forms of a word through stemming", async () => {
      const { index } = setUp({ "Training.md": "She runs every morning and trained for months.", "Other.md": "Unrelated." });
      expect(await paths(index, "running training")).toEqual(["Training.md"]);
    });

    it("finds Chinese and Japanese notes by a word inside unspaced text", async () => {
      const { index } = setUp({
        "学习.md": "我们今天讨论了机器学习的方法和应用。",
        "会議.md": "東京で会議がありました。",
        "English.md": "Machine learning methods.",
      });
      expect(await paths(index, "机器学习")).toEqual(["学习.md"]);
      expect(await paths(index, "東京")).toEqual(["会議.md"]);
    });

    it("matches with or without diacritics", async () => {
      const { index } = setUp({ "Paris.md": "Meeting at the Café de Flore with Zoë.", "Other.md": "Coffee at home." });
      expect(await paths(index, "cafe zoe")).toEqual(["Paris.md"]);
      expect(await paths(index, "CAFÉ")).toEqual(["Paris.md"]);
    });

    it("lets salient terms outweigh the rest of the query", async () => {
      const { index } = setUp({
        "Budget.md": "The budget for the project was approved.",
        "Deadline.md": "The deadline for the project moved to March.",
      });
      expect((await paths(index, "project budget deadline", { salientTerms: ["deadline"] }))[0]).toBe("Deadline.md");
      expect((await paths(index, "project budget deadline", { salientTerms: ["budget"] }))[0]).toBe("Budget.md");
    });

    it("points a hit at the heading section that matches, with its heading path", async () => {
      const { index } = setUp({
        "Plan.md": "# Plan\nIntro text about the plan.\n## Budget\nWe spend 400 euros on hardware.\n## Travel\nTrain to Lyon in May.\n",
      });
      const [hit] = await index.search("hardware euros", { limit: 5 });
      expect(hit).toMatchObject({ path: "Plan.md", title: "Plan", heading: "Plan > Budget", content: "We spend 400 euros on hardware." });
      const [travel] = await index.search("Lyon", { limit: 5 });
      expect(travel?.heading).toBe("Plan > Travel");
    });

    it("gives a hit after a four-backtick block holding a three-backtick line its real heading path", async () => {
      const { index } = setUp({
        "Установка.md": "# Установка\n````markdown\n```\n# Не заголовок\n```\n````\n## Linux\nThe zygote package installs with apt.\n",
      });
      const [hit] = await index.search("zygote", { limit: 5 });
      expect(hit).toMatchObject({ path: "Установка.md", heading: "Установка > Linux", content: "The zygote package installs with apt." });
    });

    it("returns nothing for a query with no match, and an empty query", async () => {
      const { index } = setUp({ "A.md": "alpha" });
      expect(await paths(index, "zeppelin")).toEqual([]);
      expect(await paths(index, "the of and")).toEqual([]);
    });
  });

  describe("updates", () => {
    it("reflects an edit, a new note and a deletion in the next search", async () => {
      const { vault, index } = setUp({ "A.md": "apples", "B.md": "bananas" });
      expect(await paths(index, "apples")).toEqual(["A.md"]);

      await vault.process("A.md", () => "cherries now");
      expect(await paths(index, "apples")).toEqual([]);
      expect(await paths(index, "cherries")).toEqual(["A.md"]);

      await vault.create("Notes/C.md", "more cherries and cherries");
      expect(await paths(index, "cherries")).toEqual(["Notes/C.md", "A.md"]);

      await vault.trash("B.md");
      expect(await paths(index, "bananas")).toEqual([]);
      expect(index.noteCount).toBe(2);
    });

    it("follows a rename: the note is found under its new path only", async () => {
      const { vault, index } = setUp({ "Old name.md": "quarterly report" });
      expect(await paths(index, "quarterly")).toEqual(["Old name.md"]);
      renameSync(join(folder.root, "Old name.md"), join(folder.root, "Renamed.md"));
      vault.emit({ type: "rename", path: "Renamed.md", oldPath: "Old name.md" });
      expect(await paths(index, "quarterly")).toEqual(["Renamed.md"]);
      expect(await paths(index, "renamed")).toEqual(["Renamed.md"]);
    });

    it("applies queued changes on flush, without a search", async () => {
      const { vault, index } = setUp({ "A.md": "one" }, { updateDelayMs: 60_000 });
      await index.start();
      await vault.create("B.md", "two");
      expect(index.noteCount).toBe(1);
      await index.flush();
      expect(index.noteCount).toBe(2);
    });

    describe("a note written again and again (a chat kept in its note as the answer streams)", () => {
      const CHAT = "Чаты/Разговор 会話.md";

      /** The index over a fake clock, its chat note, and a way to wait for the next change it takes in. */
      async function chatIndex() {
        const time = new FakeScheduler();
        const { vault, index } = setUp({ [CHAT]: "начало разговора" }, { scheduler: time });
        await index.start();
        const write = (text: string) => vault.process(CHAT, () => text);
        const readsOfChat = () => vault.reads.filter((path) => path === CHAT).length;
        const nextChange = () => new Promise<void>((resolve) => {
          const stop = index.onHealthChange(() => {
            stop();
            resolve();
          });
        });
        return { time, vault, index, write, readsOfChat, nextChange };
      }

      it("is indexed once it is left alone, not at every write", async () => {
        const { time, index, write, readsOfChat, nextChange } = await chatIndex();
        // A first change is taken in after the usual half second.
        await write("первый ответ");
        let taken = nextChange();
        time.advance(500);
        await taken;
        const reads = readsOfChat();
        // Written again every 2 s: nothing is read while the writes go on, nor until they have stopped for a while.
        for (const word of ["второй", "третий", "четвёртый", "пятый"]) {
          time.advance(2_000);
          await write(`${word} ответ 👋🏽`);
        }
        time.advance(REWRITTEN_NOTE_DELAY_MS - 1);
        expect(readsOfChat()).toBe(reads);
        taken = nextChange();
        time.advance(1);
        await taken;
        expect(readsOfChat()).toBe(reads + 1);
        expect(await paths(index, "пятый")).toEqual([CHAT]);
      });

      it("is found by its newest text in a search made while it is still being written", async () => {
        const { time, index, write } = await chatIndex();
        await write("первый ответ");
        time.advance(1_000);
        await write("второй ответ, ещё пишется");
        expect(await paths(index, "ещё")).toEqual([CHAT]);
        expect(await paths(index, "первый")).toEqual([]);
      });

      it("is still indexed every LONGEST_UPDATE_DELAY_MS when the writes never pause", async () => {
        const { time, write, readsOfChat, nextChange } = await chatIndex();
        await write("первый ответ");
        let taken = nextChange();
        time.advance(500);
        await taken;
        const reads = readsOfChat();
        // A write every second from here on: the first of them starts the longest wait.
        taken = nextChange();
        for (let second = 0; second < LONGEST_UPDATE_DELAY_MS / 1_000; second++) {
          await write(`ответ ${second}`);
          time.advance(second < LONGEST_UPDATE_DELAY_MS / 1_000 - 1 ? 1_000 : 999);
        }
        expect(readsOfChat()).toBe(reads);
        time.advance(1);
        await taken;
        expect(readsOfChat()).toBe(reads + 1);
      });
    });

    it("ignores files that are not notes", async () => {
      const { vault, index } = setUp({ "A.md": "one" });
      await index.start();
      await vault.create("data.csv", "one,two");
      await index.flush();
      expect(index.noteCount).toBe(1);
    });
  });

  describe("persistence", () => {
    it("loads the saved index on the next start and reads no unchanged note", async () => {
      const files = { "A.md": "# Alpha\nfirst note about comets", "B.md": "second note about comets and moons" };
      const first = setUp(files);
      const before = await first.index.search("comets", { limit: 5 });
      await first.index.dispose();
      expect(await first.store.read(INDEX_FILE_NAME)).not.toBeNull();

      const second = openIndex();
      const report = await second.index.start();
      expect(report).toMatchObject({ loadedFromDisk: true, indexed: 0, removed: 0, unchanged: 2 });
      const after = await second.index.search("comets", { limit: 5 });
      expect(after.map((hit) => [hit.path, hit.score])).toEqual(before.map((hit) => [hit.path, hit.score]));
      // Only the hits' passages were read, not the notes to index them.
      expect(second.vault.reads.sort()).toEqual(["A.md", "B.md"]);
    });

    it("re-reads only the notes changed, added or removed while it was closed", async () => {
      const first = setUp({ "A.md": "alpha", "B.md": "beta", "C.md": "gamma" });
      await first.index.start();
      await first.index.dispose();
      folder.write("B.md", "beta, edited while closed");
      utimesSync(join(folder.root, "B.md"), new Date(), new Date(Date.now() + 5_000));
      folder.write("D.md", "delta");
      renameSync(join(folder.root, "C.md"), join(folder.root, ".C.md.hidden"));

      const second = openIndex();
      const report = await second.index.start();
      expect(report).toMatchObject({ loadedFromDisk: true, indexed: 2, removed: 1, unchanged: 1 });
      expect(second.vault.reads.sort()).toEqual(["B.md", "D.md"]);
      expect(await paths(second.index, "edited")).toEqual(["B.md"]);
      expect(await paths(second.index, "gamma")).toEqual([]);
    });

    it.each([
      ["garbage", () => "not an index at all"],
      ["a cut-off file", (text: string) => text.slice(0, Math.floor(text.length / 2))],
      ["another format version", (text: string) => text.replace('"version":1', '"version":99')],
      ["damaged postings", (text: string) => text.replace(/\np[^\n]{4}/, "\np!!!!")],
      ["a term listed twice", (text: string) => text.replace(/\nt\[("[^"]*"),("[^"]*")/, "\nt[$1,$1")],
      ["an empty file", () => ""],
    ])("rebuilds from the notes when the stored index is %s", async (_label, damage) => {
      const first = setUp({ "A.md": "alpha comet", "B.md": "beta comet" });
      await first.index.start();
      await first.index.dispose();
      const stored = (await first.store.read(INDEX_FILE_NAME)) ?? "";
      await first.store.write(INDEX_FILE_NAME, damage(stored));

      const second = openIndex();
      const report = await second.index.start();
      expect(report.loadedFromDisk).toBe(false);
      expect(report.rebuildReason).toBeTruthy();
      expect(report.indexed).toBe(2);
      expect(await paths(second.index, "comet")).toHaveLength(2);
      await second.index.dispose();
      const third = openIndex();
      expect((await third.index.start()).loadedFromDisk).toBe(true);
    });

    it("a rebuild that cannot save the index, or of a closed index, says which, beside the sentence", async () => {
      const { index } = setUp({ "Заметки/Роза 玫瑰.md": "роза 🌹", "ملاحظة.md": "وردة" });
      await index.start();
      // The plugin's data folder is a file now: the platform refuses the write.
      const data = pluginDataFolder(folder.root);
      rmSync(data, { recursive: true, force: true });
      mkdirSync(dirname(data), { recursive: true });
      writeFileSync(data, "not a folder");
      const failure = await index.rebuild().catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(NoteIndexError);
      expect(failure).toMatchObject({ failure: { code: "not-saved", detail: (failure as Error).message } });
      expect((failure as Error).message).toMatch(/^Could not write the plugin data file "search-index.txt": /);
      // The folder back, the index closes (saving what it holds), and a rebuild after that is refused.
      rmSync(data);
      await index.dispose();
      await expect(index.rebuild()).rejects.toMatchObject({ message: "The note index was closed.", failure: { code: "closed" } });
    });

    it("rebuild reads every note again", async () => {
      const { vault, index } = setUp({ "A.md": "alpha", "B.md": "beta" });
      await index.start();
      vault.reads.length = 0;
      const report = await index.rebuild();
      expect(report.indexed).toBe(2);
      expect(vault.reads.sort()).toEqual(["A.md", "B.md"]);
    });
  });

  describe("time range", () => {
    const day = (iso: string) => Date.parse(iso);
    function datedVault() {
      const opened = setUp({
        "Old.md": "project notes",
        "Recent.md": "project notes",
        "Journal/2026-03-14.md": "daily project entry",
        "Other.md": "unrelated",
      });
      const setMtime = (path: string, iso: string) => utimesSync(join(folder.root, path), new Date(iso), new Date(iso));
      setMtime("Old.md", "2025-01-10T12:00:00Z");
      setMtime("Recent.md", "2026-11-30T12:00:00Z");
      setMtime("Journal/2026-03-14.md", "2026-06-01T12:00:00Z");
      setMtime("Other.md", "2026-11-29T08:00:00Z");
      return opened;
    }

    it("keeps notes modified in the range", async () => {
      const { index } = datedVault();
      const timeRange = { startTime: day("2026-11-23T00:00:00Z"), endTime: day("2026-11-30T23:59:59.999Z") };
      const hits = await index.search("project", { limit: 10, timeRange });
      expect(hits.map((hit) => [hit.path, hit.score > 0])).toEqual([
        ["Recent.md", true],
        ["Other.md", false],
      ]);
    });

    it("keeps a daily note for a day in the range, whatever its modification time", async () => {
      const { index } = datedVault();
      const timeRange = { startTime: day("2026-03-14T00:00:00Z"), endTime: day("2026-03-14T23:59:59.999Z") };
      expect((await index.search("project", { limit: 10, timeRange })).map((hit) => hit.path)).toEqual(["Journal/2026-03-14.md"]);
    });

    it("lists the notes of the range newest first when none matches the words", async () => {
      const { index } = datedVault();
      const timeRange = { startTime: day("2026-11-01T00:00:00Z"), endTime: day("2026-11-30T23:59:59.999Z") };
      const hits = await index.search("what did I do", { limit: 10, timeRange });
      expect(hits.map((hit) => [hit.path, hit.score])).toEqual([
        ["Recent.md", 0],
        ["Other.md", 0],
      ]);
    });
  });

  describe("exclusions", () => {
    it("leaves excluded folders and patterns out, and applies a settings change at the next search", async () => {
      let settings: ExclusionSettings = { excludedFolders: ["Private"], excludedPatterns: ["*.draft.md"] };
      const { index } = setUp(
        { "Private/Diary.md": "secret plans", "Plans.md": "public plans", "Idea.draft.md": "draft plans" },
        { getSettings: () => settings },
      );
      expect(await paths(index, "plans")).toEqual(["Plans.md"]);
      settings = NO_EXCLUSIONS;
      expect((await paths(index, "plans")).sort()).toEqual(["Idea.draft.md", "Plans.md", "Private/Diary.md"]);
    });
  });

  describe("aborting", () => {
    it("stops a search whose signal is aborted, and answers the next one", async () => {
      const { index } = setUp({ "A.md": "alpha" });
      const controller = new AbortController();
      controller.abort(new Error("user stopped"));
      await expect(index.search("alpha", { limit: 5, signal: controller.signal })).rejects.toThrow("user stopped");
      expect(await paths(index, "alpha")).toEqual(["A.md"]);
    });

    it("lets a start cut short by its signal be started again", async () => {
      const files: Record<string, string> = {};
      for (let n = 0; n < 50; n++) files[`N${n}.md`] = `note ${n}`;
      const controller = new AbortController();
      const { index } = setUp(files, {
        sliceBudgetMs: 0,
        yieldNow: async () => {
          controller.abort(new Error("closing"));
        },
      });
      await expect(index.start(controller.signal)).rejects.toThrow("closing");
      const report = await index.start();
      expect(report.indexed + report.unchanged).toBe(50);
      expect(index.noteCount).toBe(50);
    });
  });

  describe("long first build", () => {
    it("reports progress and hands the thread back while it works", async () => {
      const files: Record<string, string> = {};
      for (let n = 0; n < 120; n++) files[`Note ${n}.md`] = `note number ${n} about topic ${n % 7}`;
      const progress: IndexProgress[] = [];
      let handBacks = 0;
      const { index } = setUp(files, {
        onProgress: (step) => progress.push(step),
        sliceBudgetMs: 0,
        yieldNow: async () => {
          handBacks++;
        },
      });
      const report = await index.start();
      expect(report.indexed).toBe(120);
      expect(handBacks).toBeGreaterThan(100);
      const indexing = progress.filter((step) => step.phase === "indexing");
      expect(indexing.at(-1)).toEqual({ phase: "indexing", done: 120, total: 120 });
      expect(indexing.map((step) => step.done)).toEqual([...indexing.map((step) => step.done)].sort((a, b) => a - b));
    });
  });
});
