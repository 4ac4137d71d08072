/**
 * The dependency rules of designdocs/ARCHITECTURE.md, checked on the source. The rules per
 * folder are read from the doc's table "Which folder may import which", so the doc and this test
 * cannot tell two stories: each folder imports only the folders its row names (type imports
 * included), only its row's Obsidian adapters import the `obsidian` runtime, and Node-only
 * modules stay off the plugin's path.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileImports, importsOf, sourceFiles, topFolderOf, type FileImport } from "../../scripts/architecture/folderImports";
import { readFolderPicture, readFolderRules, type FolderRule } from "./folderRules";

const root = join(__dirname, "../..");
const TABLE = 'designdocs/ARCHITECTURE.md, "Which folder may import which"';

describe("dependency rules", () => {
  let files: string[];
  let imports: FileImport[];
  let rules: FolderRule[];
  let picture: Map<string, string[]>;

  beforeAll(() => {
    files = sourceFiles(root);
    imports = fileImports(root);
    const architecture = readFileSync(join(root, "designdocs/ARCHITECTURE.md"), "utf8");
    rules = readFolderRules(architecture);
    picture = readFolderPicture(architecture);
  });

  const ruleOf = (folder: string): FolderRule | undefined => rules.find((rule) => rule.folder === folder);

  it("finds the sources and reads the table", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain("src/main.ts");
    expect(ruleOf("vault")?.mayImport).toEqual(new Set(["ports", "time", "markdown", "text", "errorMessage.ts"]));
    expect(ruleOf("cli")?.mayImport.has("components")).toBe(false);
    expect(ruleOf("components")?.mayImport.has("settings")).toBe(true);
  });

  it("has a row for every top folder of src/, and none for a folder that is gone", () => {
    const folders = [...new Set(files.map(topFolderOf))].sort();
    expect(rules.map((rule) => rule.folder).sort()).toEqual(folders);
  });

  it("lets each folder import only what its row allows (type imports too)", () => {
    // A folder without a row is the test above's to report.
    const offenders = imports
      .filter((found) => found.fromFolder !== found.toFolder && ruleOf(found.fromFolder)?.mayImport.has(found.toFolder) === false)
      .map((found) => `${found.from} -> ${found.to} (${found.kind}): ${found.fromFolder} may not import ${found.toFolder} (${TABLE})`);
    expect(offenders).toEqual([]);
  });

  it("names in each row only folders the code imports, so the table stays true", () => {
    const used = new Set(imports.map((found) => `${found.fromFolder} -> ${found.toFolder}`));
    const unused = rules.flatMap((rule) => rule.named.filter((target) => !used.has(`${rule.folder} -> ${target}`)).map((target) => `${rule.folder} -> ${target}: allowed, not imported (take it out of ${TABLE})`));
    expect(unused).toEqual([]);
  });

  it("draws in the picture the arrows each row names", () => {
    expect(picture.size).toBeGreaterThan(10);
    const drawn = [...picture].map(([folder, targets]) => `${folder} -> ${[...targets].sort().join(", ")}`);
    const written = [...picture.keys()].map((folder) => `${folder} -> ${[...(ruleOf(folder)?.named ?? ["(no row)"])].sort().join(", ")}`);
    expect(drawn).toEqual(written);
  });

  it("imports the obsidian runtime only in the adapters each row names", () => {
    const offenders = files.filter((file) => {
      const usesObsidian = importsOf(file, readFileSync(join(root, file), "utf8")).some((found) => found.specifier === "obsidian" && found.kind !== "type");
      if (!usesObsidian) return false;
      const allowed = ruleOf(topFolderOf(file))?.obsidian ?? "no";
      return allowed === "no" || (Array.isArray(allowed) && !allowed.some((name) => file.endsWith(`/${name}`)));
    });
    expect(offenders).toEqual([]);
  });

  it("reaches Node-only modules from the plugin only through the lazy stdio import", () => {
    const nodeOnly = /\/(FsVault|fsDataStore|atomicWrite|fileLock)$|^src\/cli\/|^src\/mcp\/node\/|^src\/documents\/node\//;
    const nodeOnlyFile = (file: string) => nodeOnly.test(file.replace(/\.tsx?$/, ""));
    const offenders = imports
      .filter((found) => found.kind !== "type" && !nodeOnlyFile(found.from) && nodeOnly.test(found.to))
      .filter((found) => !(found.to === "src/mcp/node/stdioTransport" && found.kind === "lazy"))
      .map((found) => `${found.from} -> ${found.to} (${found.kind})`);
    expect(offenders).toEqual([]);
  });
});
