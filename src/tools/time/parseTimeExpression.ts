import type { ToolFailure } from "../../errorMessage";
import { addDays, addMonths, compareDates, isValidDate, startOfWeek, weekdayOf, type CivilDate } from "./civilDate";

/**
 * Turns a phrase such as "last week", "past 3 days", "March 2026" or "from 2026-03-01 to
 * 2026-03-10" into calendar bounds, relative to `today` in the user's time zone. The zone itself
 * is applied by the caller. Calendar periods end where the next one begins; rolling periods
 * ("past 3 days", "last 24 hours") end now. Weeks start on Monday (ISO 8601).
 */
export type ParsedTimeRange =
  | { kind: "dates"; start: CivilDate; end: CivilDate | "now" }
  | { kind: "hours"; hours: number };

export const ACCEPTED_TIME_EXPRESSIONS = [
  "today",
  "yesterday",
  "tomorrow",
  "this week",
  "last week",
  "next week",
  "this month",
  "last month",
  "this quarter",
  "last year",
  "this weekend",
  "past 3 days",
  "last 2 weeks",
  "last 6 months",
  "last 24 hours",
  "3 days ago",
  "monday",
  "last friday",
  "March",
  "March 2026",
  "2026-03",
  "Q1",
  "Q1 2026",
  "2026",
  "2026-03-14",
  "14 March 2026",
  "March 14, 2026",
  "since 2026-03-01",
  "from 2026-03-01 to 2026-03-10",
  "between March and May 2026",
];

export class TimeExpressionError extends Error {
  /** For the view: the expression that could not be read (the message says why, for the model). */
  readonly failure: ToolFailure;

  constructor(
    readonly expression: string,
    detail?: string,
  ) {
    super(
      `${detail ?? `Could not understand the time expression "${expression}".`} Accepted forms include: ` +
        `${ACCEPTED_TIME_EXPRESSIONS.map((form) => `"${form}"`).join(", ")}. Weeks start on Monday.`,
    );
    this.name = "TimeExpressionError";
    this.failure = { kind: "time-not-understood", values: { expression } };
  }
}

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const WEEKDAY_WORDS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
const NUMBER_WORDS: Record<string, number> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, fourteen: 14, thirty: 30, couple: 2, few: 3,
};
const MONTH_PATTERN = "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
const NUMBER_PATTERN = `(\\d+|${Object.keys(NUMBER_WORDS).join("|")})`;
const MAX_COUNT = 10_000;

export function parseTimeExpression(expression: string, today: CivilDate): ParsedTimeRange {
  const text = normalize(expression);
  if (text.length === 0) throw new TimeExpressionError(expression, "The time expression is empty.");

  const since = /^(?:since|after|starting(?: from)?) (.+)$/.exec(text);
  if (since) {
    const from = parseSingle(since[1] ?? "", today, expression);
    return { kind: "dates", start: startOf(from, today), end: "now" };
  }
  const range =
    /^(?:from|between) (.+?) (?:to|and|until|till|through|-) (.+)$/.exec(text) ??
    /^(.+?) (?:to|until|till|through|-) (.+)$/.exec(text) ??
    /^(.+?) ?\.\. ?(.+)$/.exec(text);
  if (range) {
    const fromText = range[1] ?? "";
    const toText = range[2] ?? "";
    // "between March and May 2026": the year written once applies to both ends.
    const sharedYear = /\b(\d{4})$/.exec(toText)?.[1];
    const from =
      sharedYear && !/\d{4}/.test(fromText) && /[a-z]/.test(fromText)
        ? tryParse(`${fromText} ${sharedYear}`, today, expression) ?? parseSingle(fromText, today, expression)
        : parseSingle(fromText, today, expression);
    const to = parseSingle(toText, today, expression);
    const start = startOf(from, today);
    const end = to.kind === "dates" ? to.end : "now";
    if (end !== "now" && compareDates(end, start) <= 0) {
      throw new TimeExpressionError(expression, `The range "${expression}" ends before it starts.`);
    }
    return { kind: "dates", start, end };
  }
  return parseSingle(text, today, expression);
}

