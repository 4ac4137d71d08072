import type { ToolCallPartStatus } from "../../chat/chatTypes";
import type { LocalSearchResult } from "../../tools/localSearch";
import type { YouTubeTranscriptionOutput } from "../../tools/media/youtubeTranscription";
import type { BacklinksResult } from "../../tools/notes/getBacklinks";
import type { FileTreeResult } from "../../tools/notes/getFileTree";
import type { NotePropertiesResult } from "../../tools/notes/getNoteProperties";
import type { OutgoingLinksResult } from "../../tools/notes/getOutgoingLinks";
import type { TagListResult } from "../../tools/notes/getTagList";
import type { ReadNoteResult } from "../../tools/notes/readNote";
import type { PomodoroOutput } from "../../tools/pomodoro/pomodoro";
import type { TimeConversion } from "../../tools/time/convertTimeBetweenTimezones";
import type { TimeRangeResult } from "../../tools/time/getTimeRangeMs";
import type { TimeInfo } from "../../tools/time/timeInfo";
import type { WebSearchOutput } from "../../tools/web/webSearch";
import { capitalized } from "./errorText";

/**
 * What a tool call's banner says in words a person reads: a short summary of the result ("3 notes
 * found"), the arguments as `key: value` lines, an error's own sentence. The text the model read
 * (XML-like blocks, JSON) stays behind the banner's "Details" fold.
 */

/** Numbers as the rest of the chat writes them ("1,204"): the UI's language is English. */
const NUMBER = new Intl.NumberFormat("en-US");

export function count(amount: number, one: string, many = `${one}s`): string {
  return `${NUMBER.format(amount)} ${amount === 1 ? one : many}`;
}

type Summarizer = (output: never) => string;

/** By tool id: a built-in tool's output, said in a few words. Other tools (MCP) have none. */
const SUMMARIES: Record<string, Summarizer> = {
  localSearch: (output: LocalSearchResult) => (output.hits.length === 0 ? "no notes found" : `${count(output.hits.length, "note")} found`),
  readNote: (output: ReadNoteResult) =>
    `${output.path} (${count(output.content.length, "character")}${output.totalChunks > 1 ? `, part ${output.chunkIndex + 1} of ${output.totalChunks}` : ""})`,
  getFileTree: (output: FileTreeResult) => `${count(output.totalFiles, "file")} in ${count(output.totalFolders, "folder")}`,
  getTagList: (output: TagListResult) => `${count(output.totalTags, "tag")} in ${count(output.notesScanned, "note")}`,
  getBacklinks: (output: BacklinksResult) => `${output.path}: linked from ${count(output.totalLinkingNotes, "note")}`,
  getOutgoingLinks: (output: OutgoingLinksResult) => `${output.path}: ${count(output.links.length, "link")}`,
  getNoteProperties: (output: NotePropertiesResult) => `${output.path}: ${count(Object.keys(output.properties).length, "property", "properties")}`,
  webSearch: (output: WebSearchOutput) => `${count(output.results.length, "result")} for “${output.query}”`,
  youtubeTranscription: (output: YouTubeTranscriptionOutput) => `${count(output.videos.filter((video) => video.status === "ok").length, "transcript")} of ${count(output.videos.length, "video")}`,
  getCurrentTime: (output: TimeInfo) => `${output.weekday} ${output.localDateTime} (${output.timeZone})`,
  getTimeInfoByEpoch: (output: TimeInfo) => `${output.weekday} ${output.localDateTime} (${output.timeZone})`,
  getTimeRangeMs: (output: TimeRangeResult) => output.description,
  convertTimeBetweenTimezones: (output: TimeConversion) => `${output.from.localDateTime} ${output.from.timeZone} → ${output.to.localDateTime} ${output.to.timeZone}`,
  pomodoro: (output: PomodoroOutput) =>
    output.action === "stop" ? (output.stopped ? "timer stopped" : "no timer was running") : output.endTimeLocal ? `ends at ${output.endTimeLocal}` : "no timer running",
};

/**
 * The result of a finished call in a few words, or undefined when there is nothing better to say
 * than the tool's own wording (an MCP tool, a chat loaded from its note, an output of another shape).
 */
export function toolResultSummary(toolId: string | undefined, output: unknown): string | undefined {
  const summarize = toolId !== undefined && Object.hasOwn(SUMMARIES, toolId) ? SUMMARIES[toolId] : undefined;
  if (!summarize || typeof output !== "object" || output === null) return undefined;
  try {
    const summary = summarize(output as never);
    return summary.trim() === "" ? undefined : summary;
  } catch {
    // An output of another shape (a tool of that id that is not ours) has no summary.
    return undefined;
  }
}

/**
 * The arguments a model sent, one `key: value` line each: text as it is (its later lines
 * indented), lists of plain values joined with commas, anything deeper as compact JSON.
 */
export function argumentLines(args: unknown): string {
  if (typeof args === "string") return args;
  if (typeof args !== "object" || args === null || Array.isArray(args)) return plainValue(args);
  const entries = Object.entries(args as Record<string, unknown>).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return "No arguments";
  return entries.map(([key, value]) => `${key}: ${plainValue(value).replace(/\n/g, "\n  ")}`).join("\n");
}

function plainValue(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
  if (Array.isArray(value) && value.every((item) => item === null || ["string", "number", "boolean"].includes(typeof item))) return value.map(String).join(", ");
  // Arguments come parsed from JSON, so they write back as JSON; nothing else reaches here.
  try {
    return JSON.stringify(value) ?? "(none)";
  } catch {
    return "(not shown: not JSON)";
  }
}

/** How a call that did not finish well went, after the tool's name ("Read note failed"). */
const STATUS_WORDS: Record<Exclude<ToolCallPartStatus, "running" | "ok">, string> = {
  "invalid-arguments": "got arguments it cannot use",
  error: "failed",
  timeout: "took too long and was stopped",
  aborted: "was stopped",
  "unknown-tool": "is not a tool that is switched on",
};

export function failureTitle(displayName: string, status: Exclude<ToolCallPartStatus, "running" | "ok">): string {
  return `${displayName} ${STATUS_WORDS[status]}`;
}

/**
 * An error's own sentence from the text the model read, without the lead the model needs ("Tool
 * "readNote" failed: ", "Invalid arguments for tool "x": ") and starting with a capital.
 */
export function toolErrorSentence(resultText: string | undefined): string | undefined {
  if (!resultText) return undefined;
  const firstLine = resultText.split("\n")[0]?.trim() ?? "";
  const sentence = firstLine.replace(/^Tool "[^"]*" failed: /, "").replace(/^Invalid arguments for tool "[^"]*": /, "");
  return sentence === "" ? undefined : capitalized(sentence);
}
