import { BUILTIN_TOOLS } from "../tools/builtinTools";
import { wordingOf } from "../tools/SimpleTool";
import { en } from "../i18n/en";
import { toolTexts } from "./toolTexts";

afterEach(() => window.localStorage.removeItem("language"));

describe("toolTexts", () => {
  it("has, for every built-in tool, English entries equal to its own metadata (so a renamed tool cannot leave its table behind)", () => {
    const table = en as Record<string, unknown>;
    const stale = BUILTIN_TOOLS.flatMap(({ metadata }) => {
      const wording = wordingOf(metadata);
      const expected = { name: metadata.displayName, description: metadata.description, ...wording };
      return Object.entries(expected).filter(([part, text]) => table[`tool.${metadata.id}.${part}`] !== text).map(([part]) => `tool.${metadata.id}.${part}`);
    });
    expect(stale).toEqual([]);
    const ids = new Set(BUILTIN_TOOLS.map(({ metadata }) => metadata.id));
    expect(Object.keys(en).filter((key) => key.startsWith("tool.") && !ids.has(key.split(".")[1]!))).toEqual([]);
  });

  it("says a built-in tool's words in Obsidian's language, and keeps an MCP tool's own name and description", () => {
    const search = BUILTIN_TOOLS.find(({ metadata }) => metadata.id === "localSearch")!.metadata;
    const mcp = { displayName: "read_graph", description: "Reads the knowledge graph." };
    expect(toolTexts("localSearch", search, "localSearch").wording.running).toBe("Searching your notes");
    window.localStorage.setItem("language", "ja");
    const japanese = toolTexts("localSearch", search, "localSearch");
    expect(japanese.name).not.toBe(search.displayName);
    expect(japanese.wording.running).not.toBe("Searching your notes");
    const foreign = toolTexts("memory_read_graph", mcp, "read_graph");
    expect(foreign.name).toBe("read_graph");
    expect(foreign.description).toBe("Reads the knowledge graph.");
    expect(foreign.wording.running).toContain("read_graph");
    expect(foreign.wording.running).not.toBe("Using read_graph");
  });
});
