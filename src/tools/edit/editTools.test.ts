import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { callTool, makeToolDependencies } from "../../../test/helpers/toolHarness";
import { makeTempVault, type TempVault } from "../../../test/helpers/tempVault";
import { DEFAULT_SETTINGS } from "../../constants";
import { FsVault } from "../../vault/FsVault";
import type { ApprovalDecision, ApprovalPort, EditProposal } from "../../ports/approval";
import { runTool } from "../runTool";
import type { ToolDependencies } from "../toolDependencies";
import { EditHistory } from "./EditHistory";
import { MAX_EDIT_PROPOSALS, type EditOutcome } from "./proposeAndApplyEdit";
import { replaceInFileTool } from "./replaceInFile";
import { writeToFileTool } from "./writeToFile";

/** The user at the approval view: answers each proposal, and may do something to the vault meanwhile. */
class ScriptedUser implements ApprovalPort {
  readonly proposals: EditProposal[] = [];
  constructor(private readonly answer: (proposal: EditProposal, index: number) => ApprovalDecision | Promise<ApprovalDecision> = () => ({ approved: true })) {}
  async requestApproval(proposal: EditProposal): Promise<ApprovalDecision> {
    this.proposals.push(proposal);
    return this.answer(proposal, this.proposals.length - 1);
  }
}

let vault: TempVault;
let fsVault: FsVault;
let history: EditHistory;

const PLAN = "# Plan\n\n- [ ] draft\n- [ ] review\n- [ ] ship\n\nNotes: draft first.\n";

beforeEach(() => {
  vault = makeTempVault({ "Projects/Plan.md": PLAN, "Other.md": "untouched\n", "Windows.md": "line one\r\nline two\r\n" });
  fsVault = new FsVault(vault.root);
  history = new EditHistory(fsVault);
});
afterEach(() => vault.remove());

function dependenciesWith(user: ApprovalPort, overrides: Partial<ToolDependencies> = {}): ToolDependencies {
  return makeToolDependencies({ vault: fsVault, approval: user, editHistory: history, ...overrides });
}
const read = (path: string) => readFileSync(join(vault.root, path), "utf8");

