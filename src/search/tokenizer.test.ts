import { foldText, Tokenizer } from "./tokenizer";

describe("Tokenizer", () => {
  const tokenizer = new Tokenizer();

  it("lower-cases, stems English words and drops English function words", () => {
    expect(tokenizer.tokenize("The Running of the Experiments")).toEqual(["run", "experi"]);
  });

  it("folds diacritics so accented and plain spellings meet", () => {
    expect(tokenizer.tokenize("Café Müller naïve")).toEqual(tokenizer.tokenize("cafe muller naive"));
    expect(tokenizer.tokenize("Straße Ørsted")).toEqual(["strass", "orst"]);
  });

  it("unifies compatibility forms: full-width letters and ligatures", () => {
    expect(tokenizer.tokenize("ＡＢＣ ﬁle")).toEqual(["abc", "file"]);
  });

  it("keeps possessives and contractions whole, and numbers with separators", () => {
    expect(tokenizer.tokenize("Alice's notes don't mention 3.5 or 1,000")).toEqual(["alic", "note", "dont", "mention", "3.5", "1,000"]);
  });

  it("splits on punctuation, hyphens and slashes", () => {
    expect(tokenizer.tokenize("IL-6/TNF-α [[Linked note|alias]]")).toEqual(["il", "6", "tnf", "α", "link", "note", "alia"]);
  });

  it("cuts Chinese and Japanese text into words instead of dropping it", () => {
    const chinese = tokenizer.tokenize("我们讨论了机器学习的方法");
    expect(chinese).toContain("机器");
    expect(chinese.join("")).toBe("我们讨论了机器学习的方法");
    const japanese = tokenizer.tokenize("東京で会議がありました");
    expect(japanese).toContain("東京");
    expect(japanese).toContain("会議");
  });

  it("keeps Japanese voicing marks and Hangul syllables intact", () => {
    expect(tokenizer.tokenize("が")).toEqual(["が"]);
    expect(tokenizer.tokenize("한국어 문서")).toEqual(["한국어", "문서"]);
  });

  it("skips runs too long to be words (hashes, encoded data)", () => {
    expect(tokenizer.tokenize(`key ${"a1".repeat(40)} value`)).toEqual(["key", "valu"]);
  });

  it("keeps letters outside the Basic Multilingual Plane", () => {
    expect(tokenizer.tokenize("𝐀𝐁 word")).toEqual(["ab", "word"]);
  });
});

describe("foldText", () => {
  it("leaves plain ASCII as lower case", () => {
    expect(foldText("Hello World")).toBe("hello world");
  });
});
