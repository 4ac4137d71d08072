import { en } from "./en";
import { ENGLISH, LANGUAGES, language, languageFor } from "./languages";
import { translate } from "./translate";

const russian = languageFor("ru");

describe("translate", () => {
  it("fills named placeholders, wherever they stand, and leaves one without a value as written", () => {
    expect(translate(ENGLISH, "approval.run", { tool: "write_file", source: "файлы" })).toBe("Run write_file from файлы?");
    expect(translate(ENGLISH, "history.problem", { path: "庭院/玫瑰.md", reason: "no chat id" })).toBe("“庭院/玫瑰.md” is not a chat Copilot can read (no chat id); it is left as it is.");
    expect(translate(ENGLISH, "approval.run", { tool: "x" })).toBe("Run x from {source}?");
  });

  it("picks English's plural form by count: one, other", () => {
    expect(translate(ENGLISH, "summary.notesFound", { count: 1 })).toBe("1 note found");
    expect(translate(ENGLISH, "summary.notesFound", { count: 0 })).toBe("0 notes found");
    expect(translate(ENGLISH, "summary.notesFound", { count: 1204 })).toBe("1,204 notes found");
  });

  it("picks Russian's plural form by count: one (1, 21), few (2–4, 22), many (5–20, 11), other (fractions)", () => {
    const said = (count: number) => translate(russian, "summary.notesFound", { count });
    expect([1, 21].map(said)).toEqual(["найдена 1 заметка", "найдена 21 заметка"]);
    expect([2, 4, 22].map(said)).toEqual(["найдено 2 заметки", "найдено 4 заметки", "найдено 22 заметки"]);
    expect([5, 11, 12, 20].map(said)).toEqual(["найдено 5 заметок", "найдено 11 заметок", "найдено 12 заметок", "найдено 20 заметок"]);
    expect(said(1.5)).toBe("найдено 1,5 заметки");
  });

  it("writes numbers the language's way", () => {
    expect(translate(russian, "summary.notesFound", { count: 1204 })).toContain("1\u00a0204");
    expect(translate(languageFor("de"), "summary.notesFound", { count: 1204 })).toContain("1.204");
  });

  it("reads a key the language lacks in English", () => {
    const partial = language("xx", "fr-FR", "partial", { "composer.send": "Envoyer" });
    expect(translate(partial, "composer.send")).toBe("Envoyer");
    expect(translate(partial, "composer.stop")).toBe(en["composer.stop"]);
    expect(translate(partial, "summary.notesFound", { count: 2 })).toBe("2 notes found");
  });
});

describe("languageFor", () => {
  it.each([
    ["zh", "zh"],
    ["zh-TW", "zh-TW"],
    ["zh-tw", "zh-TW"],
    ["zh-HK", "zh-TW"],
    ["ja", "ja"],
    ["ko", "ko"],
    ["es", "es"],
    ["de", "de"],
    ["fr", "fr"],
    ["ru", "ru"],
    ["pt-BR", "pt-BR"],
    ["pt", "pt-BR"],
    ["en", "en"],
    ["en-GB", "en"],
    ["ar", "en"],
    ["he", "en"],
    ["th", "en"],
    ["", "en"],
    [null, "en"],
  ])("reads Obsidian's %j as %s", (code, expected) => {
    expect(languageFor(code).code).toBe(expected);
  });

  it("ships the ten languages, each once", () => {
    expect(LANGUAGES.map((language) => language.code)).toEqual(["en", "zh", "zh-TW", "ja", "ko", "es", "de", "fr", "ru", "pt-BR"]);
  });
});
