/**
 * Wall-clock time in IANA time zones with nothing but `Intl` (no dependency). Conversions are
 * DST-correct: a wall time that falls in a spring-forward gap or a fall-back overlap is resolved
 * the way browsers and Temporal's "compatible" mode do (gap: shifted forward by the gap's length;
 * overlap: the earlier instant), and the caller is told which case it was.
 */

/** A civil date and time, month 1-12. */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

export interface ZonedWallTime extends WallTime {
  /** ISO weekday: 1 = Monday ... 7 = Sunday. */
  weekday: number;
  /** Offset from UTC in minutes at that instant (e.g. 60 for CET, 120 for CEST). */
  offsetMinutes: number;
}

/** How a wall time mapped to an instant: exactly, shifted out of a DST gap, or the first of two. */
export type WallTimeResolution = "exact" | "gap" | "overlap";

export class UnknownTimeZoneError extends Error {
  constructor(readonly timeZone: string) {
    super(`Unknown time zone "${timeZone}": use an IANA name such as "Europe/Berlin", "America/New_York" or "UTC".`);
    this.name = "UnknownTimeZoneError";
  }
}

const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
export const WEEKDAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/** The canonical spelling of a time zone name ("europe/berlin" -> "Europe/Berlin"), or throws. */
export function resolveTimeZone(timeZone: string): string {
  const name = timeZone.trim();
  if (name.length === 0) throw new UnknownTimeZoneError(timeZone);
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    throw new UnknownTimeZoneError(timeZone);
  }
}

/** True when `timeZone` is a name Intl knows. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    resolveTimeZone(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall time in `timeZone` at an instant. */
export function wallTimeAt(epochMs: number, timeZone: string): ZonedWallTime {
  const format = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
    weekday: "short",
    era: "short",
  });
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(new Date(epochMs))) parts[part.type] = part.value;
  const yearOfEra = Number(parts.year);
  const year = parts.era === "BC" || parts.era === "B" ? 1 - yearOfEra : yearOfEra;
  const wall: WallTime = {
    year,
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    millisecond: ((epochMs % 1000) + 1000) % 1000,
  };
  const offsetMinutes = Math.round((civilToUtcMs(wall) - epochMs) / 60_000);
  return { ...wall, weekday: WEEKDAYS.indexOf(parts.weekday ?? "") + 1, offsetMinutes };
}

/** The UTC offset of `timeZone` at an instant, in minutes. */
export function offsetMinutesAt(epochMs: number, timeZone: string): number {
  return wallTimeAt(epochMs, timeZone).offsetMinutes;
}

/** The instant a wall time in `timeZone` names, and whether DST made it ambiguous or missing. */
export function epochFromWallTime(wall: WallTime, timeZone: string): { epochMs: number; resolution: WallTimeResolution } {
  const asUtc = civilToUtcMs(wall);
  const day = 86_400_000;
  // Offsets a day either side bracket any transition near this wall time (no zone has two in a day).
  const offsetBefore = offsetMinutesAt(asUtc - day, timeZone);
  const offsetAfter = offsetMinutesAt(asUtc + day, timeZone);
  const candidates = [...new Set([offsetBefore, offsetAfter])]
    .map((offset) => asUtc - offset * 60_000)
    .filter((epochMs) => civilToUtcMs(wallTimeAt(epochMs, timeZone)) === asUtc)
    .sort((a, b) => a - b);
  const first = candidates[0];
  if (first !== undefined) return { epochMs: first, resolution: candidates.length > 1 ? "overlap" : "exact" };
  // In a gap: read the wall time with the offset in force before the jump, which lands after it.
  return { epochMs: asUtc - offsetBefore * 60_000, resolution: "gap" };
}

/** The wall time read as if it were UTC (the arithmetic base for calendar maths). */
export function civilToUtcMs(wall: WallTime): number {
  const date = new Date(0);
  date.setUTCFullYear(wall.year, wall.month - 1, wall.day);
  date.setUTCHours(wall.hour, wall.minute, wall.second, wall.millisecond);
  return date.getTime();
}

/** "+01:00", "-05:30", "+00:00" */
export function formatOffset(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? "-" : "+";
  const absolute = Math.abs(offsetMinutes);
  return `${sign}${pad(Math.floor(absolute / 60))}:${pad(absolute % 60)}`;
}

/** "2026-03-29" */
export function formatDate(wall: Pick<WallTime, "year" | "month" | "day">): string {
  return `${String(wall.year).padStart(4, "0")}-${pad(wall.month)}-${pad(wall.day)}`;
}

/** "2026-03-29 03:00:00" */
export function formatWallTime(wall: WallTime): string {
  return `${formatDate(wall)} ${pad(wall.hour)}:${pad(wall.minute)}:${pad(wall.second)}`;
}

/** "2026-03-29T03:00:00+02:00": ISO 8601 with the zone's offset. */
export function formatIsoWithOffset(wall: ZonedWallTime): string {
  return `${formatDate(wall)}T${pad(wall.hour)}:${pad(wall.minute)}:${pad(wall.second)}${formatOffset(wall.offsetMinutes)}`;
}

function pad(value: number): string {
  return String(value).padStart(2, "0");
}
