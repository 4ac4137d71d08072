import { stemEnglish } from "./englishStemmer";

describe("stemEnglish (Porter2)", () => {
  // Pairs from the Snowball English stemmer's published sample vocabulary and its description.
  const cases: Record<string, string> = {
    consign: "consign", consigned: "consign", consigning: "consign", consignment: "consign",
    consisted: "consist", consistency: "consist", consistently: "consist", consists: "consist",
    consolation: "consol", consolatory: "consolatori", consolidating: "consolid", consolingly: "consol",
    conspiracy: "conspiraci", conspirators: "conspir", constables: "constabl", constancy: "constanc",
    knackeries: "knackeri", knaves: "knave", knavish: "knavish", kneaded: "knead", kneeling: "kneel",
    knightly: "knight", knitting: "knit", knives: "knive", generously: "generous", generate: "generat",
    communication: "communic", university: "univers", running: "run", hopping: "hop", hoped: "hope",
    agreed: "agre", feed: "feed", filing: "file", failing: "fail", fizzed: "fizz", sized: "size",
    happily: "happili", cried: "cri", ties: "tie", ponies: "poni", caresses: "caress", relational: "relat",
    conditional: "condit", rational: "ration", digitizer: "digit", operator: "oper", effective: "effect",
    gaps: "gap", gas: "gas", kiwis: "kiwi",
  };

  it.each(Object.entries(cases))("stems %s to %s", (word, stem) => {
    expect(stemEnglish(word)).toBe(stem);
  });

  it("applies the algorithm's exceptions", () => {
    expect(["skies", "dying", "news", "early", "bias"].map(stemEnglish)).toEqual(["sky", "die", "news", "earli", "bias"]);
  });

  it("leaves short words, numbers and other scripts alone", () => {
    expect(["is", "2026", "covid19", "été", "東京"].map(stemEnglish)).toEqual(["is", "2026", "covid19", "été", "東京"]);
  });
});
