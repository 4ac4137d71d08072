import fc from "fast-check";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve, sep } from "node:path";
import { FsVault } from "../../src/vault/FsVault";
import { pathKey, toVaultPath, VaultPathError } from "../../src/vault/vaultPath";

/**
 * Property: a path from a model (any Unicode form, look-alikes, either separator, "..", the config
 * folder in any case, absolute paths, drive letters) is refused or names a place inside the vault
 * and outside its config folder; and writing through FsVault never touches anything beside the vault.
 */

const CONFIG = ".obsidian";

/** Pieces a hostile or confused model would put into a path. */
const segment = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom("..", ".", "", "...", ".. ", ". .", "..\u3000", ".obsidian", ".OBSIDIAN", ".Obsidian", ".obsidian.", ".obsidian ", ".obsidian. .", "Notes", "Note.md", "Caf\u00e9.md", "Cafe\u0301.md") },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "\uff0e\uff0e", // fullwidth ".."
      "\u2024\u2024", // one-dot leaders
      "\u2215", // division slash
      "\u2044", // fraction slash
      "\uff0f", // fullwidth solidus
      "\u2216", // set minus (a backslash look-alike)
      ".\u043ebsidian", // Cyrillic o
      ".obs\u0131dian", // dotless i
      ".OBSİDIAN", // dotted capital I
      "C:",
      "c:",
      "~",
      "\\\\server",
      "%2e%2e",
      "\u00a0",
    ),
  },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 8 }) },
);
const separator = fc.constantFrom("/", "\\", "//", "/./", " / ");
const randomPath = fc.oneof(
  fc.tuple(fc.oneof({ weight: 4, arbitrary: fc.constant("") }, fc.constantFrom("/", "\\", "C:\\", "C:/", "~/", "file://", " ")), fc.array(fc.tuple(segment, separator), { minLength: 1, maxLength: 5 })).map(([start, parts]) => start + parts.map(([name, between]) => name + between).join("").replace(/(\/|\\| )+$/, "")),
  fc.string({ unit: "binary", maxLength: 30 }),
).chain((path) => fc.constantFrom(path, path.normalize("NFC"), path.normalize("NFD"), path.toUpperCase()));

/** The config folder as each platform's file system matches names: any case, NFC, and (Windows) trailing dots and spaces dropped. */
function reachesConfigFolder(vaultRelative: string): boolean {
  const first = vaultRelative.split(/[/\\]/)[0] ?? "";
  return pathKey(first).replace(/[. ]+$/, "") === pathKey(CONFIG);
}

describe("random vault paths", () => {
  const root = resolve(tmpdir(), "vault-copilot-path-property");

  it("are refused, or stay inside the vault and out of its config folder", () => {
    fc.assert(
      fc.property(randomPath, (input) => {
        let path: string;
        try {
          path = toVaultPath(input, CONFIG);
        } catch (error) {
          expect(error).toBeInstanceOf(VaultPathError);
          return;
        }
        const absolute = resolve(root, ...path.split("/"));
        const inside = relative(root, absolute);
        expect(absolute.startsWith(root + sep)).toBe(true);
        expect(inside.split(sep)).not.toContain("..");
        expect(path).not.toMatch(/\\/);
        expect(reachesConfigFolder(inside)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it("never make FsVault write beside the vault or into its config folder", async () => {
    const parent = mkdtempSync(join(tmpdir(), "vault-copilot-path-parent-"));
    try {
      const vaultRoot = join(parent, "vault");
      mkdirSync(join(vaultRoot, CONFIG), { recursive: true });
      writeFileSync(join(vaultRoot, CONFIG, "app.json"), "{}");
      writeFileSync(join(vaultRoot, "Note.md"), "note\n");
      writeFileSync(join(parent, "outside.md"), "outside\n");
      const vault = new FsVault(vaultRoot, CONFIG);
      const parentBefore = readdirSync(parent).sort();
      await fc.assert(
        fc.asyncProperty(randomPath, fc.string({ maxLength: 20 }), async (input, text) => {
          await vault.create(input, text).catch(() => undefined);
          await vault.process(input, (current) => current + text).catch(() => undefined);
          expect(readdirSync(parent).sort()).toEqual(parentBefore);
          expect(readFileSync(join(parent, "outside.md"), "utf8")).toBe("outside\n");
          expect(readdirSync(join(vaultRoot, CONFIG))).toEqual(["app.json"]);
          expect(readFileSync(join(vaultRoot, CONFIG, "app.json"), "utf8")).toBe("{}");
          for (const name of readdirSync(vaultRoot)) expect(reachesConfigFolder(name) && name !== CONFIG).toBe(false);
        }),
        { numRuns: 200 },
      );
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});
