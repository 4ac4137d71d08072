/** Calendar arithmetic on dates without a time zone (the zone is applied only at the end). */
export interface CivilDate {
  year: number;
  month: number;
  day: number;
}

const DAY_MS = 86_400_000;

function toUtcDay(date: CivilDate): number {
  const utc = new Date(0);
  utc.setUTCFullYear(date.year, date.month - 1, date.day);
  return utc.getTime();
}

function fromUtcDay(epochMs: number): CivilDate {
  const utc = new Date(epochMs);
  return { year: utc.getUTCFullYear(), month: utc.getUTCMonth() + 1, day: utc.getUTCDate() };
}

export function addDays(date: CivilDate, days: number): CivilDate {
  return fromUtcDay(toUtcDay(date) + days * DAY_MS);
}

/** Adds months, clamping the day to the target month's length (Jan 31 + 1 month = Feb 28/29). */
export function addMonths(date: CivilDate, months: number): CivilDate {
  const index = date.year * 12 + (date.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12 + 1;
  return { year, month, day: Math.min(date.day, daysInMonth(year, month)) };
}

export function daysInMonth(year: number, month: number): number {
  return fromUtcDay(toUtcDay({ year, month: month + 1, day: 1 }) - DAY_MS).day;
}

/** ISO weekday, 1 = Monday ... 7 = Sunday. */
export function weekdayOf(date: CivilDate): number {
  const sundayBased = new Date(toUtcDay(date)).getUTCDay();
  return sundayBased === 0 ? 7 : sundayBased;
}

/** The Monday of the ISO week holding `date`. */
export function startOfWeek(date: CivilDate): CivilDate {
  return addDays(date, 1 - weekdayOf(date));
}

export function compareDates(a: CivilDate, b: CivilDate): number {
  return toUtcDay(a) - toUtcDay(b);
}

export function isValidDate(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}
