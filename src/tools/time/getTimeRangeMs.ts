import { z } from "zod";
import type { BuiltinToolEntry } from "../BuiltinToolEntry";
import { defaultFormatForModel, type SimpleTool } from "../SimpleTool";
import type { CivilDate } from "./civilDate";
import { parseTimeExpression } from "./parseTimeExpression";
import { epochFromWallTime, formatDate, resolveTimeZone, wallTimeAt, WEEKDAY_NAMES } from "../../time/zonedTime";

const schema = z.object({
  timeExpression: z
    .string()
    .min(1)
    .describe(
      'A period in words or dates, in the user\'s time zone: "today", "yesterday", "last week", "this month", ' +
        '"past 3 days", "last 2 months", "March 2026", "Q1 2026", "2026-03-14", "from 2026-03-01 to 2026-03-10", "last year".',
    ),
});

export interface TimeRangeResult {
  /** First millisecond of the period, epoch ms. */
  startTime: number;
  /** Last millisecond of the period (inclusive), epoch ms; "now" for rolling periods. */
  endTime: number;
  description: string;
  timeZone: string;
  /** Set for a rolling period ("past 3 days"), which ends now: for the view, which words the range itself (the model reads `description`). */
  endsNow?: true;
}

export const getTimeRangeMsTool: BuiltinToolEntry = {
  metadata: {
    id: "getTimeRangeMs",
    displayName: "Get time range",
    description: "Turns phrases like \"last week\" or \"March 2026\" into exact start and end times.",
    category: "time",
    isAlwaysEnabled: true,
    customPromptInstructions:
      "When the user asks about a period (\"what did I write last week\", \"notes from March\"), call getTimeRangeMs " +
      "first and pass its startTime/endTime on to the search; do not compute epoch values yourself.",
    wording: { pending: "Would like to work out a time range", running: "Working out a time range", done: "Worked out a time range" },
  },
  create: ({ clock }): SimpleTool<z.infer<typeof schema>, TimeRangeResult> => ({
    name: "getTimeRangeMs",
    description:
      "Converts a time expression into {startTime, endTime} in epoch milliseconds (end inclusive) in the user's time zone, with a readable description.",
    schema,
    isReadOnly: true,
    func: ({ timeExpression }) => Promise.resolve(timeRangeFor(timeExpression, clock.now(), clock.timeZone())),
    // The model reads the range as it always did; `endsNow` is the view's.
    formatForModel: ({ endsNow: _endsNow, ...forModel }) => defaultFormatForModel(forModel),
  }),
};

/** The bounds of a time expression at instant `now` in `timeZone`. Throws `TimeExpressionError`. */
export function timeRangeFor(timeExpression: string, now: number, timeZone: string): TimeRangeResult {
  const zone = resolveTimeZone(timeZone);
  const wallNow = wallTimeAt(now, zone);
  const today = { year: wallNow.year, month: wallNow.month, day: wallNow.day };
  const parsed = parseTimeExpression(timeExpression, today);
  let startTime: number;
  let endTime: number;
  if (parsed.kind === "hours") {
    startTime = now - parsed.hours * 3_600_000;
    endTime = now;
  } else {
    startTime = startOfDay(parsed.start, zone);
    endTime = parsed.end === "now" ? now : startOfDay(parsed.end, zone) - 1;
  }
  const description =
    `"${timeExpression.trim()}" in ${zone}: from ${readable(startTime, zone)} ` +
    `to ${parsed.kind === "hours" || parsed.end === "now" ? `now (${readable(endTime, zone)})` : readable(endTime, zone)}`;
  const endsNow = parsed.kind === "hours" || parsed.end === "now";
  return { startTime, endTime, description, timeZone: zone, ...(endsNow ? { endsNow: true as const } : {}) };
}

function startOfDay(date: CivilDate, timeZone: string): number {
  return epochFromWallTime({ ...date, hour: 0, minute: 0, second: 0, millisecond: 0 }, timeZone).epochMs;
}

/** "Monday 2026-11-23 00:00" */
function readable(epochMs: number, timeZone: string): string {
  const wall = wallTimeAt(epochMs, timeZone);
  const time = `${String(wall.hour).padStart(2, "0")}:${String(wall.minute).padStart(2, "0")}`;
  return `${WEEKDAY_NAMES[wall.weekday - 1] ?? ""} ${formatDate(wall)} ${time}`;
}