function parseSingle(text: string, today: CivilDate, original: string): ParsedTimeRange {
  const phrase = text.replace(/^(?:in|during|on|for|over|within|of) /, "").replace(/^the /, "");
  const day = (date: CivilDate): ParsedTimeRange => ({ kind: "dates", start: date, end: addDays(date, 1) });

  if (phrase === "today" || phrase === "now") return day(today);
  if (phrase === "yesterday") return day(addDays(today, -1));
  if (phrase === "tomorrow") return day(addDays(today, 1));
  if (phrase === "day before yesterday") return day(addDays(today, -2));

  const period = /^(this|current|last|previous|past|next) (day|week|weekend|month|quarter|year)$/.exec(phrase);
  if (period) {
    const which = period[1] ?? "";
    const unit = period[2] as Unit | "weekend";
    if (which === "past" && unit !== "weekend") return rolling(unit === "quarter" ? "month" : unit, unit === "quarter" ? 3 : 1, today);
    const shift = which === "last" || which === "previous" ? -1 : which === "next" ? 1 : 0;
    return calendarPeriod(unit, shift, today);
  }

  const rollingMatch = new RegExp(`^(?:last|past|previous) ${NUMBER_PATTERN} (hour|day|week|month|quarter|year)s?$`).exec(phrase);
  if (rollingMatch) {
    const count = countOf(rollingMatch[1] ?? "", original);
    const unit = rollingMatch[2] as Unit | "hour";
    if (unit === "hour") return { kind: "hours", hours: count };
    return unit === "quarter" ? rolling("month", count * 3, today) : rolling(unit, count, today);
  }

  const ago = new RegExp(`^${NUMBER_PATTERN} (day|week|month|quarter|year)s? ago$`).exec(phrase);
  if (ago) return calendarPeriod(ago[2] as Unit, -countOf(ago[1] ?? "", original), today);

  const weekday = /^(last|this|previous)? ?(monday|tuesday|wednesday|thursday|friday|saturday|sunday)$/.exec(phrase);
  if (weekday) {
    const target = WEEKDAY_WORDS.indexOf(weekday[2] ?? "") + 1;
    let back = (weekdayOf(today) - target + 7) % 7;
    // "last monday" on a Monday means a week ago; plain "monday" means today.
    if (back === 0 && (weekday[1] === "last" || weekday[1] === "previous")) back = 7;
    return day(addDays(today, -back));
  }

  const monthYear = new RegExp(`^${MONTH_PATTERN},? ?(\\d{4})?$`).exec(phrase);
  if (monthYear) {
    const month = monthIndex(monthYear[1] ?? "");
    const year = monthYear[2] ? Number(monthYear[2]) : month > today.month ? today.year - 1 : today.year;
    return monthRange(year, month, 1);
  }
  const isoMonth = /^(\d{4})-(\d{1,2})$/.exec(phrase);
  if (isoMonth) {
    const month = Number(isoMonth[2]);
    if (month < 1 || month > 12) throw new TimeExpressionError(original, `"${phrase}" has no month ${month}.`);
    return monthRange(Number(isoMonth[1]), month, 1);
  }

  const quarter = /^q([1-4])(?:[ -]?(\d{4}))?$/.exec(phrase) ?? swapQuarter(/^(\d{4})[ -]?q([1-4])$/.exec(phrase));
  if (quarter) {
    const index = Number(quarter[1]);
    const currentQuarter = Math.ceil(today.month / 3);
    const year = quarter[2] ? Number(quarter[2]) : index > currentQuarter ? today.year - 1 : today.year;
    return monthRange(year, index * 3 - 2, 3);
  }

  const year = /^(\d{4})$/.exec(phrase);
  if (year) return monthRange(Number(year[1]), 1, 12);

  const date = parseDate(phrase, today, original);
  if (date) return day(date);

  throw new TimeExpressionError(original);
}

type Unit = "day" | "week" | "month" | "quarter" | "year";

