import { FsVault } from "../vault/FsVault";
import { makeTempVault, type TempVault } from "../../test/helpers/tempVault";
import { ContextSuggester, mentionText } from "./contextSuggestions";

let folder: TempVault;
afterEach(() => folder?.remove());

describe("ContextSuggester", () => {
  it("ranks the saved chats and the prompts after every other match, whatever their score", async () => {
    folder = makeTempVault({
      "copilot/chats/2026-12-01 Garden plan.md": "chat",
      "copilot/prompts/Garden.md": "prompt",
      "Projects/Garden plan.md": "plan",
      "Notes/Gardening in spring.md": "spring",
      "Σημειώσεις/Κήπος garden.md": "κήπος",
    });
    const suggester = new ContextSuggester(new FsVault(folder.root), Date.now, () => ["copilot/chats", "copilot/prompts"]);
    const labels = (await suggester.suggest("garden")).map((item) => item.label);
    // "copilot/prompts/Garden" matches best of all by name, and still comes after the others.
    expect(labels).toHaveLength(5);
    expect(labels.slice(0, 3).sort()).toEqual(["Notes/Gardening in spring", "Projects/Garden plan", "Σημειώσεις/Κήπος garden"]);
    expect(labels.slice(3).sort()).toEqual(["copilot/chats/2026-12-01 Garden plan", "copilot/prompts/Garden"]);
    // With nothing typed yet: notes, the chats and prompts last.
    expect((await suggester.suggest("")).map((item) => item.label).slice(-2)).toEqual(["copilot/chats/2026-12-01 Garden plan", "copilot/prompts/Garden"]);
  });
});

describe("mentionText", () => {
  it("writes a note as its link, a folder and a tag as they are, and a name a link cannot hold as plain text", () => {
    expect(mentionText({ kind: "note", value: "Projects/Alpha plan.md", label: "Projects/Alpha plan" })).toBe("[[Projects/Alpha plan]]");
    expect(mentionText({ kind: "folder", value: "日本語", label: "日本語/" })).toBe("日本語/");
    expect(mentionText({ kind: "tag", value: "#work", label: "#work" })).toBe("#work");
    expect(mentionText({ kind: "note", value: "C# notes.md", label: "C# notes" })).toBe("C# notes");
  });
});