describe("writeToFile", () => {
  it("edits the existing note whose name is in another Unicode form, never creating a look-alike twin", async () => {
    const decomposed = "Caf\u0065\u0301.md";
    vault.write(decomposed, "old\n");
    const user = new ScriptedUser();
    // "Café" typed composed (NFC) names the note stored decomposed (NFD), as macOS stores names.
    await callTool(writeToFileTool, dependenciesWith(user), { path: "Caf\u00e9.md", content: "new\n" });
    await callTool(replaceInFileTool, dependenciesWith(user), { path: "Caf\u00e9", oldText: "new", newText: "newer" });
    expect(user.proposals.map((proposal) => proposal.path)).toEqual([decomposed, decomposed]);
    expect(read(decomposed)).toBe("newer\n");
    expect(readdirSync(vault.root).filter((name) => name.normalize("NFC") === "Caf\u00e9.md")).toEqual([decomposed]);
    // A new note is named in NFC, as Obsidian names files.
    await callTool(writeToFileTool, dependenciesWith(user), { path: "Nouveau/Cre\u0300me.md", content: "x\n" });
    expect(readdirSync(join(vault.root, "Nouveau"))).toEqual(["Cr\u00e8me.md"]);
  });

  it("creates a note and its folders once the user approves, and records it for undo", async () => {
    const user = new ScriptedUser();
    const result = await callTool(writeToFileTool, dependenciesWith(user), { path: "New/Deep/Idea", content: "# Idea\n" });
    expect(result.status).toBe("ok");
    expect(read("New/Deep/Idea.md")).toBe("# Idea\n");
    expect(user.proposals).toEqual([{ toolId: "writeToFile", path: "New/Deep/Idea.md", before: null, after: "# Idea\n" }]);
    expect(result.text).toContain('Created "New/Deep/Idea.md"');
    expect((result.output as EditOutcome).diff).toContain("+++ b/New/Deep/Idea.md");
    expect(await history.list()).toMatchObject([{ path: "New/Deep/Idea.md", before: null, after: "# Idea\n" }]);
  });

  it("writes nothing when the user rejects, and tells the model the reason", async () => {
    const user = new ScriptedUser(() => ({ approved: false, reason: "wrong folder" }));
    const result = await callTool(writeToFileTool, dependenciesWith(user), { path: "Idea.md", content: "x" });
    expect(result.status).toBe("ok");
    expect(result.text).toContain('The user rejected the edit to "Idea.md" (wrong folder). Nothing was written.');
    expect(existsSync(join(vault.root, "Idea.md"))).toBe(false);
    expect(await history.list()).toEqual([]);
  });

  it("shows the old text when it replaces a note, and changes nothing else", async () => {
    const user = new ScriptedUser();
    await callTool(writeToFileTool, dependenciesWith(user), { path: "Projects/Plan.md", content: "rewritten\n" });
    expect(user.proposals[0]?.before).toBe(PLAN);
    expect(read("Projects/Plan.md")).toBe("rewritten\n");
    expect(read("Other.md")).toBe("untouched\n");
  });

  it("asks nothing and writes nothing when the text is already the same", async () => {
    const user = new ScriptedUser();
    const result = await callTool(writeToFileTool, dependenciesWith(user), { path: "Other.md", content: "untouched\n" });
    expect(result.text).toContain("already has exactly this text");
    expect(user.proposals).toHaveLength(0);
  });

  it("applies without asking only for tools the user opted in", async () => {
    const user = new ScriptedUser(() => ({ approved: false, reason: "should not be asked" }));
    const settings = { ...structuredClone(DEFAULT_SETTINGS), autoApproveToolIds: ["writeToFile"] };
    const dependencies = dependenciesWith(user, { getSettings: () => settings });
    const result = await callTool(writeToFileTool, dependencies, { path: "Auto.md", content: "auto\n" });
    expect(user.proposals).toHaveLength(0);
    expect(read("Auto.md")).toBe("auto\n");
    expect(result.text).toContain("without asking");
    const replace = await callTool(replaceInFileTool, dependencies, { path: "Auto.md", oldText: "auto", newText: "manual" });
    expect(user.proposals).toHaveLength(1);
    expect(replace.text).toContain("rejected");
  });

  it("refuses paths outside the vault or in the config folder before asking anything", async () => {
    const outside = mkdtempSync(join(tmpdir(), "outside-"));
    try {
      symlinkSync(outside, join(vault.root, "Escape"));
      const user = new ScriptedUser();
      for (const path of ["../evil.md", "/etc/evil.md", ".obsidian/plugins/evil.md", "C:\\evil.md", "Escape/evil.md"]) {
        const result = await callTool(writeToFileTool, dependenciesWith(user), { path, content: "evil" });
        expect(result.status).toBe("error");
        expect(result.text).toMatch(/Refused path/);
      }
      expect(user.proposals).toHaveLength(0);
      expect(existsSync(join(outside, "evil.md"))).toBe(false);
      expect(existsSync(join(vault.root, ".obsidian"))).toBe(false);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("refuses to write files that are not text", async () => {
    const result = await callTool(writeToFileTool, dependenciesWith(new ScriptedUser()), { path: "photo.png", content: "x" });
    expect(result.text).toMatch(/not a text note/);
  });

  it("names the bad field when arguments are wrong", async () => {
    const user = new ScriptedUser();
    const noContent = await callTool(writeToFileTool, dependenciesWith(user), { path: "A.md" });
    expect(noContent.status).toBe("invalid-arguments");
    expect(noContent.text).toContain("`content`");
    const emptyPath = await callTool(writeToFileTool, dependenciesWith(user), '{"path": "", "content": "x"}');
    expect(emptyPath.text).toContain("`path`");
  });
});

describe("replaceInFile", () => {
  it("replaces the one occurrence, exactly, and nothing else", async () => {
    const user = new ScriptedUser();
    const result = await callTool(replaceInFileTool, dependenciesWith(user), { path: "Projects/Plan", oldText: "- [ ] review", newText: "- [x] review" });
    expect(result.status).toBe("ok");
    expect(read("Projects/Plan.md")).toBe(PLAN.replace("- [ ] review", "- [x] review"));
    expect(read("Other.md")).toBe("untouched\n");
    expect((result.output as EditOutcome)).toMatchObject({ status: "applied", linesAdded: 1, linesRemoved: 1 });
  });

  it("changes nothing on several matches and gives their line numbers", async () => {
    const user = new ScriptedUser();
    const result = await callTool(replaceInFileTool, dependenciesWith(user), { path: "Projects/Plan.md", oldText: "draft", newText: "outline" });
    expect(result.status).toBe("error");
    expect(result.text).toContain('oldText occurs 2 times in "Projects/Plan.md" (at lines 3, 7), so nothing was changed.');
    expect(user.proposals).toHaveLength(0);
    expect(read("Projects/Plan.md")).toBe(PLAN);
  });

  it("changes nothing on no match and points at near matches", async () => {
    const result = await callTool(replaceInFileTool, dependenciesWith(new ScriptedUser()), {
      path: "Projects/Plan.md",
      oldText: "NOTES:  draft first.",
      newText: "x",
    });
    expect(result.status).toBe("error");
    expect(result.text).toContain("oldText was not found");
    expect(read("Projects/Plan.md")).toBe(PLAN);
    const near = await callTool(replaceInFileTool, dependenciesWith(new ScriptedUser()), { path: "Projects/Plan.md", oldText: "  - [ ] SHIP", newText: "x" });
    expect(near.text).toContain("at line 5");
  });

  it("matches Windows line ends with the model's plain ones", async () => {
    await callTool(replaceInFileTool, dependenciesWith(new ScriptedUser()), { path: "Windows.md", oldText: "line one\nline two", newText: "one\ntwo" });
    expect(read("Windows.md")).toBe("one\r\ntwo\r\n");
  });

  it("says when the note does not exist, suggesting the likely one", async () => {
    const result = await callTool(replaceInFileTool, dependenciesWith(new ScriptedUser()), { path: "Plan.md", oldText: "a", newText: "b" });
    expect(result.status).toBe("error");
    expect(result.text).toContain('There is no note at "Plan.md". Did you mean "Projects/Plan.md"?');
  });

  it("writes only the changes the user chose, says so to the model, and Undo takes back exactly those", async () => {
    // Three changes far apart in one note (Cyrillic, Arabic, Thai): three hunks in the diff the user sees.
    const lines = Array.from({ length: 24 }, (_, index) => `${["строка", "سطر", "บรรทัด"][index % 3]} ${index + 1}`);
    const note = `${lines.join("\n")}\n`;
    vault.write("Журнал.md", note);
    const oldText = lines.join("\n");
    const newText = lines.map((line, index) => ([1, 12, 22].includes(index) ? `${line} ✓` : line)).join("\n");
    const user = new ScriptedUser(() => ({ approved: true, hunks: [0, 2] }));
    const result = await callTool(replaceInFileTool, dependenciesWith(user), { path: "Журнал.md", oldText, newText });
    const expected = note.replace("سطر 2\n", "سطر 2 ✓\n").replace("سطر 23\n", "سطر 23 ✓\n");
    expect(read("Журнал.md")).toBe(expected);
    expect(result.output as EditOutcome).toMatchObject({ status: "applied", linesAdded: 2, linesRemoved: 2, changes: { applied: 2, proposed: 3 } });
    expect(result.text).toContain("The user applied 2 of the 3 changes proposed and left the others out");
    const [recorded] = await history.list();
    expect(recorded).toMatchObject({ path: "Журнал.md", before: note, after: expected, changes: { applied: 2, proposed: 3 } });
    const undo = await history.undoLast();
    expect(undo.message).toBe('Undid Copilot\'s edit of "Журнал.md" (the 2 of 3 changes you had applied): its previous text is back.');
    expect(read("Журнал.md")).toBe(note);
  });

  it("writes nothing when the user chose none of the changes", async () => {
    const user = new ScriptedUser(() => ({ approved: true, hunks: [] }));
    const result = await callTool(replaceInFileTool, dependenciesWith(user), { path: "Projects/Plan.md", oldText: "- [ ] ship", newText: "- [x] ship" });
    expect(read("Projects/Plan.md")).toBe(PLAN);
    expect(result.output as EditOutcome).toMatchObject({ status: "rejected", reason: "the user chose none of the changes" });
    expect(await history.list()).toEqual([]);
  });

  it("proposes afresh when the note changed while the diff was shown, keeping the user's change", async () => {
    const user = new ScriptedUser((_proposal, index) => {
      // While the first diff is on screen the user edits the note elsewhere.
      if (index === 0) writeFileSync(join(vault.root, "Projects/Plan.md"), `${PLAN}Added by hand.\n`);
      return { approved: true };
    });
    const result = await callTool(replaceInFileTool, dependenciesWith(user), { path: "Projects/Plan.md", oldText: "- [ ] ship", newText: "- [x] ship" });
    expect(user.proposals).toHaveLength(2);
    expect(user.proposals[1]?.before).toBe(`${PLAN}Added by hand.\n`);
    expect(read("Projects/Plan.md")).toBe(`${PLAN.replace("- [ ] ship", "- [x] ship")}Added by hand.\n`);
    expect(result.text).toContain("a fresh diff was shown");
  });

  it("gives up without writing when the note keeps changing", async () => {
    const user = new ScriptedUser((_proposal, index) => {
      writeFileSync(join(vault.root, "Projects/Plan.md"), `${PLAN}change ${index}\n`);
      return { approved: true };
    });
    const result = await callTool(replaceInFileTool, dependenciesWith(user), { path: "Projects/Plan.md", oldText: "- [ ] ship", newText: "- [x] ship" });
    expect(result.status).toBe("error");
    expect(result.text).toContain("kept changing");
    expect(user.proposals).toHaveLength(MAX_EDIT_PROPOSALS);
    expect(read("Projects/Plan.md")).toBe(`${PLAN}change ${MAX_EDIT_PROPOSALS - 1}\n`);
    expect(await history.list()).toEqual([]);
  });

  it("loses nothing and says so when the disk fails during the write", async () => {
    // Root ignores file permissions, so the disk error is made by the vault: it reads, then fails.
    class FailingDisk extends FsVault {
      override async process(path: string, transform: (current: string) => string): Promise<string> {
        transform(await this.read(path));
        throw Object.assign(new Error("EIO: i/o error, write"), { code: "EIO" });
      }
    }
    const failing = new FailingDisk(vault.root);
    const dependencies = dependenciesWith(new ScriptedUser(), { vault: failing, editHistory: new EditHistory(failing) });
    const result = await callTool(replaceInFileTool, dependencies, { path: "Projects/Plan.md", oldText: "- [ ] ship", newText: "- [x] ship" });
    expect(result.status).toBe("error");
    expect(result.text).toContain('Writing "Projects/Plan.md" failed (EIO: i/o error, write). Nothing was written');
    expect(read("Projects/Plan.md")).toBe(PLAN);
  });

  it("names the bad field when arguments are wrong", async () => {
    const empty = await callTool(replaceInFileTool, dependenciesWith(new ScriptedUser()), { path: "Other.md", oldText: "", newText: "x" });
    expect(empty.status).toBe("invalid-arguments");
    expect(empty.text).toContain("`oldText`");
    const missing = await callTool(replaceInFileTool, dependenciesWith(new ScriptedUser()), { path: "Other.md", oldText: "x" });
    expect(missing.text).toContain("`newText`");
  });
});

describe("edits under the tool time limit and the user's stop", () => {
  /** A disk that takes `ms` to start each write, as a slow or busy one does. */
  class SlowDisk extends FsVault {
    constructor(
      root: string,
      private readonly ms: number,
      private readonly onWriteStart: () => void = () => undefined,
    ) {
      super(root);
    }
    override async process(path: string, transform: (current: string) => string): Promise<string> {
      this.onWriteStart();
      await new Promise((resolve) => setTimeout(resolve, this.ms));
      return super.process(path, transform);
    }
  }
  const run = (dependencies: ToolDependencies, args: unknown, timeoutMs: number, signal?: AbortSignal) =>
    runTool(replaceInFileTool.create(dependencies), args, { toolCallId: "call_1", defaultTimeoutMs: timeoutMs, maxOutputChars: 10_000, signal });
  const tick = { path: "Projects/Plan.md", oldText: "- [ ] ship", newText: "- [x] ship" };

  it("does not count the time the user takes to answer toward the time limit", async () => {
    const user = new ScriptedUser(() => new Promise((resolve) => setTimeout(() => resolve({ approved: true }), 200)));
    const result = await run(dependenciesWith(user), tick, 50);
    expect(result.status).toBe("ok");
    expect(result.text).toContain('Edited "Projects/Plan.md"');
    expect(read("Projects/Plan.md")).toBe(PLAN.replace("- [ ] ship", "- [x] ship"));
  });

  it("reports a write that outlasts the time limit as written, because it was", async () => {
    const slow = new SlowDisk(vault.root, 200);
    const result = await run(dependenciesWith(new ScriptedUser(), { vault: slow }), tick, 50);
    expect(read("Projects/Plan.md")).toBe(PLAN.replace("- [ ] ship", "- [x] ship"));
    expect(result.status).toBe("ok");
    expect(result.text).toContain('Edited "Projects/Plan.md"');
    expect(await history.list()).toHaveLength(1);
  });

  it("finishes and reports a write the user stops once it has begun", async () => {
    const stop = new AbortController();
    const slow = new SlowDisk(vault.root, 100, () => stop.abort());
    const result = await run(dependenciesWith(new ScriptedUser(), { vault: slow }), tick, 10_000, stop.signal);
    expect(read("Projects/Plan.md")).toBe(PLAN.replace("- [ ] ship", "- [x] ship"));
    expect(result.status).toBe("ok");
    expect(result.text).toContain('Edited "Projects/Plan.md"');
  });

  it("records the edits of one run under one run id, so the history keeps them together", async () => {
    const runSignal = new AbortController().signal;
    const dependencies = dependenciesWith(new ScriptedUser());
    await run(dependencies, tick, 10_000, runSignal);
    await run(dependencies, { path: "Other.md", oldText: "untouched", newText: "touched" }, 10_000, runSignal);
    await run(dependencies, { path: "Other.md", oldText: "touched", newText: "retouched" }, 10_000, new AbortController().signal);
    const [first, second, third] = await history.list();
    expect(first?.runId).toEqual(expect.any(String));
    expect(second?.runId).toBe(first?.runId);
    expect(third?.runId).not.toBe(first?.runId);
  });

  it("writes nothing when the user stops the run while the question is open", async () => {
    const stop = new AbortController();
    const user = new ScriptedUser(() => {
      stop.abort();
      return { approved: true };
    });
    // The call is reported stopped at once, while the tool's own work may go on: the note is read
    // only once that work has ended, so a write it made late would be seen.
    const tool = replaceInFileTool.create(dependenciesWith(user));
    const work: Promise<unknown>[] = [];
    const func = tool.func.bind(tool);
    tool.func = (args, context) => {
      const running = func(args, context);
      work.push(running);
      return running;
    };
    const result = await runTool(tool, tick, { toolCallId: "call_1", defaultTimeoutMs: 10_000, maxOutputChars: 10_000, signal: stop.signal });
    expect(result.status).toBe("aborted");
    expect(work).toHaveLength(1);
    await Promise.allSettled(work);
    expect(read("Projects/Plan.md")).toBe(PLAN);
    expect(await history.list()).toEqual([]);
  });
});

describe("edit arguments and targets that are refused", () => {
  it("refuses text with a lone surrogate, which no note can store, before asking", async () => {
    const user = new ScriptedUser();
    const write = await callTool(writeToFileTool, dependenciesWith(user), { path: "Broken.md", content: "half \uD800 a character" });
    expect(write.status).toBe("invalid-arguments");
    expect(write.text).toContain("`content`");
    expect(write.text).toMatch(/lone surrogate/);
    const replace = await callTool(replaceInFileTool, dependenciesWith(user), { path: "Other.md", oldText: "untouched", newText: "\uDC00" });
    expect(replace.status).toBe("invalid-arguments");
    expect(replace.text).toContain("`newText`");
    const path = await callTool(writeToFileTool, dependenciesWith(user), { path: "Bad\uD800name.md", content: "x" });
    expect(path.text).toContain("`path`");
    expect(user.proposals).toHaveLength(0);
    expect(existsSync(join(vault.root, "Broken.md"))).toBe(false);
    const whole = await callTool(writeToFileTool, dependenciesWith(user), { path: "Emoji.md", content: "a whole pair 😀\n" });
    expect(whole.status).toBe("ok");
  });

  it("refuses hidden folders (another profile's settings, editor and CI files) unless the user allows them", async () => {
    const user = new ScriptedUser();
    const hidden = [".vscode/tasks.json", ".github/workflows/ci.yml", ".obsidian-work/plugins/other/data.json", "Projects/.private/Plan.md", ".hidden.md"];
    for (const path of hidden) {
      const result = await callTool(writeToFileTool, dependenciesWith(user), { path, content: "{}" });
      expect(result.status).toBe("error");
      expect(result.text).toMatch(/Refused path .*hidden/);
      expect(result.text).toContain("Allow edits in hidden folders");
      expect(existsSync(join(vault.root, path))).toBe(false);
    }
    expect(user.proposals).toHaveLength(0);
    const allowed = dependenciesWith(user, { getSettings: () => ({ ...structuredClone(DEFAULT_SETTINGS), allowWritesToHiddenFolders: true }) });
    const result = await callTool(writeToFileTool, allowed, { path: ".vscode/tasks.json", content: "{}" });
    expect(result.status).toBe("ok");
    expect(read(".vscode/tasks.json")).toBe("{}");
    const config = await callTool(writeToFileTool, allowed, { path: ".obsidian/app.json", content: "{}" });
    expect(config.text).toMatch(/Refused path/);
  });
});
