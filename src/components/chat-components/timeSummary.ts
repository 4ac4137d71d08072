import type { PomodoroOutput } from "../../tools/pomodoro/pomodoro";
import type { TimeConversion } from "../../tools/time/convertTimeBetweenTimezones";
import type { TimeRangeResult } from "../../tools/time/getTimeRangeMs";
import type { TimeInfo } from "../../tools/time/timeInfo";
import { ENGLISH } from "../../i18n/languages";
import { currentLanguage, t, uiLocale } from "../../i18n/t";

/**
 * The time tools' results in a banner's summary. The model reads them in English (weekday names,
 * ISO dates); a person reads them through `Intl` in the interface's locale, in the zone the tool
 * answered for. English keeps the tool's own words, as it always showed them.
 */

/** A weekday, a date and a time of day: how an instant reads in the interface's locale. */
const INSTANT: Intl.DateTimeFormatOptions = { dateStyle: "full", timeStyle: "short" };
/** Shorter, for the two ends of a range (Intl leaves out what both ends share). */
const RANGE_END: Intl.DateTimeFormatOptions = { weekday: "short", year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" };

export function instantSummary(output: TimeInfo): string {
  if (currentLanguage() === ENGLISH) return `${output.weekday} ${output.localDateTime} (${output.timeZone})`;
  return t("summary.inZone", { time: formatIn(output.epochMs, output.timeZone, INSTANT), timeZone: output.timeZone });
}

export function conversionSummary(output: TimeConversion): string {
  if (currentLanguage() === ENGLISH) return `${output.from.localDateTime} ${output.from.timeZone} → ${output.to.localDateTime} ${output.to.timeZone}`;
  return t("summary.conversion", {
    from: formatIn(output.from.epochMs, output.from.timeZone, INSTANT),
    fromZone: output.from.timeZone,
    to: formatIn(output.to.epochMs, output.to.timeZone, INSTANT),
    toZone: output.to.timeZone,
  });
}

export function timeRangeSummary(output: TimeRangeResult): string {
  if (currentLanguage() === ENGLISH) return output.description;
  const format = new Intl.DateTimeFormat(uiLocale(), { ...RANGE_END, timeZone: output.timeZone });
  if (output.endsNow) return t("summary.timeRangeToNow", { start: format.format(output.startTime), timeZone: output.timeZone });
  return t("summary.timeRange", { range: format.formatRange(output.startTime, output.endTime), timeZone: output.timeZone });
}

function formatIn(epochMs: number, timeZone: string, options: Intl.DateTimeFormatOptions): string {
  return new Intl.DateTimeFormat(uiLocale(), { ...options, timeZone }).format(epochMs);
}

/** "ends at …" for a pomodoro: the time of day when it ends (or ended) today, else its date too. */
export function pomodoroEndSummary(output: PomodoroOutput, endTimeLocal: string, now = Date.now()): string {
  const end = output.status.running ? output.status.endsAt : output.status.lastFinished?.endedAt;
  if (currentLanguage() === ENGLISH || end === undefined || output.timeZone === undefined) return t("summary.endsAt", { time: endTimeLocal });
  const day = (epochMs: number) => formatIn(epochMs, output.timeZone as string, { dateStyle: "short" });
  const options: Intl.DateTimeFormatOptions = day(end) === day(now) ? { timeStyle: "short" } : { dateStyle: "medium", timeStyle: "short" };
  return t("summary.endsAt", { time: formatIn(end, output.timeZone, options) });
}
