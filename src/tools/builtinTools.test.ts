import { z } from "zod";
import { makeToolDependencies } from "../../test/helpers/toolHarness";
import { makeTempVault } from "../../test/helpers/tempVault";
import { DEFAULT_ENABLED_TOOL_IDS, DEFAULT_SETTINGS } from "../constants";
import { FsVault } from "../vault/FsVault";
import { approveAll } from "../ports/approval";
import type { BuiltinToolEntry } from "./BuiltinToolEntry";
import { BUILTIN_TOOLS, createBuiltinToolDefinitions, defaultEnabledToolIds, initializeBuiltinTools } from "./builtinTools";
import { EditHistory } from "./edit/EditHistory";
import { isEditTool } from "./SimpleTool";
import { ToolRegistry } from "./ToolRegistry";

const TIME_TOOLS = ["getCurrentTime", "getTimeRangeMs", "getTimeInfoByEpoch", "convertTimeBetweenTimezones"];
const VAULT_TOOLS = ["localSearch", "readNote", "getFileTree", "getTagList", "getBacklinks", "getOutgoingLinks", "getNoteProperties", "writeToFile", "replaceInFile"];
const WRITING_TOOLS = ["writeToFile", "replaceInFile", "pomodoro"];
const NOTE_EDITING_TOOLS = ["writeToFile", "replaceInFile"];

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

describe("the defaults and the edit tools come from the tools' metadata", () => {
  const flagged = (flag: "enabledByDefault" | "editsNotes") => BUILTIN_TOOLS.filter((entry) => entry.metadata[flag] === true).map((entry) => entry.metadata.id);

  it("switches on for a new install exactly the tools flagged enabledByDefault", () => {
    expect(flagged("enabledByDefault").length).toBeGreaterThan(0);
    expect(DEFAULT_ENABLED_TOOL_IDS).toEqual(flagged("enabledByDefault"));
    expect(DEFAULT_SETTINGS.autonomousAgentEnabledToolIds).toEqual(flagged("enabledByDefault"));
    // Every configurable built-in tool starts on today; a new tool that should not sets no flag.
    expect(flagged("enabledByDefault")).toEqual(BUILTIN_TOOLS.filter((entry) => !entry.metadata.isAlwaysEnabled).map((entry) => entry.metadata.id));
  });

  it("follows the flag: setting it adds a tool to the defaults, clearing it takes one out", () => {
    const withFlag = (entry: BuiltinToolEntry, enabledByDefault: boolean): BuiltinToolEntry => ({ ...entry, metadata: { ...entry.metadata, enabledByDefault } });
    const extra: Pick<BuiltinToolEntry, "metadata"> = { metadata: { id: "extraTool", displayName: "Extra", description: "Extra", category: "custom", enabledByDefault: true } };
    expect(defaultEnabledToolIds([...BUILTIN_TOOLS, extra])).toEqual([...DEFAULT_ENABLED_TOOL_IDS, "extraTool"]);
    const withoutPomodoro = BUILTIN_TOOLS.map((entry) => (entry.metadata.id === "pomodoro" ? withFlag(entry, false) : entry));
    expect(defaultEnabledToolIds(withoutPomodoro)).toEqual(DEFAULT_ENABLED_TOOL_IDS.filter((id) => id !== "pomodoro"));
    // An always-enabled tool is bound anyway: the flag adds no entry for it.
    const timeFlagged = BUILTIN_TOOLS.map((entry) => (entry.metadata.isAlwaysEnabled ? withFlag(entry, true) : entry));
    expect(defaultEnabledToolIds(timeFlagged)).toEqual(DEFAULT_ENABLED_TOOL_IDS);
  });

  it("makes DEFAULT_SETTINGS from the flags, not from a list kept beside them", async () => {
    let defaults: string[] = [];
    await jest.isolateModulesAsync(async () => {
      jest.doMock("./pomodoro/pomodoro", () => {
        const actual = jest.requireActual<typeof import("./pomodoro/pomodoro")>("./pomodoro/pomodoro");
        return { ...actual, pomodoroTool: { ...actual.pomodoroTool, metadata: { ...actual.pomodoroTool.metadata, enabledByDefault: false } } };
      });
      defaults = (await import("../constants")).DEFAULT_SETTINGS.autonomousAgentEnabledToolIds;
    });
    expect(defaults).toEqual(DEFAULT_ENABLED_TOOL_IDS.filter((id) => id !== "pomodoro"));
  });

  it("marks editsNotes exactly the tools that write notes, and treats them (and only them) as edit tools", () => {
    expect(flagged("editsNotes")).toEqual(NOTE_EDITING_TOOLS);
    for (const definition of createBuiltinToolDefinitions(makeToolDependencies())) {
      expect(`${definition.metadata.id}: ${isEditTool(definition)}`).toBe(`${definition.metadata.id}: ${NOTE_EDITING_TOOLS.includes(definition.metadata.id)}`);
      if (definition.metadata.editsNotes) expect({ readOnly: definition.tool.isReadOnly, requiresVault: definition.metadata.requiresVault }).toEqual({ readOnly: undefined, requiresVault: true });
    }
  });
});
