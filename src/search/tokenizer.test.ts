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
    expect(chinese).toContain("学习");
    const japanese = tokenizer.tokenize("東京で会議がありました");
    expect(japanese).toContain("東京");
    expect(japanese).toContain("会議");
  });

  it("adds every pair of adjacent Chinese characters, so a word cut differently in a note and a question still meets", () => {
    // The segmenter keeps "烤面包" whole but cuts "面包" alone elsewhere: the pair "面包" joins them.
    expect(tokenizer.tokenize("烤面包")).toEqual(["烤面包", "烤面", "面包", "烤", "包"]);
    expect(tokenizer.tokenize("面包烤箱的温度")).toEqual(expect.arrayContaining(["面包", "烤箱"]));
    // Pairs across the segmenter's word boundaries too ("机器"+"学习" gives "器学").
    expect(tokenizer.tokenize("机器学习")).toEqual(["机器", "机", "器学", "学习", "习"]);
    expect(tokenizer.tokenize("機器學習")).toEqual(["機器", "機", "器學", "學習", "習"]);
  });

  it("gives a two-character word once, a one-character word as itself, and a stretch's first and last character alone", () => {
    expect(tokenizer.tokenize("我们讨论了")).toEqual(["我们", "我", "们讨", "讨论", "论了", "了"]);
    expect(tokenizer.tokenize("猫")).toEqual(["猫"]);
  });

  it("keeps Latin words inside Chinese text whole, and pairs only the Han characters", () => {
    expect(tokenizer.tokenize("用Python写爬虫")).toEqual(["用", "python", "写", "写爬", "爬虫", "虫"]);
    expect(tokenizer.tokenize("iPhone手机")).toEqual(["iphon", "手机", "手", "机"]);
  });

  it("pairs kanji and kana of Japanese text alike, and leaves Thai as the segmenter cuts it", () => {
    expect(tokenizer.tokenize("東京で会議がありました")).toEqual(["東京", "東", "京で", "で", "で会", "会議", "議が", "が", "があ", "ありま", "あり", "りま", "まし", "した", "た"]);
    expect(tokenizer.tokenize("機械学習の勉強")).toEqual(["機械", "機", "械学", "学習", "習の", "の", "の勉", "勉強", "強"]);
    expect(tokenizer.tokenize("ภาษาไทยง่ายนิดเดียว")).toEqual(["ภาษา", "ไทย", "ง่าย", "นิด", "เดียว"]);
  });

  it("lets a phrase cut short at either end still meet its note (the pairs, and a stretch's edge characters)", () => {
    const meets = (cut: string, whole: string) => {
      const wholeTerms = new Set(tokenizer.tokenize(whole));
      return tokenizer.tokenize(cut).filter((term) => wholeTerms.has(term));
    };
    // Cut inside quotes: one character is left on each side, and the note has it alone too.
    expect(meets("符“{0}”重", "标识符“{0}”重复")).toEqual(["符", "0", "重"]);
    // A kana word cut short: the segmenter breaks it apart, the kana pairs still meet.
    expect(meets("見つかりませ", "グローバル値が見つかりません。")).toEqual(expect.arrayContaining(["見つ", "つか", "かり", "りま", "ませ"]));
    expect(meets("ーバル値", "グローバル値")).toEqual(expect.arrayContaining(["ーバ", "バル"]));
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

  it("makes each emoji a term of its own, between words or inside one, without its presentation, skin tone or joiner", () => {
    expect(tokenizer.tokenize("📚 Books")).toEqual(["📚", "book"]);
    expect(tokenizer.tokenize("done✅ ❤️ 👍🏽")).toEqual(["done", "✅", "❤", "👍"]);
    expect(tokenizer.tokenize("👨‍👩‍👧 Привет🎉мир")).toEqual(["👨", "👩", "👧", "привет", "🎉", "мир"]);
    expect(tokenizer.tokenize("#📚/reading")).toEqual(["📚", "read"]);
    // A query of the emoji alone, with or without its presentation selector, is the same term.
    expect(tokenizer.tokenize("❤")).toEqual(tokenizer.tokenize("❤️"));
  });
});

describe("foldText", () => {
  it("leaves plain ASCII as lower case", () => {
    expect(foldText("Hello World")).toBe("hello world");
  });
});
