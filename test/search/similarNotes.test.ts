import { refuseEverything } from "../../src/ports/approval";
/**
 * Related notes without embeddings: the cosine between the notes' word vectors over the note
 * index, plus the tags and links notes share; through NoteIndex.similar and the CLI's `similar`.
 */
import { NoteIndex } from "../../src/search/NoteIndex";
import type { SimilarNote } from "../../src/search/similarNotes";
import { FsDataStore } from "../../src/vault/fsDataStore";
import { FsVault } from "../../src/vault/FsVault";
import { runCli } from "../helpers/runCli";
import { makeTempVault, type TempVault } from "../helpers/tempVault";

const NOTES: Record<string, string> = {
  "Garden/Tomatoes.md": "---\ntags: [garden]\n---\n# Tomatoes\n\nTomatoes need compost, deep watering and full sun. Prune the suckers; stake the vines.\nSee [[Packing list]].\n",
  "Garden/Compost.md": "# Compost\n\nCompost feeds tomatoes and beans. Turn the compost heap weekly; keep it moist like watering a bed. #garden\n",
  "Garden/Watering.md": "# Watering\n\nDeep watering in the morning; tomatoes and peppers split with uneven watering.\n",
  "Money/Budget 2026.md": "# Budget 2026\n\nThe budget for 2026: rent, invoices, savings. Invoices are paid monthly.\n",
  "Money/Invoices.md": "# Invoices\n\nInvoices from the vendor; the budget line for invoices is reviewed monthly.\n",
  "Travel/Packing list.md": "# Packing list\n\nPassport, charger, rain jacket.\n",
  "Travel/Lisbon.md": "# Lisbon\n\nTrams, pastries and the river. The old town at night.\n",
  "Journal/Seeds.md": "Ordered seeds today. Nothing else.\n[[Tomatoes]] are the plan for spring.\n",
  "copilot/chats/2026-12-01 Tomatoes.md": "---\nchat-id: x\n---\n## You\n\nHow do I grow tomatoes with compost and watering?\n",
};

let vault: TempVault;
beforeEach(() => {
  vault = makeTempVault(NOTES);
});
afterEach(() => vault.remove());

interface JsonLine {
  note: string;
  similar: Array<{ path: string; score: number }>;
}

async function similarJson(...notes: string[]): Promise<JsonLine[]> {
  const result = await runCli(["similar", "--vault", vault.root, "--json", "--limit", "4", ...notes]);
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
  return result.stdout.trim().split("\n").map((line) => JSON.parse(line) as JsonLine);
}

