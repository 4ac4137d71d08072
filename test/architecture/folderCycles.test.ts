/**
 * No two top folders of src/ import each other, directly or round a circle (designdocs/
 * ARCHITECTURE.md, "Which folder may import which"). Type-only imports count: a circle of types
 * still ties the folders together.
 */
import { join } from "node:path";
import { folderArrows, folderCycles, importsOf, shortestCycle, type FolderArrow } from "../../scripts/architecture/folderImports";

const root = join(__dirname, "../..");

const arrow = (from: string, to: string, kind: "value" | "type" = "value"): [string, FolderArrow] => [
  `${from} -> ${to}`,
  { from, to, value: kind === "value" ? 1 : 0, type: kind === "type" ? 1 : 0, lazy: 0, files: [`src/${from}/x.ts -> src/${to}/y (${kind})`] },
];

describe("folder-level import cycles", () => {
  let arrows: Map<string, FolderArrow>;
  beforeAll(() => {
    arrows = folderArrows(root);
  });

  it("finds none between the top folders of src/", () => {
    const cycles = folderCycles(arrows).map(
      (cycle) => `${shortestCycle(cycle).join(" -> ")}:\n${cycle.arrows.flatMap((found) => found.files.map((file) => `  ${file}`)).join("\n")}`,
    );
    expect(cycles).toEqual([]);
  });

  it("sees the arrows it checks, type imports among them: the tools read the vault and the settings", () => {
    expect(arrows.size).toBeGreaterThan(30);
    expect(arrows.get("tools -> vault")?.value).toBeGreaterThan(0);
    expect(arrows.get("tools -> settings")?.type).toBeGreaterThan(0);
  });

  it("finds a circle of three folders, and one made of type imports only", () => {
    const circle = folderCycles(new Map([arrow("tools", "settings"), arrow("settings", "context"), arrow("context", "tools"), arrow("chat", "tools")]));
    expect(circle.map((cycle) => cycle.folders)).toEqual([["context", "settings", "tools"]]);
    expect(shortestCycle(circle[0]!)).toEqual(["context", "tools", "settings", "context"]);
    const ofTypes = folderCycles(new Map([arrow("mcp", "settings", "type"), arrow("settings", "mcp", "type")]));
    expect(ofTypes.map((cycle) => cycle.folders)).toEqual([["mcp", "settings"]]);
    expect(folderCycles(new Map([arrow("chat", "tools"), arrow("tools", "settings"), arrow("chat", "settings")]))).toEqual([]);
  });

  it("reads value, type-only, lazy and re-exported imports apart", () => {
    const text = [
      'import { a } from "./value";',
      'import type { B } from "./typeOnly";',
      'import { type C, type D } from "./namedTypes";',
      'import { type E, f } from "./mixed";',
      'export { g } from "./reExport";',
      'export type { H } from "./reExportedType";',
      'import "./sideEffect";',
      'type I = import("./typeQuery").I;',
      'const load = () => import("./lazy");',
    ].join("\n");
    expect(importsOf("src/x.ts", text)).toEqual([
      { specifier: "./value", kind: "value" },
      { specifier: "./typeOnly", kind: "type" },
      { specifier: "./namedTypes", kind: "type" },
      { specifier: "./mixed", kind: "value" },
      { specifier: "./reExport", kind: "value" },
      { specifier: "./reExportedType", kind: "type" },
      { specifier: "./sideEffect", kind: "value" },
      { specifier: "./typeQuery", kind: "type" },
      { specifier: "./lazy", kind: "lazy" },
    ]);
  });
});
