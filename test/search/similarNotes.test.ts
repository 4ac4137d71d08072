/**
 * Related notes without embeddings: "more like this" over the note index, by the words, tags and
 * links notes share; through NoteIndex.similar and the CLI's `similar`.
 */
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
    // The two garden notes and the linked packing list come before anything else.
    expect(paths[0]).toBe("Garden/Compost.md");
    expect(paths.slice(0, 3)).toContain("Garden/Watering.md");
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
    const { openCliIndex } = await import("../../src/cli/cliIndex");
    const io = { stdout: () => undefined, stderr: () => undefined, env: {}, signal: new AbortController().signal };
    const { index } = await openCliIndex(vault.root, io);
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
      await index.dispose();
    }
  });
});
