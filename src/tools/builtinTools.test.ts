import { z } from "zod";
import { makeToolDependencies } from "../../test/helpers/toolHarness";
import { makeTempVault } from "../../test/helpers/tempVault";
import { DEFAULT_ENABLED_TOOL_IDS } from "../constants";
import { FsVault } from "../vault/FsVault";
import { approveAll } from "./approval";
import { BUILTIN_TOOLS, createBuiltinToolDefinitions, initializeBuiltinTools } from "./builtinTools";
import { EditHistory } from "./edit/EditHistory";
import { ToolRegistry } from "./ToolRegistry";

const TIME_TOOLS = ["getCurrentTime", "getTimeRangeMs", "getTimeInfoByEpoch", "convertTimeBetweenTimezones"];
const VAULT_TOOLS = ["localSearch", "readNote", "getFileTree", "getTagList", "getBacklinks", "getOutgoingLinks", "getNoteProperties", "writeToFile", "replaceInFile"];
const WRITING_TOOLS = ["writeToFile", "replaceInFile", "pomodoro"];

describe("BUILTIN_TOOLS", () => {
  const definitions = createBuiltinToolDefinitions(makeToolDependencies());

  it("gives every tool complete metadata, the model-facing name equal to its id", () => {
    for (const { metadata, tool } of definitions) {
      expect(tool.name).toBe(metadata.id);
      expect(metadata.displayName.length).toBeGreaterThan(0);
      expect(metadata.description.length).toBeGreaterThan(0);
      expect(tool.description.length).toBeGreaterThan(0);
      expect(metadata.customPromptInstructions?.length ?? 0).toBeGreaterThan(20);
      expect(metadata.wording).toEqual({ pending: expect.any(String), running: expect.any(String), done: expect.any(String) });
    }
  });

  it("keeps the time tools always enabled and marks the vault tools requiresVault", () => {
    for (const { metadata } of definitions) {
      expect(metadata.isAlwaysEnabled === true).toBe(TIME_TOOLS.includes(metadata.id));
      expect(metadata.requiresVault === true).toBe(VAULT_TOOLS.includes(metadata.id));
      if (TIME_TOOLS.includes(metadata.id)) expect(metadata.category).toBe("time");
    }
    const byId = new Map(definitions.map((d) => [d.metadata.id, d.metadata]));
    expect(byId.get("webSearch")?.category).toBe("search");
    expect(byId.get("youtubeTranscription")?.category).toBe("media");
    expect(byId.get("pomodoro")?.category).toBe("custom");
    expect(byId.get("writeToFile")?.category).toBe("file");
  });

  it("marks read-only exactly the tools that change nothing", () => {
    for (const { metadata, tool } of definitions) expect(tool.isReadOnly === true).toBe(!WRITING_TOOLS.includes(metadata.id));
  });

  it("describes every argument of every schema for the model", () => {
    for (const { metadata, tool } of definitions) {
      const json = z.toJSONSchema(tool.schema) as { properties?: Record<string, { description?: string }> };
      for (const [field, property] of Object.entries(json.properties ?? {})) {
        expect(`${metadata.id}.${field}: ${property.description ?? "(none)"}`).not.toMatch(/\(none\)$/);
      }
    }
  });

  it("lists each default-enabled id among the tools", () => {
    const ids = new Set(BUILTIN_TOOLS.map((entry) => entry.metadata.id));
    expect(DEFAULT_ENABLED_TOOL_IDS.filter((id) => !ids.has(id))).toEqual([]);
  });

  it("registers without clashes, and leaves vault tools out when there is no vault", () => {
    const registry = new ToolRegistry();
    initializeBuiltinTools(registry, makeToolDependencies());
    const enabled = new Set(DEFAULT_ENABLED_TOOL_IDS);
    const withoutVault = registry.getEnabledTools(enabled, false).map((tool) => tool.name);
    expect(withoutVault).toEqual(expect.arrayContaining([...TIME_TOOLS, "webSearch", "pomodoro", "youtubeTranscription"]));
    expect(withoutVault.some((name) => VAULT_TOOLS.includes(name))).toBe(false);
    expect(registry.getEnabledTools(enabled, true).map((tool) => tool.name)).toEqual(expect.arrayContaining(["readNote", "writeToFile"]));
  });

  it("records both edit tools' edits in the history the wiring hands in, for one undo command", async () => {
    const vault = makeTempVault({ "A.md": "alpha\n" });
    try {
      const fsVault = new FsVault(vault.root);
      const editHistory = new EditHistory(fsVault);
      const dependencies = makeToolDependencies({ vault: fsVault, editHistory, approval: approveAll });
      const tools = new Map(createBuiltinToolDefinitions(dependencies).map((d) => [d.metadata.id, d.tool]));
      const context = { signal: new AbortController().signal, toolCallId: "c" };
      await tools.get("writeToFile")?.func({ path: "B.md", content: "beta\n" }, context);
      await tools.get("replaceInFile")?.func({ path: "A.md", oldText: "alpha", newText: "ALPHA" }, context);
      expect((await editHistory.list()).map((edit) => [edit.toolId, edit.path])).toEqual([
        ["writeToFile", "B.md"],
        ["replaceInFile", "A.md"],
      ]);
    } finally {
      vault.remove();
    }
  });
});
