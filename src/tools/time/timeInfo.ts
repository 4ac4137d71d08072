import { z } from "zod";
import type { Clock } from "../../ports/Clock";
import { formatIsoWithOffset, formatOffset, formatWallTime, isValidTimeZone, resolveTimeZone, WEEKDAY_NAMES, wallTimeAt } from "../../time/zonedTime";

/** One instant as the time tools report it: epoch, UTC, and the wall time in a zone. */
export interface TimeInfo {
  epochMs: number;
  isoUtc: string;
  /** "2026-03-29 03:00:00" in `timeZone`. */
  localDateTime: string;
  /** "2026-03-29T03:00:00+02:00" */
  isoLocal: string;
  timeZone: string;
  utcOffset: string;
  weekday: string;
}

export function describeInstant(epochMs: number, timeZone: string): TimeInfo {
  const zone = resolveTimeZone(timeZone);
  const wall = wallTimeAt(epochMs, zone);
  return {
    epochMs,
    isoUtc: new Date(epochMs).toISOString(),
    localDateTime: formatWallTime(wall),
    isoLocal: formatIsoWithOffset(wall),
    timeZone: zone,
    utcOffset: formatOffset(wall.offsetMinutes),
    weekday: WEEKDAY_NAMES[wall.weekday - 1] ?? "",
  };
}

/** A time zone argument: an IANA name, checked so a wrong one names the field that is wrong. */
export function timeZoneField(description: string) {
  return z
    .string()
    .refine(isValidTimeZone, { error: 'not a known IANA time zone (e.g. "Europe/Berlin", "America/New_York", "UTC")' })
    .describe(description);
}

/** The zone a call means: the argument when given, else the user's (from the clock). */
export function zoneOrUsers(timeZone: string | undefined, clock: Clock): string {
  return resolveTimeZone(timeZone && timeZone.trim() ? timeZone : clock.timeZone());
}
