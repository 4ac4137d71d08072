import { makeTempVault, type TempVault } from "../../test/helpers/tempVault";
import { readChipArtifacts } from "../chat/chipArtifacts";
import { FsVault } from "../vault/FsVault";
import { findPrompt, loadPrompts, parsePromptNote } from "./customPrompt";
import { EDIT_ANSWER_INSTRUCTION, fillPrompt } from "./fillPrompt";
import { matchPrompts } from "./PromptLibrary";
import { createStarterPrompts, STARTER_PROMPTS } from "./starterPrompts";

describe("prompt notes", () => {
  it("reads the name from the note, the settings from the frontmatter and the prompt from the body", () => {
    const prompt = parsePromptNote("copilot/prompts/Tidy up.md", "---\ndescription: Tidy\nmode: agent\nmodel: small\nedit: true\ncommand: true\n---\n\nTidy {{selection}}.\n");
    expect(prompt).toEqual({ name: "Tidy up", path: "copilot/prompts/Tidy up.md", description: "Tidy", mode: "agent", model: "small", edit: true, command: true, menu: false, body: "Tidy {{selection}}." });
    expect(parsePromptNote("p/Plain.md", "Just a prompt.")).toMatchObject({ name: "Plain", description: "", edit: false, body: "Just a prompt." });
  });

  it.each([
    ["---\nmode: sing\n---\nx", 'its mode "sing" is not one of chat, vault-qa, agent', { code: "mode-invalid", mode: '"sing"', modes: "chat, vault-qa, agent" }],
    ["---\nedit: yes please\n---\nx", 'its "edit" is not true or false', { code: "not-true-or-false", key: "edit" }],
    ["---\nmodel: 3\n---\nx", "its model is not a name", { code: "model-not-name" }],
    ["---\ndescription: [unclosed\n---\nx", "its frontmatter is not valid YAML", { code: "frontmatter-not-yaml", detail: expect.any(String) }],
    ["---\ndescription: x\nno end", "its frontmatter is not closed by a --- line", { code: "frontmatter-not-closed" }],
    ["---\n- a list\n---\nx", "its frontmatter is not a set of properties", { code: "frontmatter-not-properties" }],
    ["---\ndescription: x\n---\n   \n", "it has no prompt text", { code: "no-prompt-text" }],
  ])("reports a broken prompt note %j, with the reason's case", (text, reason, problem) => {
    expect(() => parsePromptNote("p/Bad.md", text)).toThrow(`The prompt "p/Bad.md" was not loaded: ${reason}`);
    expect(() => parsePromptNote("p/Bad.md", text)).toThrow(expect.objectContaining({ problem }));
  });

  describe("over a folder", () => {
    let temp: TempVault;
    let vault: FsVault;
    beforeEach(() => {
      temp = makeTempVault({
        "copilot/prompts/B.md": "Second",
        "copilot/prompts/sub/A.md": "First",
        "copilot/prompts/Broken.md": "---\nmode: 1\n---\nx",
        "Elsewhere/C.md": "Not a prompt",
        "Projects/Alpha.md": "# Alpha\n\nAlpha is due in May.\n#project\n",
        "Projects/Beta.md": "Beta is #project too.\n",
        ...Object.fromEntries(Array.from({ length: 25 }, (_, index) => [`Many/Note ${String(index).padStart(2, "0")}.md`, `note ${index}`])),
      });
      vault = new FsVault(temp.root);
    });
    afterEach(() => temp.remove());

    it("loads every prompt of the folder by name, reporting the broken ones", async () => {
      const { prompts, problems } = await loadPrompts(vault, "copilot/prompts");
      expect(prompts.map((prompt) => prompt.name)).toEqual(["A", "B"]);
      expect(problems.map((problem) => problem.path)).toEqual(["copilot/prompts/Broken.md"]);
      expect(findPrompt(prompts, "b")?.body).toBe("Second");
      expect(findPrompt(prompts, "C")).toBeUndefined();
    });

    it("fills each variable, attaching what it names as context before the question", async () => {
      const filled = await fillPrompt(
        { body: "Compare {{activeNote}}, {{[[Beta]]}}, {{#project}}, {{Projects/}} and {{selection}} on {{ date }}; keep {{unknown}}.", edit: false },
        vault,
        { selection: { text: "Alpha is due", path: "Projects/Alpha.md", fromLine: 3, toLine: 3 }, activeNotePath: "Projects/Alpha.md", now: Date.UTC(2026, 11, 3, 23, 30), timeZone: "Asia/Tokyo" },
      );
      expect(filled.message).toBe(
        "Compare the note [[Projects/Alpha]] (attached above), [[Projects/Beta]] (attached above), the notes tagged #project (attached above), the notes in Projects/ (attached above) and the selected text (attached above) on 2026-12-04; keep {{unknown}}.",
      );
      expect(filled.chips.map((chip) => chip.id)).toEqual(["note:Projects/Alpha.md", "note:Projects/Beta.md", "tag:#project", "folder:Projects", "selection:Projects/Alpha.md#L3-L3"]);
      expect(filled.notices).toEqual([]);
      const { artifacts } = await readChipArtifacts(vault, filled.chips);
      // Each note once, however many variables name it; the selection as selected.
      expect(artifacts.map((artifact) => artifact.id)).toEqual(["note:Projects/Alpha.md", "note:Projects/Beta.md", "selection:Projects/Alpha.md#L3-L3"]);
    });

    it("says what a variable could not fill, and caps what a folder brings", async () => {
      const filled = await fillPrompt({ body: "{{selection}}|{{activeNote}}|{{[[Nowhere]]}}|{{Empty/}}|{{Many/}}", edit: true }, vault, { now: 0, timeZone: "UTC" });
      expect(filled.message).toBe(`||[[Nowhere]]|Empty/|the notes in Many/ (attached above)\n\n${EDIT_ANSWER_INSTRUCTION}`);
      expect(filled.notices.map((notice) => notice.text)).toEqual([
        "No text is selected, so {{selection}} is empty.",
        "No note is open, so {{activeNote}} is empty.",
        'There is no note "Nowhere", so {{[[Nowhere]]}} attached nothing.',
        'There are no notes in "Empty/", so {{Empty/}} attached nothing.',
      ]);
      const { artifacts, problems } = await readChipArtifacts(vault, filled.chips);
      expect(artifacts).toHaveLength(20);
      expect(problems).toEqual([{ text: "Many/: only the first 20 of 25 notes were attached", case: { code: "folder-capped", folder: "Many/", cap: 20, count: 25 } }]);
    });

    it("creates the starter prompts only when asked, never over a prompt of the same name", async () => {
      expect((await loadPrompts(vault, "copilot/prompts")).prompts).toHaveLength(2);
      temp.write("copilot/prompts/Summarize.md", "My own summary prompt");
      const created = await createStarterPrompts(vault, "copilot/prompts");
      expect(created).toEqual(Object.keys(STARTER_PROMPTS).filter((name) => name !== "Summarize").map((name) => `copilot/prompts/${name}.md`));
      const { prompts, problems } = await loadPrompts(vault, "copilot/prompts");
      expect(findPrompt(prompts, "Summarize")?.body).toBe("My own summary prompt");
      expect(findPrompt(prompts, "Fix grammar")).toMatchObject({ edit: true, command: true, menu: true });
      expect(problems).toHaveLength(1);
    });
  });
});

describe("matchPrompts", () => {
  it("lists names that start with what was typed, then those that contain it, then those with its letters in order, each by name", () => {
    const prompts = ["Übersetzen", "Zusammenfassen", "Kurz fassen", "Fassung prüfen", "Café notes"].map((name) => parsePromptNote(`p/${name}.md`, "Text."));
    const names = (query: string) => matchPrompts(prompts, query).map((prompt) => prompt.name);
    expect(names("fass")).toEqual(["Fassung prüfen", "Kurz fassen", "Zusammenfassen"]);
    expect(names("zsf")).toEqual(["Zusammenfassen"]);
    expect(names("kurz f")).toEqual(["Kurz fassen"]);
    // A name typed composed finds the prompt whose note name is decomposed.
    expect(matchPrompts([parsePromptNote("p/Cafe\u0301 notes.md", "Text.")], "café").map((prompt) => prompt.name)).toEqual(["Cafe\u0301 notes"]);
  });
});
