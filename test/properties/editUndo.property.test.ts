import fc from "fast-check";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { approveAll } from "../../src/ports/approval";
import { EditHistory } from "../../src/tools/edit/EditHistory";
import { proposeAndApplyEdit } from "../../src/tools/edit/proposeAndApplyEdit";
import { FsVault } from "../../src/vault/FsVault";
import { makeToolDependencies } from "../helpers/toolHarness";
import { makeTempVault } from "../helpers/tempVault";

/**
 * Property: any sequence of approved edits, undone one by one, leaves every note byte for byte as
 * it was, and removes the notes the edits created. Notes that are not UTF-8 are never edited.
 */

const ORIGINALS: Record<string, Buffer> = {
  "Plain.md": Buffer.from("# Plain\nalpha\nbeta\n"),
  "Windows.md": Buffer.from("line one\r\nline two\r\n"),
  "Bom.md": Buffer.from("\ufeff---\ntitle: x\n---\nbody"),
  "Folder/Cafe\u0301.md": Buffer.from("caf\u0065\u0301 \u{1f600}\n"),
};
/** Latin-1 "café": not UTF-8, so any edit must be refused before a byte changes. */
const LATIN1_PATH = "Latin1.md";
const LATIN1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]);
const NEW_PATHS = ["New.md", "Folder/New note.md"];

const text = fc.string({ unit: fc.constantFrom("a", "b", " ", "\n", "\r\n", "\u00e9", "e\u0301", "\u{1f600}", "\ufeff", "\u0000", "</note>"), maxLength: 30 });
const edit = fc.record({
  path: fc.constantFrom(...Object.keys(ORIGINALS), LATIN1_PATH, ...NEW_PATHS),
  how: fc.constantFrom("replace", "append", "prepend", "truncate"),
  text,
});

function planFor(how: string, addition: string): (current: string | null) => string {
  return (current) => {
    const base = current ?? "";
    if (how === "append") return base + addition;
    if (how === "prepend") return addition + base;
    // Cut between code points: the edit tools refuse text with a lone surrogate before any plan runs.
    if (how === "truncate") return Array.from(base).slice(0, Math.floor(Array.from(base).length / 2)).join("") + addition;
    return addition;
  };
}

describe("random edit and undo sequences", () => {
  it("restore every note's bytes exactly and remove the notes they created", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 8 }), async (edits) => {
        const temp = makeTempVault();
        try {
          for (const [path, bytes] of [...Object.entries(ORIGINALS), [LATIN1_PATH, LATIN1] as const]) {
            mkdirSync(dirname(join(temp.root, path)), { recursive: true });
            writeFileSync(join(temp.root, path), bytes);
          }
          const vault = new FsVault(temp.root);
          const editHistory = new EditHistory(vault);
          const dependencies = { ...makeToolDependencies({ vault, approval: approveAll }), vault, editHistory };
          const call = { signal: new AbortController().signal, toolCallId: "call" };

          for (const { path, how, text: addition } of edits) {
            const applied = proposeAndApplyEdit(dependencies, { toolId: "writeToFile", path, plan: planFor(how, addition), call });
            if (path === LATIN1_PATH) await expect(applied).rejects.toThrow();
            else await applied;
          }
          for (let undo = 0; undo <= edits.length; undo++) {
            const outcome = await editHistory.undoLast();
            if (outcome.status === "nothing") break;
            expect([outcome.status, outcome.message]).toEqual(["undone", expect.any(String)]);
          }
          expect(await editHistory.list()).toEqual([]);
          for (const [path, bytes] of Object.entries(ORIGINALS)) expect(readFileSync(join(temp.root, path)).equals(bytes)).toBe(true);
          expect(readFileSync(join(temp.root, LATIN1_PATH)).equals(LATIN1)).toBe(true);
          for (const path of NEW_PATHS) expect(existsSync(join(temp.root, path))).toBe(false);
        } finally {
          temp.remove();
        }
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});
