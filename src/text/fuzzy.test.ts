import { fuzzyScore, nameMatchRank, wordMatcher } from "./fuzzy";

/** "Café" as macOS names files: "e" and a combining accent. */
const DECOMPOSED_CAFE = "Cafe\u0301";

describe("fuzzyScore", () => {
  it("lets a typed space stand for any separator, and still needs every other character in order", () => {
    expect(fuzzyScore("kitchen sal", "Kitchen/Salad")).not.toBeNull();
    expect(fuzzyScore("東京 日記", "旅行/東京の日記")).not.toBeNull();
    expect(fuzzyScore("kitchen soup", "Kitchen/Salad")).toBeNull();
  });

  it("scores a match in the name above one in the folders, and a name that starts with the query highest", () => {
    const inName = fuzzyScore("plan", "Archive/Plan")!;
    const inFolder = fuzzyScore("plan", "Plan/Archive")!;
    expect(inName).toBeGreaterThan(inFolder);
    expect(fuzzyScore("عمل", "ملاحظات/عمل يومي")!).toBeGreaterThan(fuzzyScore("عمل", "عملاء/ملاحظات")!);
  });

  it("finds a name stored decomposed by what was typed composed, and the other way round", () => {
    expect(fuzzyScore("café", `Notes/${DECOMPOSED_CAFE} menu`)).not.toBeNull();
    expect(fuzzyScore(DECOMPOSED_CAFE, "Notes/Café")).not.toBeNull();
    expect(fuzzyScore("🌱 g", "Garden/🌱 Growing")).not.toBeNull();
  });
});

describe("nameMatchRank", () => {
  it("ranks a name that starts with the query, then one that contains it, then one with its characters in order", () => {
    expect(nameMatchRank("пере", "Перевод")).toBe(0);
    expect(nameMatchRank("вод", "Перевод")).toBe(1);
    expect(nameMatchRank("прв", "Перевод")).toBe(2);
    expect(nameMatchRank("вп", "Перевод")).toBeNull();
    expect(nameMatchRank("café", DECOMPOSED_CAFE)).toBe(0);
  });
});

describe("wordMatcher", () => {
  it("counts the query's words of two characters or more that a name holds, in either Unicode form", () => {
    expect(wordMatcher("ru/Плагины/Поиск заметок")("Поиск")).toBe(1);
    expect(wordMatcher("Plan café_menu")(`${DECOMPOSED_CAFE} plan`)).toBe(2);
    expect(wordMatcher("a b")("a b")).toBe(0);
  });
});
