import { ghostAfterTyping, nextWord } from "./ghostText";

describe("ghost text", () => {
  it("stays, shorter and moved on, while the user types its own next characters", () => {
    expect(ghostAfterTyping({ at: 10, text: " мы пошли домой" }, 10, " м")).toEqual({ at: 12, text: "ы пошли домой" });
    expect(ghostAfterTyping({ at: 3, text: "决定下周发布" }, 3, "决定")).toEqual({ at: 5, text: "下周发布" });
  });

  it("ends when the typing differs, happens elsewhere, or uses it all up", () => {
    expect(ghostAfterTyping({ at: 10, text: " мы пошли" }, 10, " вы")).toBeNull();
    expect(ghostAfterTyping({ at: 10, text: " мы пошли" }, 4, " м")).toBeNull();
    expect(ghostAfterTyping({ at: 10, text: "ok" }, 10, "ok")).toBeNull();
  });

  it("gives Ctrl/Cmd+Right one word at a time, with the spaces before it, in any script", () => {
    expect(nextWord(" мы пошли домой")).toBe(" мы");
    expect(nextWord("naïve café")).toBe("naïve");
    expect(nextWord("🎉 done")).toBe("🎉");
    // Chinese is written without spaces: a word is what the segmenter finds, not the whole run.
    expect(nextWord("我们明天发布新版本").length).toBeLessThan("我们明天发布新版本".length);
  });
});
