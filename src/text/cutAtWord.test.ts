import { cutAtWord } from "./cutAtWord";

describe("cutAtWord", () => {
  it("keeps text within the limit as it is", () => {
    expect(cutAtWord("Привет, мир", 11)).toBe("Привет, мир");
  });

  it("ends at the last space near the limit", () => {
    expect(cutAtWord("Бюджет проекта утверждён советом", 25)).toBe("Бюджет проекта утверждён");
  });

  it("cuts text without spaces (Han) at the limit, and never between the two halves of an emoji", () => {
    expect(cutAtWord("北方项目的预算已经批准", 4)).toBe("北方项目");
    const cut = cutAtWord("🎉🎉🎉", 3);
    expect(cut).toBe("🎉");
    expect(encodeURIComponent(cut)).toBe("%F0%9F%8E%89");
  });
});
