import { TermTable } from "./TermTable";

describe("TermTable", () => {
  it("numbers terms in order of arrival and gives each back by number, in any script", () => {
    const table = new TermTable();
    const terms = ["помощь", "机器学习", "学习", "مكتبة", "ภาษาไทย", "🧪🔬", "cafe\u0301", "café", "", "x"];
    const ids = terms.map((term) => table.idOf(term));
    expect(ids).toEqual(terms.map((_, position) => position));
    expect(terms.map((term) => table.find(term))).toEqual(ids);
    expect(ids.map((id) => table.text(id))).toEqual(terms);
    // The same text again keeps its number; NFD and NFC spellings stay two terms.
    expect(table.idOf("机器学习")).toBe(1);
    expect(table.find("cafe\u0301")).not.toBe(table.find("café"));
    expect(table.size).toBe(terms.length);
  });

  it("finds nothing for a text never added, a prefix or a longer text", () => {
    const table = new TermTable();
    table.idOf("note");
    expect(table.find("not")).toBeUndefined();
    expect(table.find("notes")).toBeUndefined();
    expect(table.find("Note")).toBeUndefined();
  });

  it("keeps every term findable as it grows past its first arrays", () => {
    const table = new TermTable();
    const words = Array.from({ length: 50_000 }, (_, n) => `${n.toString(36)}·слово${n % 7 === 0 ? "词" : ""}`);
    for (const word of words) table.idOf(word);
    expect(table.size).toBe(words.length);
    expect(words.every((word, id) => table.find(word) === id && table.text(id) === word)).toBe(true);
    expect(table.find("50000·слово")).toBeUndefined();
  });
});