/** The calendar day, week, weekend, month, quarter or year holding today, shifted by `shift` of them. */
function calendarPeriod(unit: Unit | "weekend", shift: number, today: CivilDate): ParsedTimeRange {
  switch (unit) {
    case "day": {
      const start = addDays(today, shift);
      return { kind: "dates", start, end: addDays(start, 1) };
    }
    case "week": {
      const start = addDays(startOfWeek(today), 7 * shift);
      return { kind: "dates", start, end: addDays(start, 7) };
    }
    case "weekend": {
      // This weekend: the coming (or current) Saturday and Sunday.
      const saturday = addDays(startOfWeek(today), 5 + 7 * shift);
      return { kind: "dates", start: saturday, end: addDays(saturday, 2) };
    }
    case "month": {
      const start = addMonths({ year: today.year, month: today.month, day: 1 }, shift);
      return { kind: "dates", start, end: addMonths(start, 1) };
    }
    case "quarter": {
      const firstMonth = Math.floor((today.month - 1) / 3) * 3 + 1;
      const start = addMonths({ year: today.year, month: firstMonth, day: 1 }, 3 * shift);
      return { kind: "dates", start, end: addMonths(start, 3) };
    }
    case "year": {
      const start = { year: today.year + shift, month: 1, day: 1 };
      return { kind: "dates", start, end: { year: start.year + 1, month: 1, day: 1 } };
    }
  }
}

/** From the start of the day `count` units ago up to now. */
function rolling(unit: Exclude<Unit, "quarter">, count: number, today: CivilDate): ParsedTimeRange {
  const start =
    unit === "day" ? addDays(today, -count)
    : unit === "week" ? addDays(today, -7 * count)
    : unit === "month" ? addMonths(today, -count)
    : addMonths(today, -12 * count);
  return { kind: "dates", start, end: "now" };
}

function monthRange(year: number, month: number, months: number): ParsedTimeRange {
  const start = { year, month, day: 1 };
  return { kind: "dates", start, end: addMonths(start, months) };
}

function parseDate(phrase: string, today: CivilDate, original: string): CivilDate | null {
  let year: number | undefined;
  let month: number | undefined;
  let dayOfMonth: number | undefined;
  const iso = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(phrase);
  const dayFirst = new RegExp(`^(\\d{1,2})(?:st|nd|rd|th)? ${MONTH_PATTERN},? ?(\\d{4})?$`).exec(phrase);
  const monthFirst = new RegExp(`^${MONTH_PATTERN} (\\d{1,2})(?:st|nd|rd|th)?,? ?(\\d{4})?$`).exec(phrase);
  if (iso) [year, month, dayOfMonth] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (dayFirst) [dayOfMonth, month, year] = [Number(dayFirst[1]), monthIndex(dayFirst[2] ?? ""), dayFirst[3] ? Number(dayFirst[3]) : undefined];
  else if (monthFirst) [month, dayOfMonth, year] = [monthIndex(monthFirst[1] ?? ""), Number(monthFirst[2]), monthFirst[3] ? Number(monthFirst[3]) : undefined];
  else return null;

  // Without a year: the most recent such date that is not in the future.
  let resolvedYear = year ?? today.year;
  if (year === undefined && compareDates({ year: today.year, month, day: dayOfMonth }, today) > 0) resolvedYear--;
  if (!isValidDate(resolvedYear, month, dayOfMonth)) {
    throw new TimeExpressionError(original, `"${phrase}" is not a date in the calendar.`);
  }
  return { year: resolvedYear, month, day: dayOfMonth };
}

function tryParse(text: string, today: CivilDate, original: string): ParsedTimeRange | null {
  try {
    return parseSingle(text, today, original);
  } catch {
    return null;
  }
}

function startOf(range: ParsedTimeRange, today: CivilDate): CivilDate {
  // "since last 24 hours" makes little sense; its calendar start is yesterday.
  return range.kind === "dates" ? range.start : addDays(today, -Math.ceil(range.hours / 24));
}

function countOf(word: string, original: string): number {
  const count = /^\d+$/.test(word) ? Number(word) : (NUMBER_WORDS[word] ?? NaN);
  if (!Number.isInteger(count) || count < 1 || count > MAX_COUNT) {
    throw new TimeExpressionError(original, `"${word}" is not a count between 1 and ${MAX_COUNT}.`);
  }
  return count;
}

function monthIndex(name: string): number {
  return MONTHS.findIndex((month) => month.startsWith(name.slice(0, 3))) + 1;
}

function swapQuarter(match: RegExpExecArray | null): string[] | null {
  return match ? [match[0], match[2] ?? "", match[1] ?? ""] : null;
}

function normalize(expression: string): string {
  return expression
    .toLowerCase()
    .replace(/[“”"']/g, "")
    .replace(/\s+/g, " ")
    .replace(/[.?!]+$/, "")
    .trim();
}
