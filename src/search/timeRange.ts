import { systemClock } from "../ports/Clock";
import { isValidTimeZone, wallTimeAt } from "../time/zonedTime";
import type { TimeRange } from "../ports/NoteSearcher";
import type { IndexedDocument } from "./InvertedIndex";

/**
 * The day a daily note is about, from its file name, as yyyymmdd (20260314), or 0 when the name
 * holds no date. Accepted: "2026-03-14", "2026.03.14" or "2026_03_14" anywhere in the name
 * ("Journal 2026-03-14.md", "2026-03-14 Saturday.md"), or a name that is only "20260314".
 */
export function dailyNoteDayKey(path: string): number {
  const name = path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/i, "");
  const match = /(?:^|\D)(\d{4})([-._])(\d{2})\2(\d{2})(?:\D|$)/.exec(name) ?? /^(\d{4})()(\d{2})(\d{2})$/.exec(name);
  if (!match) return 0;
  const year = Number(match[1]);
  const month = Number(match[3]);
  const day = Number(match[4]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return 0;
  return year * 10_000 + month * 100 + day;
}

/** The calendar day (yyyymmdd) of an instant in a time zone; the system's zone when it is unknown. */
export function dayKeyAt(epochMs: number, timeZone: string): number {
  const wall = wallTimeAt(epochMs, isValidTimeZone(timeZone) ? timeZone : systemClock("").timeZone());
  return wall.year * 10_000 + wall.month * 100 + wall.day;
}

/**
 * A filter for notes in a time range: modified within it, or a daily note for a day it touches
 * (days are those of `timeZone`, the one the range was computed in).
 */
export function timeRangeFilter(range: TimeRange, timeZone: string): (document: IndexedDocument) => boolean {
  const firstDay = dayKeyAt(range.startTime, timeZone);
  const lastDay = dayKeyAt(range.endTime, timeZone);
  return (document) =>
    (document.mtime >= range.startTime && document.mtime <= range.endTime) ||
    (document.dayKey !== 0 && document.dayKey >= firstDay && document.dayKey <= lastDay);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}
