import { execFileSync } from "node:child_process";
import { closeSync, constants, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { callTool, makeToolDependencies } from "../../test/helpers/toolHarness";
import { makeTempVault, type TempVault } from "../../test/helpers/tempVault";
import { DEFAULT_SETTINGS } from "../constants";
import { NoteIndex } from "../search/NoteIndex";
import type { ApprovalPort, EditProposal } from "../ports/approval";
import { localSearchTool } from "../tools/localSearch";
import { EditHistory } from "../tools/edit/EditHistory";
import { replaceInFileTool } from "../tools/edit/replaceInFile";
import { writeToFileTool } from "../tools/edit/writeToFile";
import { FsDataStore, pluginDataFolder } from "./fsDataStore";
import { FsVault } from "./FsVault";
import type { VaultPort } from "./VaultPort";

/** What the edit tools tell the model about notes the vault refuses, and about losing a race. */
let temp: TempVault;
let vault: FsVault;
let proposals: EditProposal[];
const approveAndCount: ApprovalPort = {
  requestApproval: (proposal) => {
    proposals.push(proposal);
    return Promise.resolve({ approved: true });
  },
};
const dependencies = (port: VaultPort = vault) =>
  makeToolDependencies({ vault: port, approval: approveAndCount, editHistory: new EditHistory(port) });

beforeEach(() => {
  temp = makeTempVault({ "Plan.md": "# Plan\n- draft\n" });
  vault = new FsVault(temp.root);
  proposals = [];
});
afterEach(() => temp.remove());

it("a note that is not UTF-8 is refused before any diff is shown, and its bytes stay", async () => {
  const latin1 = Buffer.from("# caf\xe9\n", "latin1");
  writeFileSync(join(temp.root, "Export.md"), latin1);
  const result = await callTool(replaceInFileTool, dependencies(), { path: "Export.md", oldText: "caf", newText: "tea" });
  expect(result.status).toBe("error");
  expect(result.text).toMatch(/"Export\.md" is not UTF-8 text.*left unchanged/);
  expect(proposals).toEqual([]);
  expect(readFileSync(join(temp.root, "Export.md"))).toEqual(latin1);
});

it("a pipe named like a note gives a clear error at once instead of hanging", async () => {
  const fifo = join(temp.root, "Pipe.md");
  execFileSync("mkfifo", [fifo]);
  try {
    const result = await callTool(writeToFileTool, dependencies(), { path: "Pipe.md", content: "x" });
    expect(result.status).toBe("error");
    expect(result.text).toMatch(/"Pipe\.md" is not a regular file/);
    expect(proposals).toEqual([]);
  } finally {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // No reader was left waiting on the pipe.
    }
  }
});

it("an edit that loses a race with another program is proposed again on the new text, never written over it", async () => {
  let raced = false;
  // Another program writes the note after the edit read it, before its rename (once).
  const racing: VaultPort = Object.assign(Object.create(vault) as FsVault, {
    process: (path: string, transform: (current: string) => string) =>
      vault.process(path, (current) => {
        if (!raced) {
          raced = true;
          writeFileSync(join(temp.root, "Plan.md"), "# Plan\n- draft\n- from Obsidian\n");
        }
        return transform(current);
      }),
  });
  const result = await callTool(replaceInFileTool, dependencies(racing), { path: "Plan.md", oldText: "- draft", newText: "- final" });
  expect(result.status).toBe("ok");
  expect(proposals.map((proposal) => proposal.before)).toEqual(["# Plan\n- draft\n", "# Plan\n- draft\n- from Obsidian\n"]);
  expect(readFileSync(join(temp.root, "Plan.md"), "utf8")).toBe("# Plan\n- final\n- from Obsidian\n");
});

it("localSearch shows no text from outside the vault after a folder was swapped for a link mid-run", async () => {
  temp.write("Garden/Watering.md", "# Watering\nWater tomatoes every morning.\n");
  const outside = mkdtempSync(join(tmpdir(), "vault-copilot-outside-"));
  const index = new NoteIndex({ vault, store: new FsDataStore(pluginDataFolder(temp.root)), getSettings: () => DEFAULT_SETTINGS.search, timeZone: () => "UTC" });
  try {
    await index.start();
    writeFileSync(join(outside, "Watering.md"), "# Watering\nWater tomatoes: the password is hunter2.\n");
    rmSync(join(temp.root, "Garden"), { recursive: true });
    symlinkSync(outside, join(temp.root, "Garden"));
    const result = await callTool(localSearchTool, makeToolDependencies({ vault, search: index }), { query: "water tomatoes", salientTerms: ["tomatoes"] });
    expect(result.text).not.toContain("hunter2");
  } finally {
    await index.dispose();
    rmSync(outside, { recursive: true, force: true });
  }
});
