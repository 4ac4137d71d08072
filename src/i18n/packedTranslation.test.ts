import { en } from "./en";
import { language, LANGUAGES } from "./languages";
import type { Translation } from "./messages";
import { MISSING, packTranslation, unpackTranslation } from "./packedTranslation";
import { translate } from "./translate";

const OTHER_LANGUAGES = LANGUAGES.filter((shipped) => shipped.code !== "en").map((shipped) => [shipped.code, shipped] as const);

describe("a packed language table", () => {
  it.each(OTHER_LANGUAGES)("%s: unpacks to the very table that was packed, and carries no key name", (_code, shipped) => {
    const packed = packTranslation(en, shipped.table);
    expect(unpackTranslation(en, packed)).toEqual(shipped.table);
    expect(JSON.stringify(packed)).not.toContain('"header.newChat"');
    // Every message of the table, each at its English key's place.
    const keys = Object.keys(en);
    packed.forEach((message, index) => expect(message).toEqual((shipped.table as Record<string, unknown>)[keys[index]!] ?? MISSING));
  });

  it("keeps a key the table lacks missing, so it reads in English, and the keys after it in their places", () => {
    const partial: Translation = { "view.title": "Чат Copilot", "header.model": "Модель" };
    const packed = packTranslation(en, partial);
    expect(packed.slice(0, 5)).toEqual(["Чат Copilot", MISSING, MISSING, MISSING, "Модель"]);
    // The run of missing keys at the end is not written.
    expect(packed).toHaveLength(5);
    const unpacked = unpackTranslation(en, packed);
    expect(Object.keys(unpacked)).toEqual(["view.title", "header.model"]);
    const russian = language("ru", "ru-RU", "Русский", unpacked);
    expect(translate(russian, "header.model")).toBe("Модель");
    expect(translate(russian, "header.newChat")).toBe(en["header.newChat"]);
  });

  it("carries plural forms as they are, and the placeholders in them", () => {
    const partial: Translation = { "summary.notesFound": { one: "{count} заметка найдена", few: "{count} заметки найдены", many: "{count} заметок найдено", other: "{count} заметки найдено" } };
    const russian = language("ru", "ru-RU", "Русский", unpackTranslation(en, packTranslation(en, partial)));
    expect(translate(russian, "summary.notesFound", { count: 1 })).toBe("1 заметка найдена");
    expect(translate(russian, "summary.notesFound", { count: 3 })).toBe("3 заметки найдены");
    expect(translate(russian, "summary.notesFound", { count: 12 })).toBe("12 заметок найдено");
  });

  it("keeps placeholders, in scripts nobody here wrote (Han, Arabic, Thai, emoji, a decomposed name)", () => {
    const path = "庭院/مطبخ/กุหลาบ 🌹 Cafe\u0301.md";
    const partial: Translation = { "history.problem": "「{path}」不是 Copilot 能读的聊天（{reason}），保持原样。" };
    const chinese = language("zh", "zh-CN", "简体中文", unpackTranslation(en, packTranslation(en, partial)));
    expect(translate(chinese, "history.problem", { path, reason: "没有聊天 ID" })).toBe(`「${path}」不是 Copilot 能读的聊天（没有聊天 ID），保持原样。`);
  });

  it("refuses a key English lacks when packing, and a table packed against a longer English when unpacking", () => {
    expect(() => packTranslation(en, { "no.such.key": "x" } as Translation)).toThrow("The table has keys English lacks, which main.js could not carry: no.such.key");
    const longer = [...Object.values(en), "one too many"];
    expect(() => unpackTranslation(en, longer)).toThrow(/holds \d+ messages, but English has only \d+ keys/);
  });
});
