import type { BuiltinToolEntry } from "./BuiltinToolEntry";
import { EditHistory } from "./edit/EditHistory";
import { replaceInFileTool } from "./edit/replaceInFile";
import { writeToFileTool } from "./edit/writeToFile";
import { localSearchTool } from "./localSearch";
import { youtubeTranscriptionTool } from "./media/youtubeTranscription";
import { getBacklinksTool } from "./notes/getBacklinks";
import { getFileTreeTool } from "./notes/getFileTree";
import { getNotePropertiesTool } from "./notes/getNoteProperties";
import { getOutgoingLinksTool } from "./notes/getOutgoingLinks";
import { getTagListTool } from "./notes/getTagList";
import { readNoteTool } from "./notes/readNote";
import { pomodoroTool } from "./pomodoro/pomodoro";
import type { ToolDefinition } from "./SimpleTool";
import { convertTimeBetweenTimezonesTool } from "./time/convertTimeBetweenTimezones";
import { getCurrentTimeTool } from "./time/getCurrentTime";
import { getTimeInfoByEpochTool } from "./time/getTimeInfoByEpoch";
import { getTimeRangeMsTool } from "./time/getTimeRangeMs";
import type { ToolDependencies } from "./toolDependencies";
import type { ToolRegistry } from "./ToolRegistry";
import { readWebPageTool } from "./web/readWebPageTool";
import { webSearchTool } from "./web/webSearch";

/** Every built-in tool, in the order the settings UI and the prompt's tool guidance list them. */
export const BUILTIN_TOOLS: readonly BuiltinToolEntry[] = [
  getCurrentTimeTool,
  getTimeRangeMsTool,
  getTimeInfoByEpochTool,
  convertTimeBetweenTimezonesTool,
  localSearchTool,
  readNoteTool,
  getFileTreeTool,
  getTagListTool,
  getBacklinksTool,
  getOutgoingLinksTool,
  getNotePropertiesTool,
  writeToFileTool,
  replaceInFileTool,
  webSearchTool,
  readWebPageTool,
  youtubeTranscriptionTool,
  pomodoroTool,
];

/**
 * The ids a new install switches on: the tools whose metadata says `enabledByDefault`, in
 * registry order. Always-enabled tools are bound anyway and need no entry.
 */
export function defaultEnabledToolIds(entries: readonly Pick<BuiltinToolEntry, "metadata">[] = BUILTIN_TOOLS): string[] {
  return entries.filter(({ metadata }) => metadata.enabledByDefault === true && metadata.isAlwaysEnabled !== true).map(({ metadata }) => metadata.id);
}

/**
 * The built-in tool definitions for these dependencies. The edit tools share one history (the
 * one handed in, which the undo command also holds, or else one in memory for this set).
 */
export function createBuiltinToolDefinitions(dependencies: ToolDependencies): ToolDefinition[] {
  const shared: ToolDependencies =
    dependencies.editHistory || !dependencies.vault ? dependencies : { ...dependencies, editHistory: new EditHistory(dependencies.vault) };
  return BUILTIN_TOOLS.map((entry) => ({ metadata: entry.metadata, tool: entry.create(shared) }));
}

/**
 * Registers the built-in tools, replacing earlier built-in registrations (a vault that comes or
 * goes re-creates them) and leaving other tools (MCP) where they are.
 */
export function initializeBuiltinTools(registry: ToolRegistry, dependencies: ToolDependencies): void {
  registry.registerAll(createBuiltinToolDefinitions(dependencies));
}
