/**
 * `similar NOTE…` finds the note a person means however they type its name: any letter case, the
 * other Unicode form (macOS writes names decomposed), with or without ".md", or the file name
 * without its folder; and says plainly when a name matches no note, or several.
 */
import { runCli } from "../../../test/helpers/runCli";
import { makeTempVault, type TempVault } from "../../../test/helpers/tempVault";

const NFD_NOTE = `ko/${"플러그인".normalize("NFD")}/${"검색".normalize("NFD")}.md`;
const NOTES: Record<string, string> = {
  "ru/Плагины/Поиск.md": "# Поиск\n\nПоиск по заметкам: индекс, слова, ссылки. Плагин ищет заметки.\n",
  "ru/Плагины/Индекс.md": "# Индекс\n\nИндекс слов для поиска по заметкам; плагин обновляет индекс.\n",
  [NFD_NOTE]: "# 검색\n\n노트 검색 플러그인 색인 검색\n",
  "ko/색인.md": "# 색인\n\n노트 검색 색인 플러그인\n",
  "el/Σημειώσεις/Αναζήτηση.md": "# Αναζήτηση\n\nΑναζήτηση σημειώσεων ευρετήριο\n",
  "el/Ευρετήριο.md": "# Ευρετήριο\n\nευρετήριο αναζήτηση σημειώσεων\n",
  "Work/Plan.md": "# Plan\n\nplan budget review\n",
  "Home/Plan.md": "# Plan\n\nplan garden budget\n",
};

let vault: TempVault;
beforeEach(() => {
  vault = makeTempVault(NOTES);
});
afterEach(() => vault.remove());

async function similarNote(name: string): Promise<{ status: number; note?: string; stderr: string }> {
  const result = await runCli(["similar", "--vault", vault.root, "--json", name]);
  const line = result.stdout.trim();
  return { status: result.status, stderr: result.stderr, ...(line ? { note: (JSON.parse(line) as { note: string }).note } : {}) };
}

describe("vault-copilot similar NOTE", () => {
  it.each([
    ["the exact path", "ru/Плагины/Поиск.md", "ru/Плагины/Поиск.md"],
    ["without .md", "ru/Плагины/Поиск", "ru/Плагины/Поиск.md"],
    ["in other letter case", "RU/плагины/ПОИСК.MD", "ru/Плагины/Поиск.md"],
    ["composed, for a name stored decomposed", "ko/플러그인/검색", NFD_NOTE],
    ["decomposed, for a name stored composed", "el/Σημειώσεις/Αναζήτηση.md".normalize("NFD"), "el/Σημειώσεις/Αναζήτηση.md"],
    ["as a file name alone", "αναζήτηση", "el/Σημειώσεις/Αναζήτηση.md"],
    ["as a file name alone, composed, stored decomposed", "검색.md", NFD_NOTE],
  ])("finds a note named by %s, and reports it as it is on disk", async (_how, name, expected) => {
    const found = await similarNote(name);
    expect(found.stderr).toBe("");
    expect(found.status).toBe(0);
    expect(found.note).toBe(expected);
  });

  it("says which notes a name matches when it matches several, and prints nothing for it", async () => {
    const result = await runCli(["similar", "--vault", vault.root, "--json", "ru/Плагины/Поиск", "plan"]);
    expect(result.status).toBe(1);
    // The note before it was answered.
    expect(JSON.parse(result.stdout.trim()).note).toBe("ru/Плагины/Поиск.md");
    expect(result.stderr).toBe('vault-copilot: "plan" matches 2 notes: "Home/Plan.md", "Work/Plan.md"; give the one you mean as it is written there\n');
  });

  it("says when a name matches no note, naming notes with like names", async () => {
    const result = await runCli(["similar", "--vault", vault.root, "ru/Плагины/Поиск заметок"]);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe('vault-copilot: no note matches "ru/Плагины/Поиск заметок" (missing, excluded from the index, or not a note, PDF or canvas); notes with like names: "ru/Плагины/Поиск.md"\n');
  });

  it("takes the note spelled exactly over its look-alikes, and lists the look-alikes when none is spelled so", async () => {
    vault.write("Work/plan.md", "# plan\n\nlower-case twin\n");
    expect((await similarNote("Work/Plan")).note).toBe("Work/Plan.md");
    expect((await similarNote("Work/plan.md")).note).toBe("Work/plan.md");
    const twins = await similarNote("WORK/PLAN");
    expect(twins.status).toBe(1);
    expect(twins.stderr).toContain('"WORK/PLAN" matches 2 notes: "Work/Plan.md", "Work/plan.md" (names that differ only in letter case or Unicode form)');
  });
});
