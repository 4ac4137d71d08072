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
import type { WebSearchOutput } from "../../tools/web/webSearch";
import { capitalized } from "./errorText";
import { conversionSummary, instantSummary, pomodoroEndSummary, timeRangeSummary } from "./timeSummary";
import type { ToolFailure } from "../../errorMessage";
import { ENGLISH } from "../../i18n/languages";
import { currentLanguage, t } from "../../i18n/t";
import { toolFailureText } from "../coreNotices";

/**
 * What a tool call's banner says in words a person reads: a short summary of the result ("3 notes
 * found"), the arguments as `key: value` lines, an error's own sentence. The text the model read
 * (XML-like blocks, JSON) stays behind the banner's "Details" fold.
 */

type Summarizer = (output: never) => string;

/** By tool id: a built-in tool's output, said in a few words in the interface's language. Other tools (MCP) have none. */
const SUMMARIES: Record<string, Summarizer> = {
  localSearch: (output: LocalSearchResult) => (output.hits.length === 0 ? t("summary.noNotes") : t("summary.notesFound", { count: output.hits.length })),
  readNote: (output: ReadNoteResult) =>
    output.totalChunks > 1
      ? t("summary.charactersPart", { path: output.path, count: output.content.length, part: output.chunkIndex + 1, parts: output.totalChunks })
      : t("summary.characters", { path: output.path, count: output.content.length }),
  getFileTree: (output: FileTreeResult) => t("summary.files", { count: output.totalFiles, folders: t("summary.folders", { count: output.totalFolders }) }),
  getTagList: (output: TagListResult) => t("summary.tags", { count: output.totalTags, notes: t("summary.notes", { count: output.notesScanned }) }),
  getBacklinks: (output: BacklinksResult) => t("summary.backlinks", { path: output.path, count: output.totalLinkingNotes }),
  getOutgoingLinks: (output: OutgoingLinksResult) => t("summary.links", { path: output.path, count: output.links.length }),
  getNoteProperties: (output: NotePropertiesResult) => t("summary.properties", { path: output.path, count: Object.keys(output.properties).length }),
  webSearch: (output: WebSearchOutput) => t("summary.webResults", { count: output.results.length, query: output.query }),
  youtubeTranscription: (output: YouTubeTranscriptionOutput) =>
    t("summary.transcripts", { count: output.videos.filter((video) => video.status === "ok").length, videos: t("summary.videos", { count: output.videos.length }) }),
  getCurrentTime: instantSummary,
  getTimeInfoByEpoch: instantSummary,
  getTimeRangeMs: timeRangeSummary,
  convertTimeBetweenTimezones: conversionSummary,
  pomodoro: (output: PomodoroOutput) =>
    output.action === "stop" ? (output.stopped ? t("summary.timerStopped") : t("summary.noTimerWasRunning")) : output.endTimeLocal ? pomodoroEndSummary(output, output.endTimeLocal) : t("summary.noTimer"),
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
  if (entries.length === 0) return t("banner.noArguments");
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

/** How a call that did not finish well went, with the tool's name ("Read note failed"). */
export function failureTitle(displayName: string, status: Exclude<ToolCallPartStatus, "running" | "ok">): string {
  return t(`banner.status.${status}`, { tool: displayName });
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

/**
 * A failed call's sentence as its banner shows it: in English the tool's own sentence (as the
 * model read it); in another language the sentence for its kind, or the English one where the
 * failure has none. The English sentence stays under Details.
 */
export function shownToolError(resultText: string | undefined, failure: ToolFailure | undefined): string | undefined {
  if (failure === undefined || currentLanguage() === ENGLISH) return toolErrorSentence(resultText);
  return toolFailureText(failure) ?? toolErrorSentence(resultText);
}
