/**
 * @jest-environment node
 *
 * Search by meaning inside a project: a note outside it that is close in meaning alone (no shared
 * word) is found over the whole vault, and never inside the project, by `search` or `similar`.
 */
import { startEmbeddingServer, type EmbeddingServer } from "../helpers/embeddingServer";
import { runCli } from "../helpers/runCli";
import { makeTempVault, type TempVault } from "../helpers/tempVault";

const NOTES: Record<string, string> = {
  "copilot/projects/Гараж.md": "---\nfolders: [Гараж 🚗]\n---\n",
  "Гараж 🚗/Ремонт.md": "# Ремонт\n\nThe car needs new brakes before winter.\n",
  "Гараж 🚗/Шины.md": "# Шины\n\nWinter tyres for the car, bought in October.\n",
  "Личное/Мотор.md": "# Мотор\n\nSECRET-MOTOR dreams about a motor show.\n",
};

let vault: TempVault;
let server: EmbeddingServer;
beforeEach(async () => {
  vault = makeTempVault(NOTES);
  server = await startEmbeddingServer({ synonyms: { automobile: "car", vehicle: "car", motor: "car" } });
});
afterEach(async () => {
  await server.close();
  vault.remove();
});

const embeddings = () => ["--embedding-base-url", server.baseUrl, "--embedding-model", "test-embed"];

async function paths(argv: string[]): Promise<string[]> {
  const result = await runCli(argv);
  expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: "" });
  const parsed = JSON.parse(result.stdout) as { results?: { path: string }[]; similar?: { path: string }[] };
  return (parsed.results ?? parsed.similar ?? []).map((hit) => hit.path);
}

describe("meaning search in a project", () => {
  it("finds the outside note by meaning over the whole vault, and never inside the project", async () => {
    expect(await paths(["search", "--vault", vault.root, "--json", ...embeddings(), "vehicle"])).toContain("Личное/Мотор.md");
    // Two hits asked, two notes of the project close in meaning: the index ranks only the project's
    // notes, so the outside one takes no place that the project's notes would then lack.
    const inside = await paths(["search", "--vault", vault.root, "--json", "--limit", "2", "--project", "Гараж", ...embeddings(), "vehicle"]);
    expect(inside.sort()).toEqual(["Гараж 🚗/Ремонт.md", "Гараж 🚗/Шины.md"]);
  });

  it("relates a project's note only to the project's notes, by words and by meaning", async () => {
    expect(await paths(["similar", "--vault", vault.root, "--json", ...embeddings(), "Гараж 🚗/Ремонт.md"])).toContain("Личное/Мотор.md");
    const related = await paths(["similar", "--vault", vault.root, "--json", "--project", "Гараж", ...embeddings(), "Гараж 🚗/Ремонт.md"]);
    expect(related).toEqual(["Гараж 🚗/Шины.md"]);
  });
});