describe("vault-copilot similar", () => {
  it("lists the notes that share a note's distinctive words first, never the note itself nor a chat", async () => {
    const [tomatoes] = await similarJson("Garden/Tomatoes");
    const paths = tomatoes!.similar.map((note) => note.path);
    expect(tomatoes!.note).toBe("Garden/Tomatoes.md");
    // The garden notes and the notes linked either way come before anything else; of the notes
    // with no link, the one sharing the most (compost, tomatoes, watering, the tag) comes first.
    expect(new Set(paths)).toEqual(new Set(["Garden/Compost.md", "Garden/Watering.md", "Travel/Packing list.md", "Journal/Seeds.md"]));
    expect(paths.indexOf("Garden/Compost.md")).toBeLessThan(paths.indexOf("Garden/Watering.md"));
    expect(paths).not.toContain("Garden/Tomatoes.md");
    expect(paths.some((path) => path.startsWith("copilot/chats/"))).toBe(false);
    expect(paths).not.toContain("Money/Budget 2026.md");
    const scores = tomatoes!.similar.map((note) => note.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it("counts links both ways: a linked note is listed even without shared words", async () => {
    const [tomatoes] = await similarJson("Garden/Tomatoes.md");
    expect(tomatoes!.similar.map((note) => note.path)).toEqual(expect.arrayContaining(["Travel/Packing list.md", "Journal/Seeds.md"]));
  });

  it("prints one list per note (plain: paths one per line, a blank line between)", async () => {
    const result = await runCli(["similar", "--vault", vault.root, "--limit", "2", "Money/Budget 2026.md", "Garden/Compost.md"]);
    expect(result.status).toBe(0);
    const [budget, compost] = result.stdout.split("\n\n");
    expect(budget!.trim().split("\n")[0]).toBe("Money/Invoices.md");
    expect(compost!.trim().split("\n")).toHaveLength(2);
    expect(compost).toContain("Garden/Tomatoes.md");
  });

  it("ends with status 1 and one line for a note that is not there", async () => {
    const result = await runCli(["similar", "--vault", vault.root, "Nowhere.md"]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/no note matches "Nowhere\.md"/);
  });
});

describe("NoteIndex.similar", () => {
  it("says why: the shared words as the note writes them, the shared tags, the link", async () => {
    const { openCliServices, openVaultSession } = await import("../../src/cli/cliRuntime");
    const io = { stdout: () => undefined, stderr: () => undefined, env: {}, signal: new AbortController().signal };
    const services = openCliServices(await openVaultSession(vault.root, io), io, refuseEverything("no changes here"));
    const index = services.noteIndex;
    try {
      const similar = await index.similar("Garden/Tomatoes.md", { limit: 5, outsideFolder: "copilot/chats" });
      const compost = similar.find((note) => note.path === "Garden/Compost.md");
      expect(compost?.sharedTerms).toEqual(expect.arrayContaining(["compost", "tomatoes"]));
      expect(compost?.link).toBeNull();
      expect(compost?.sharedTags).toEqual(["#garden"]);
      expect(similar.find((note) => note.path === "Travel/Packing list.md")?.link).toBe("links-to");
      expect(similar.find((note) => note.path === "Journal/Seeds.md")?.link).toBe("linked-from");
      expect(compost!.score).toBeGreaterThan(0);
    } finally {
      await services.dispose();
    }
  });
});

/** NoteIndex.similar over a real folder of `notes`: the related notes of `path`. */
async function relatedIn(notes: Record<string, string>, path: string, limit = 5): Promise<SimilarNote[]> {
  const folder = makeTempVault(notes);
  const index = new NoteIndex({ vault: new FsVault(folder.root), store: new FsDataStore(`${folder.root}/.index`), getSettings: () => ({ excludedFolders: [], excludedPatterns: [] }) });
  try {
    return await index.similar(path, { limit });
  } finally {
    await index.dispose();
    folder.remove();
  }
}

/** Filler notes, so that words have an idf to speak of (a word in every note says nothing). */
const FILLER: Record<string, string> = Object.fromEntries(
  ["Lisbon trams", "Tax return", "Guitar chords", "Bike repair", "Chess openings", "Tea brewing"].map((title, position) => [
    `Misc/${title}.md`,
    `# ${title}\n\nNotes on ${title.toLowerCase()}, part ${position}: weather, plans and the week.\n`,
  ]),
);

describe("related notes by word vectors", () => {
  it("relates notes by what they say, not by the folder they share (Cyrillic and Han text too)", async () => {
    const notes = {
      ...FILLER,
      "Заметки/Борщ.md": "# Борщ\n\nСвёкла, капуста, морковь и картофель; варить борщ на говяжьем бульоне, сметана в конце.\n",
      "Заметки/Налоги.md": "# Налоги\n\nДекларация до конца апреля, вычет за лечение и обучение.\n",
      "Кухня/Щи.md": "# Щи\n\nКапуста, морковь и картофель на говяжьем бульоне; как борщ, только без свёклы. Сметана.\n",
      "笔记/红烧肉.md": "# 红烧肉\n\n五花肉切块，冰糖炒糖色，加酱油和八角，小火炖一小时。\n",
      "笔记/出差报销.md": "# 出差报销\n\n发票、行程单和审批单一起提交，月底前报销。\n",
      "厨房/东坡肉.md": "# 东坡肉\n\n五花肉整块，加酱油、冰糖和黄酒，小火炖两小时，和红烧肉做法相近。\n",
    };
    const borscht = await relatedIn(notes, "Заметки/Борщ.md");
    expect(borscht[0]?.path).toBe("Кухня/Щи.md");
    // The tax note shares the folder and little else ("и"): the folder's name is no reason given.
    const taxes = borscht.find((note) => note.path === "Заметки/Налоги.md");
    expect(taxes?.sharedTerms ?? []).not.toContain("заметки");
    expect(taxes?.score ?? 0).toBeLessThan(borscht[0]!.score / 2);
    const braised = await relatedIn(notes, "笔记/红烧肉.md");
    expect(braised[0]?.path).toBe("厨房/东坡肉.md");
    const expenses = braised.find((note) => note.path === "笔记/出差报销.md");
    expect(expenses?.sharedTerms ?? []).not.toContain("笔记");
    expect(expenses?.score ?? 0).toBeLessThan(braised[0]!.score / 2);
  });

  it("counts a word in a title more than the same word in a body", async () => {
    const notes = {
      ...FILLER,
      "Sourdough starter.md": "# Sourdough starter\n\nFeed the sourdough starter with flour and water; keep it warm.\n",
      "Bread/Rye loaf.md": "# Rye loaf\n\nA dense loaf of rye, made with sourdough and caraway, baked long.\n",
      // Longer than the rye note (its extra words are in the pantry note too, so they count):
      // without the title's weight, length alone would put it second.
      "Bread/Sourdough.md": "# Sourdough\n\nA dense loaf of wheat, made with salt, caraway, malt, honey and seeds, baked long in a cast iron pot.\n",
      "Pantry.md": "# Pantry\n\nWheat, salt, malt, honey, seeds; the cast iron pot on the top shelf.\n",
    };
    const related = (await relatedIn(notes, "Sourdough starter.md")).map((note) => note.path);
    expect(related.slice(0, 2)).toEqual(["Bread/Sourdough.md", "Bread/Rye loaf.md"]);
  });

  it("says why with the shared words that add most to the match, the most first", async () => {
    const notes = {
      ...FILLER,
      // "weather" is in every filler note (cheap); "glacier" and "crampons" only in these two. The
      // walk weighs "glacier" most (its title), the other note "crampons" (its title): "crampons"
      // adds most to the match of the two.
      "Hikes/Glacier walk.md": "# Glacier walk\n\nThe glacier walk needs crampons, good crampons; check the weather the day before. Weather turns fast.\n",
      "Hikes/Crampons.md": "# Crampons\n\nTwelve-point crampons, fitted to the boots at home; on a glacier the weather decides the day. Crampons stay sharp.\n",
    };
    const [first] = await relatedIn(notes, "Hikes/Glacier walk.md", 1);
    expect(first?.path).toBe("Hikes/Crampons.md");
    expect(first?.sharedTerms.slice(0, 2)).toEqual(["crampons", "glacier"]);
    expect(first?.sharedTerms.indexOf("weather") === -1 || first!.sharedTerms.indexOf("weather") > 1).toBe(true);
  });
});
