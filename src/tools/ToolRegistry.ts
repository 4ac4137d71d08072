import type { AnySimpleTool, ToolCategory, ToolDefinition, ToolMetadata } from "./SimpleTool";

/** Thrown when two tools claim the same id or the same model-facing name. */
export class DuplicateToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DuplicateToolError";
  }
}

/** Where a run takes its tools from: the registry, or a project's view of it (projects/projectTools). */
export type ToolSource = Pick<ToolRegistry, "getEnabledDefinitions">;

/**
 * The tools the agent may bind. One instance serves the app (`getInstance()`, reached only at the
 * wiring points); everything else is handed a registry, so tests build their own.
 * Insertion order is kept everywhere: the settings UI and the prompt's tool guidance stay stable.
 */
export class ToolRegistry {
  private static instance: ToolRegistry | undefined;
  private readonly definitions = new Map<string, ToolDefinition>();
  private readonly listeners = new Set<() => void>();

  static getInstance(): ToolRegistry {
    ToolRegistry.instance ??= new ToolRegistry();
    return ToolRegistry.instance;
  }

  /**
   * Adds a tool. Re-registering an id replaces that tool in place (a reconnecting MCP server
   * re-announces its tools); a different id with a model-facing name already in use is refused,
   * since the model could not tell the two apart.
   */
  register(definition: ToolDefinition): void {
    this.registerAll([definition]);
  }

  /**
   * Adds several tools at once, all or none: every id and name is checked (against the registry
   * and against the rest of the batch) before the first is inserted, and listeners hear one change.
   */
  registerAll(definitions: readonly ToolDefinition[]): void {
    this.checkBatch(definitions);
    for (const definition of definitions) this.definitions.set(definition.metadata.id, definition);
    if (definitions.length > 0) this.emitChange();
  }

  getAllTools(): ToolDefinition[] {
    return [...this.definitions.values()];
  }

  /**
   * The tools to bind for one run: always-enabled tools, plus those whose ids are in
   * `enabledToolIds`, minus those that need a vault when none is available. Unknown ids are ignored.
   */
  getEnabledTools(enabledToolIds: ReadonlySet<string>, vaultAvailable: boolean): AnySimpleTool[] {
    return this.getEnabledDefinitions(enabledToolIds, vaultAvailable).map((d) => d.tool);
  }

  /** As `getEnabledTools`, with the metadata (the runner needs both). */
  getEnabledDefinitions(enabledToolIds: ReadonlySet<string>, vaultAvailable: boolean): ToolDefinition[] {
    return this.getAllTools().filter(
      ({ metadata }) =>
        (metadata.isAlwaysEnabled === true || enabledToolIds.has(metadata.id)) &&
        (vaultAvailable || metadata.requiresVault !== true),
    );
  }

  /** Tools grouped by category, categories in order of first appearance. */
  getToolsByCategory(): Map<ToolCategory, ToolDefinition[]> {
    const byCategory = new Map<ToolCategory, ToolDefinition[]>();
    for (const definition of this.definitions.values()) {
      const group = byCategory.get(definition.metadata.category);
      if (group) group.push(definition);
      else byCategory.set(definition.metadata.category, [definition]);
    }
    return byCategory;
  }

  /** The tools a user can switch on and off (everything but the always-enabled ones). */
  getConfigurableTools(): ToolDefinition[] {
    return this.getAllTools().filter((d) => d.metadata.isAlwaysEnabled !== true);
  }

  getToolMetadata(id: string): ToolMetadata | undefined {
    return this.definitions.get(id)?.metadata;
  }

  /** The definition whose tool has this model-facing name (what a tool call names). */
  findByToolName(name: string): ToolDefinition | undefined {
    for (const definition of this.definitions.values()) {
      if (definition.tool.name === name) return definition;
    }
    return undefined;
  }

  /** Removes the tools with these ids; returns how many were removed. */
  unregister(ids: Iterable<string>): number {
    let removed = 0;
    for (const id of ids) if (this.definitions.delete(id)) removed++;
    if (removed > 0) this.emitChange();
    return removed;
  }

  /** Removes every tool whose id starts with `prefix` (e.g. `mcp_<server>_` when a server leaves). */
  unregisterByPrefix(prefix: string): number {
    if (prefix.length === 0) throw new RangeError("unregisterByPrefix needs a non-empty prefix");
    return this.unregister([...this.definitions.keys()].filter((id) => id.startsWith(prefix)));
  }

  clear(): void {
    const hadTools = this.definitions.size > 0;
    this.definitions.clear();
    if (hadTools) this.emitChange();
  }

  /** Called after every change to the set of tools (the settings UI re-renders on it). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Throws for the first definition that could not be inserted after the ones before it. */
  private checkBatch(definitions: readonly ToolDefinition[]): void {
    // Model-facing name -> the id holding it once the batch is in (a batch may replace ids it names).
    const owners = new Map<string, string>();
    const batchIds = new Set(definitions.map((definition) => definition.metadata.id));
    for (const [id, definition] of this.definitions) {
      if (!batchIds.has(id)) owners.set(definition.tool.name, id);
    }
    for (const definition of definitions) {
      const { id } = definition.metadata;
      if (id.length === 0) throw new RangeError("A tool needs a non-empty id");
      const owner = owners.get(definition.tool.name);
      if (owner !== undefined && owner !== id) {
        throw new DuplicateToolError(`Tool name "${definition.tool.name}" (id "${id}") is already used by tool id "${owner}"`);
      }
      owners.set(definition.tool.name, id);
    }
  }

  private emitChange(): void {
    for (const listener of this.listeners) listener();
  }
}
