import { z } from "zod";
import type { SimpleTool, ToolDefinition, ToolMetadata } from "./SimpleTool";
import { DuplicateToolError, ToolRegistry } from "./ToolRegistry";

function definition(id: string, metadata: Partial<ToolMetadata> = {}, name = id): ToolDefinition {
  const tool: SimpleTool<{ x?: string }, string> = {
    name,
    description: `${id} tool`,
    schema: z.object({ x: z.string().optional() }),
    func: async () => `${id} ran`,
  };
  return { tool, metadata: { id, displayName: id, description: id, category: "custom", ...metadata } };
}

describe("ToolRegistry", () => {
  let registry: ToolRegistry;
  beforeEach(() => {
    registry = new ToolRegistry();
  });

  it("returns one shared instance from getInstance", () => {
    expect(ToolRegistry.getInstance()).toBe(ToolRegistry.getInstance());
    expect(ToolRegistry.getInstance()).not.toBe(registry);
  });

  it("keeps registration order in getAllTools", () => {
    registry.register(definition("b"));
    registry.registerAll([definition("a"), definition("c")]);
    expect(registry.getAllTools().map((d) => d.metadata.id)).toEqual(["b", "a", "c"]);
  });

  it("replaces a tool registered again under the same id, in place", () => {
    registry.registerAll([definition("a"), definition("b")]);
    registry.register(definition("a", { displayName: "A again" }));
    expect(registry.getAllTools().map((d) => d.metadata.displayName)).toEqual(["A again", "b"]);
  });

  it("refuses a second id with a tool name already in use", () => {
    registry.register(definition("a", {}, "shared"));
    expect(() => registry.register(definition("b", {}, "shared"))).toThrow(DuplicateToolError);
    expect(registry.getAllTools()).toHaveLength(1);
  });

  it("registers all or nothing: a name collision part-way leaves the registry as it was, and emits no change", () => {
    registry.register(definition("a", {}, "shared"));
    let changes = 0;
    registry.onChange(() => changes++);
    expect(() => registry.registerAll([definition("b"), definition("c", {}, "shared"), definition("d")])).toThrow(DuplicateToolError);
    expect(registry.getAllTools().map((d) => d.metadata.id)).toEqual(["a"]);
    expect(changes).toBe(0);
  });

  it("refuses two definitions of one batch that share a tool name, and emits one change for a good batch", () => {
    let changes = 0;
    registry.onChange(() => changes++);
    expect(() => registry.registerAll([definition("b", {}, "same"), definition("c", {}, "same")])).toThrow(DuplicateToolError);
    expect(() => registry.registerAll([definition("b"), definition("")])).toThrow(RangeError);
    expect(registry.getAllTools()).toHaveLength(0);
    registry.registerAll([definition("b"), definition("c"), definition("d")]);
    expect(changes).toBe(1);
  });

  it("refuses an empty id", () => {
    expect(() => registry.register(definition(""))).toThrow(RangeError);
  });

  describe("getEnabledTools", () => {
    beforeEach(() => {
      registry.registerAll([
        definition("time", { isAlwaysEnabled: true, category: "time" }),
        definition("search", { requiresVault: true, category: "search" }),
        definition("web", { category: "search" }),
        definition("edit", { requiresVault: true, category: "file" }),
        definition("alwaysVault", { isAlwaysEnabled: true, requiresVault: true }),
      ]);
    });
    const names = (set: string[], vault: boolean) => registry.getEnabledTools(new Set(set), vault).map((t) => t.name);

    it("includes always-enabled tools whatever the set", () => {
      expect(names([], true)).toEqual(["time", "alwaysVault"]);
    });
    it("includes the enabled ids, in registration order", () => {
      expect(names(["web", "search"], true)).toEqual(["time", "search", "web", "alwaysVault"]);
    });
    it("leaves out tools that need the vault when none is available, even always-enabled ones", () => {
      expect(names(["web", "search", "edit"], false)).toEqual(["time", "web"]);
    });
    it("ignores unknown ids", () => {
      expect(names(["nope", "web"], true)).toEqual(["time", "web", "alwaysVault"]);
    });
    it("returns the definitions with their metadata from getEnabledDefinitions", () => {
      expect(registry.getEnabledDefinitions(new Set(["edit"]), true).map((d) => d.metadata.category)).toEqual([
        "time",
        "file",
        "custom",
      ]);
    });
  });

  it("groups tools by category in order of first appearance", () => {
    registry.registerAll([
      definition("t1", { category: "time" }),
      definition("s1", { category: "search" }),
      definition("t2", { category: "time" }),
    ]);
    const groups = registry.getToolsByCategory();
    expect([...groups.keys()]).toEqual(["time", "search"]);
    expect(groups.get("time")?.map((d) => d.metadata.id)).toEqual(["t1", "t2"]);
  });

  it("lists only tools without isAlwaysEnabled as configurable", () => {
    registry.registerAll([definition("a", { isAlwaysEnabled: true }), definition("b"), definition("c", { isAlwaysEnabled: false })]);
    expect(registry.getConfigurableTools().map((d) => d.metadata.id)).toEqual(["b", "c"]);
  });

  it("returns metadata by id, undefined for an unknown id", () => {
    registry.register(definition("a", { displayName: "Alpha" }));
    expect(registry.getToolMetadata("a")?.displayName).toBe("Alpha");
    expect(registry.getToolMetadata("zzz")).toBeUndefined();
  });

  it("finds a definition by the name the model calls", () => {
    registry.register(definition("mcp_fs_read", {}, "fs_read"));
    expect(registry.findByToolName("fs_read")?.metadata.id).toBe("mcp_fs_read");
    expect(registry.findByToolName("mcp_fs_read")).toBeUndefined();
  });

  it("removes tools by id and by prefix, leaving the rest", () => {
    registry.registerAll([definition("mcp_a_one"), definition("mcp_a_two"), definition("mcp_ab_x"), definition("local")]);
    expect(registry.unregisterByPrefix("mcp_a_")).toBe(2);
    expect(registry.getAllTools().map((d) => d.metadata.id)).toEqual(["mcp_ab_x", "local"]);
    expect(registry.unregister(["local", "missing"])).toBe(1);
    expect(registry.getAllTools().map((d) => d.metadata.id)).toEqual(["mcp_ab_x"]);
    expect(() => registry.unregisterByPrefix("")).toThrow(RangeError);
  });

  it("clears every tool", () => {
    registry.registerAll([definition("a"), definition("b")]);
    registry.clear();
    expect(registry.getAllTools()).toEqual([]);
  });

  it("tells listeners about each change, and stops after unsubscribing", () => {
    const calls: number[] = [];
    const unsubscribe = registry.onChange(() => calls.push(registry.getAllTools().length));
    registry.register(definition("a"));
    registry.registerAll([definition("b"), definition("c")]);
    registry.unregister(["a"]);
    registry.unregister(["a"]);
    registry.clear();
    unsubscribe();
    registry.register(definition("d"));
    expect(calls).toEqual([1, 3, 2, 0]);
  });
});
