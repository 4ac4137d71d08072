import { z } from "zod";
import { ToolFailureError } from "../../errorMessage";
import type { BuiltinToolEntry } from "../BuiltinToolEntry";
import type { SimpleTool } from "../SimpleTool";
import { isValidDate } from "./civilDate";
import { describeInstant, timeZoneField, type TimeInfo } from "./timeInfo";
import { epochFromWallTime, resolveTimeZone, wallTimeAt, type WallTime } from "../../time/zonedTime";

const schema = z.object({
  time: z
    .string()
    .min(1)
    .describe(
      'The time to convert: "14:30", "2:30 pm", "2026-03-29 02:30", "2026-03-29T02:30:00" (read in fromTimeZone), ' +
        '"2026-03-29T00:30:00Z" (an exact instant), or "now". A time without a date means today in fromTimeZone.',
    ),
  fromTimeZone: timeZoneField('IANA time zone the time is given in, e.g. "Europe/Berlin".'),
  toTimeZone: timeZoneField('IANA time zone to convert to, e.g. "America/New_York".'),
});

export interface TimeConversion {
  from: TimeInfo;
  to: TimeInfo;
  /** Set when the wall time does not exist (DST gap) or exists twice (DST overlap) in fromTimeZone. */
  note?: string;
}

export const convertTimeBetweenTimezonesTool: BuiltinToolEntry = {
  metadata: {
    id: "convertTimeBetweenTimezones",
    displayName: "Convert between time zones",
    description: "Converts a time from one time zone to another, daylight saving time included.",
    category: "time",
    isAlwaysEnabled: true,
    customPromptInstructions:
      "Use convertTimeBetweenTimezones for any time zone conversion instead of adding offsets yourself: it knows daylight saving time.",
    wording: { pending: "Would like to convert a time", running: "Converting a time", done: "Converted a time" },
  },
  create: ({ clock }): SimpleTool<z.infer<typeof schema>, TimeConversion> => ({
    name: "convertTimeBetweenTimezones",
    description: "Converts a date and time from one IANA time zone to another, correct across daylight saving changes.",
    schema,
    isReadOnly: true,
    func: ({ time, fromTimeZone, toTimeZone }) => Promise.resolve(convertTime(time, fromTimeZone, toTimeZone, clock.now())),
  }),
};

export function convertTime(time: string, fromTimeZone: string, toTimeZone: string, now: number): TimeConversion {
  const from = resolveTimeZone(fromTimeZone);
  const to = resolveTimeZone(toTimeZone);
  const parsed = parseTime(time, from, now);
  let epochMs: number;
  let note: string | undefined;
  if ("epochMs" in parsed) epochMs = parsed.epochMs;
  else {
    const resolved = epochFromWallTime(parsed.wall, from);
    epochMs = resolved.epochMs;
    const shown = describeInstant(epochMs, from);
    if (resolved.resolution === "gap") {
      note = `${time.trim()} does not exist in ${from}: clocks jump forward there that day. It was read as ${shown.localDateTime} (UTC${shown.utcOffset}).`;
    } else if (resolved.resolution === "overlap") {
      const later = describeInstant(epochMs + offsetGapMinutes(epochMs, from) * 60_000, from);
      note = `${time.trim()} happens twice in ${from} (clocks go back that day); the first one (UTC${shown.utcOffset}) was used, the second is UTC${later.utcOffset}.`;
    }
  }
  return { from: describeInstant(epochMs, from), to: describeInstant(epochMs, to), ...(note ? { note } : {}) };
}

/** How far the offset drops during an overlap that starts after `epochMs` (a positive count of minutes). */
function offsetGapMinutes(epochMs: number, timeZone: string): number {
  const before = wallTimeAt(epochMs, timeZone).offsetMinutes;
  const after = wallTimeAt(epochMs + 86_400_000, timeZone).offsetMinutes;
  return Math.max(before - after, 0);
}

type ParsedTime = { epochMs: number } | { wall: WallTime };

const TIME = "(\\d{1,2})(?::(\\d{2}))?(?::(\\d{2}))?\\s*(am|pm|a\\.m\\.|p\\.m\\.)?";

function parseTime(input: string, fromTimeZone: string, now: number): ParsedTime {
  const text = input.trim().toLowerCase();
  if (text === "now") return { epochMs: now };
  if (/^\d{4}-\d{2}-\d{2}t\d{2}:\d{2}(:\d{2}(\.\d+)?)?(z|[+-]\d{2}:?\d{2})$/.test(text)) {
    const epochMs = Date.parse(text.toUpperCase());
    if (!Number.isNaN(epochMs)) return { epochMs };
  }
  const dated = new RegExp(`^(\\d{4})-(\\d{1,2})-(\\d{1,2})(?:[t ]${TIME})?$`).exec(text);
  const bare = new RegExp(`^${TIME}$`).exec(text);
  let year: number;
  let month: number;
  let day: number;
  let clockParts: (string | undefined)[];
  if (dated) {
    [year, month, day] = [Number(dated[1]), Number(dated[2]), Number(dated[3])];
    clockParts = dated.slice(4);
  } else if (bare && (bare[2] !== undefined || bare[4] !== undefined)) {
    const today = wallTimeAt(now, fromTimeZone);
    [year, month, day] = [today.year, today.month, today.day];
    clockParts = bare.slice(1);
  } else {
    throw timeNotUnderstood(input, `Could not read the time "${input}". Give it as "14:30", "2:30 pm", "2026-03-29 14:30", "2026-03-29T14:30:00Z" or "now".`);
  }
  if (!isValidDate(year, month, day)) throw timeNotUnderstood(input, `"${input}" is not a date in the calendar.`);
  let hour = Number(clockParts[0] ?? 0);
  const minute = Number(clockParts[1] ?? 0);
  const second = Number(clockParts[2] ?? 0);
  const meridiem = clockParts[3]?.replace(/\./g, "");
  if (meridiem) {
    if (hour < 1 || hour > 12) throw timeNotUnderstood(input, `"${input}": with am/pm the hour must be 1-12.`);
    hour = (hour % 12) + (meridiem === "pm" ? 12 : 0);
  }
  if (hour > 23 || minute > 59 || second > 59) throw timeNotUnderstood(input, `"${input}" is not a time of day.`);
  return { wall: { year, month, day, hour, minute, second, millisecond: 0 } };
}

/** A time the tool cannot read: the message says why (for the model), the failure names the time (for the view). */
function timeNotUnderstood(input: string, message: string): ToolFailureError {
  return new ToolFailureError(message, { kind: "time-not-understood", values: { expression: input } });
}
