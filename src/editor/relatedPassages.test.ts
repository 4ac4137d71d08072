import { makeTempVault, type TempVault } from "../../test/helpers/tempVault";
import { searchOutsideChats } from "../history/searchOutsideChats";
import type { NoteSearcher } from "../ports/NoteSearcher";
import type { Scheduler } from "../ports/timers";
import { NoteIndex } from "../search/NoteIndex";
import { FsDataStore, pluginDataFolder } from "../vault/fsDataStore";
import { FsVault } from "../vault/FsVault";
import { completionContext } from "./completionContext";
import { passagesWithin, RELATED_PASSAGE_LIMITS, relatedPassages, type RelatedPassage } from "./relatedPassages";

describe("the related passages a completion carries", () => {
  let temp: TempVault;
  let index: NoteIndex;
  let search: NoteSearcher;
  const long = `${"Бюджет проекта «Север» утверждён советом. ".repeat(30)}Конец.`;
  beforeEach(() => {
    temp = makeTempVault({
      "Проекты/Север.md": `# Бюджет\n\n${long}\n\n# Люди\n\nАнна ведёт закупки.`,
      "Проекты/Север (черновик).md": "Бюджет проекта «Север»: черновик.",
      "日记/会议.md": "# 预算\n\n北方项目的预算已经批准。",
      "copilot/chats/2026-12-01 Бюджет.md": "---\nchat-id: a\n---\n## You · x\n\nБюджет проекта «Север»?\n",
      "Рабочее/Письмо.md": "Коллеги, бюджет проекта «Север»",
    });
    const vault = new FsVault(temp.root);
    index = new NoteIndex({ vault, store: new FsDataStore(pluginDataFolder(vault.root, vault.configDir)), getSettings: () => ({ excludedFolders: [], excludedPatterns: [], maxResults: 10 }), timeZone: () => "UTC" });
    search = searchOutsideChats(index, () => "copilot/chats/", ".obsidian");
  });
  afterEach(async () => {
    await index.dispose();
    temp.remove();
  });

  const writing = (path: string, text: string) => completionContext(path, text, text.length);

  it("finds other notes by the text before the cursor, never the note being written nor a saved chat", async () => {
    const passages = await relatedPassages(search, writing("Рабочее/Письмо.md", "Коллеги, бюджет проекта «Север»"), new AbortController().signal);
    const titles = passages.map((passage) => passage.title);
    expect(titles).toEqual(expect.arrayContaining(["Север", "Север (черновик)"]));
    expect(titles).not.toContain("Письмо");
    expect(titles.some((title) => title.includes("2026-12-01"))).toBe(false);
    expect(passages.length).toBeLessThanOrEqual(RELATED_PASSAGE_LIMITS.notes);
  });

  it("cuts a long passage to its limit at a word, saying so with an ellipsis, and keeps its heading", async () => {
    const passages = await relatedPassages(search, writing("Рабочее/Письмо.md", "Коллеги, бюджет проекта «Север»"), new AbortController().signal);
    const north = passages.find((passage) => passage.title === "Север")!;
    expect(north.heading).toBe("Бюджет");
    expect(north.content.length).toBeLessThanOrEqual(RELATED_PASSAGE_LIMITS.characters + 2);
    expect(north.content.endsWith(" …")).toBe(true);
    expect(long.startsWith(north.content.slice(0, -2))).toBe(true);
  });

  it("searches text without spaces (Han) by its own words", async () => {
    const passages = await relatedPassages(search, writing("日记/周报.md", "本周我们讨论了北方项目的预算"), new AbortController().signal);
    expect(passages.map((passage) => passage.title)).toContain("会议");
  });

  it("asks nothing for an empty note with no title", async () => {
    const asked: string[] = [];
    const recording: NoteSearcher = { search: async (query) => (asked.push(query), []) };
    expect(await relatedPassages(recording, writing("", ""), new AbortController().signal)).toEqual([]);
    expect(asked).toEqual([]);
  });
});

describe("the time a completion waits for its passages", () => {
  /** Timers that fire only when the test says so. */
  function manualScheduler() {
    const due: Array<{ handle: number; callback: () => void }> = [];
    let next = 1;
    const scheduler: Scheduler = {
      setTimeout: (callback) => (due.push({ handle: next, callback }), next++),
      clearTimeout: (handle) => {
        const at = due.findIndex((timer) => timer.handle === handle);
        if (at !== -1) due.splice(at, 1);
      },
      now: () => 0,
    };
    return { scheduler, fire: () => due.splice(0).forEach((timer) => timer.callback()), pending: () => due.length };
  }
  const found: RelatedPassage[] = [{ title: "Север", content: "Бюджет утверждён." }];

  it("gives the passages found within the budget, and clears its timer", async () => {
    const { scheduler, pending } = manualScheduler();
    expect(await passagesWithin(async () => found, { budgetMs: 150, signal: new AbortController().signal, scheduler })).toEqual(found);
    expect(pending()).toBe(0);
  });

  it("goes without them when the budget runs out, and aborts the search", async () => {
    const { scheduler, fire } = manualScheduler();
    let lookupSignal: AbortSignal | undefined;
    const waiting = passagesWithin((signal) => ((lookupSignal = signal), new Promise<RelatedPassage[]>(() => undefined)), { budgetMs: 150, signal: new AbortController().signal, scheduler });
    fire();
    expect(await waiting).toEqual([]);
    expect(lookupSignal!.aborted).toBe(true);
  });

  it("aborts the search when the request is (a key typed), and says nothing of it", async () => {
    const { scheduler } = manualScheduler();
    const typed = new AbortController();
    const problems: string[] = [];
    const waiting = passagesWithin(
      (signal) => new Promise<RelatedPassage[]>((_resolve, reject) => signal.addEventListener("abort", () => reject(new Error("aborted")))),
      { budgetMs: 150, signal: typed.signal, scheduler, onProblem: (message) => problems.push(message) },
    );
    typed.abort();
    expect(await waiting).toEqual([]);
    expect(problems).toEqual([]);
  });

  it("goes without them when the search fails, and says why", async () => {
    const { scheduler } = manualScheduler();
    const problems: string[] = [];
    const passages = await passagesWithin(() => Promise.reject(new Error("the index file could not be read")), { budgetMs: 150, signal: new AbortController().signal, scheduler, onProblem: (message) => problems.push(message) });
    expect(passages).toEqual([]);
    expect(problems).toEqual(["Related passages were left out of a completion: the index file could not be read"]);
  });
});
