import { callTool, clockAt, makeToolDependencies, TEST_NOW } from "../../../test/helpers/toolHarness";
import { convertTimeBetweenTimezonesTool } from "./convertTimeBetweenTimezones";
import { getCurrentTimeTool } from "./getCurrentTime";
import { getTimeInfoByEpochTool } from "./getTimeInfoByEpoch";
import { getTimeRangeMsTool, type TimeRangeResult } from "./getTimeRangeMs";
import type { TimeConversion } from "./convertTimeBetweenTimezones";
import type { TimeInfo } from "./timeInfo";

const berlin = makeToolDependencies();
const HOUR = 3_600_000;

async function range(expression: string, dependencies = berlin): Promise<TimeRangeResult> {
  const result = await callTool(getTimeRangeMsTool, dependencies, { timeExpression: expression });
  expect(result.status).toBe("ok");
  return result.output as TimeRangeResult;
}

/** Berlin wall time as epoch ms, for expected values (Berlin is UTC+1 in winter, UTC+2 in summer). */
const berlinWinter = (y: number, m: number, d: number, h = 0) => Date.UTC(y, m - 1, d, h) - HOUR;
const berlinSummer = (y: number, m: number, d: number, h = 0) => Date.UTC(y, m - 1, d, h) - 2 * HOUR;

describe("getTimeRangeMs", () => {
  it("gives today and yesterday as whole days in the user's time zone", async () => {
    expect(await range("today")).toMatchObject({ startTime: berlinWinter(2026, 12, 2), endTime: berlinWinter(2026, 12, 3) - 1 });
    expect(await range("yesterday")).toMatchObject({ startTime: berlinWinter(2026, 12, 1), endTime: berlinWinter(2026, 12, 2) - 1 });
  });

  it("takes 'today' from the clock's time zone, not UTC", async () => {
    // 03:00 UTC on Dec 2 is still Dec 1 in New York.
    const newYork = makeToolDependencies({ clock: clockAt(Date.UTC(2026, 11, 2, 3), "America/New_York") });
    const today = await range("today", newYork);
    expect(today.startTime).toBe(Date.UTC(2026, 11, 1, 5));
    expect(today.timeZone).toBe("America/New_York");
  });

  it("treats last week as the previous Monday-to-Sunday week", async () => {
    const lastWeek = await range("last week");
    expect(lastWeek.startTime).toBe(berlinWinter(2026, 11, 23));
    expect(lastWeek.endTime).toBe(berlinWinter(2026, 11, 30) - 1);
    expect(lastWeek.description).toContain("Monday 2026-11-23 00:00");
    expect(lastWeek.description).toContain("Sunday 2026-11-29 23:59");
    expect(await range("this week")).toMatchObject({ startTime: berlinWinter(2026, 11, 30), endTime: berlinWinter(2026, 12, 7) - 1 });
  });

  it("ends rolling periods now", async () => {
    expect(await range("past 3 days")).toMatchObject({ startTime: berlinWinter(2026, 11, 29), endTime: TEST_NOW });
    expect(await range("last 2 months")).toMatchObject({ startTime: berlinSummer(2026, 10, 2), endTime: TEST_NOW });
    expect(await range("last 24 hours")).toMatchObject({ startTime: TEST_NOW - 24 * HOUR, endTime: TEST_NOW });
    expect(await range("in the past two weeks")).toMatchObject({ startTime: berlinWinter(2026, 11, 18) });
  });

  it("reads named months, quarters and years, across a DST change", async () => {
    // March 2026 starts in winter time and ends in summer time (DST began on the 29th).
    expect(await range("March 2026")).toMatchObject({ startTime: berlinWinter(2026, 3, 1), endTime: berlinSummer(2026, 4, 1) - 1 });
    expect(await range("march")).toMatchObject({ startTime: berlinWinter(2026, 3, 1) });
    expect(await range("Q1")).toMatchObject({ startTime: berlinWinter(2026, 1, 1), endTime: berlinSummer(2026, 4, 1) - 1 });
    expect(await range("Q1 2025")).toMatchObject({ startTime: berlinWinter(2025, 1, 1) });
    expect(await range("last year")).toMatchObject({ startTime: berlinWinter(2025, 1, 1), endTime: berlinWinter(2026, 1, 1) - 1 });
    expect(await range("2024")).toMatchObject({ startTime: berlinWinter(2024, 1, 1), endTime: berlinWinter(2025, 1, 1) - 1 });
  });

  it("makes the day clocks spring forward 23 hours long", async () => {
    const dstDay = await range("2026-03-29");
    expect(dstDay.startTime).toBe(berlinWinter(2026, 3, 29));
    expect(dstDay.endTime + 1 - dstDay.startTime).toBe(23 * HOUR);
  });

  it("reads explicit ranges and open-ended ones", async () => {
    expect(await range("from 2026-03-01 to 2026-03-10")).toMatchObject({
      startTime: berlinWinter(2026, 3, 1),
      endTime: berlinWinter(2026, 3, 11) - 1,
    });
    expect(await range("between March and May 2026")).toMatchObject({
      startTime: berlinWinter(2026, 3, 1),
      endTime: berlinSummer(2026, 6, 1) - 1,
    });
    expect(await range("since 2026-11-01")).toMatchObject({ startTime: berlinWinter(2026, 11, 1), endTime: TEST_NOW });
    expect(await range("14 March 2026")).toMatchObject({ startTime: berlinWinter(2026, 3, 14) });
  });

  it("reads weekdays as the most recent one", async () => {
    // 2026-12-02 is a Wednesday.
    expect(await range("monday")).toMatchObject({ startTime: berlinWinter(2026, 11, 30) });
    expect(await range("last wednesday")).toMatchObject({ startTime: berlinWinter(2026, 11, 25) });
    expect(await range("wednesday")).toMatchObject({ startTime: berlinWinter(2026, 12, 2) });
  });

  it("tells the view a rolling range ends now, and the model reads the range as before, without that", async () => {
    const rolling = await callTool(getTimeRangeMsTool, berlin, { timeExpression: "past 3 days" });
    const output = rolling.output as TimeRangeResult;
    expect(output.endsNow).toBe(true);
    expect(output.endTime).toBe(TEST_NOW);
    expect(JSON.parse(rolling.text)).toEqual({ startTime: output.startTime, endTime: TEST_NOW, description: output.description, timeZone: "Europe/Berlin" });
    expect(rolling.text).not.toContain("endsNow");
    const calendar = await callTool(getTimeRangeMsTool, berlin, { timeExpression: "last week" });
    expect(calendar.output).not.toHaveProperty("endsNow");
    expect(calendar.text).toBe(JSON.stringify(calendar.output, null, 2));
  });

  it("answers an unreadable expression with the forms it accepts", async () => {
    const result = await callTool(getTimeRangeMsTool, berlin, { timeExpression: "when the cows come home" });
    expect(result.status).toBe("error");
    expect(result.text).toContain('Could not understand the time expression "when the cows come home"');
    expect(result.text).toContain('"last week"');
    expect(result.text).toContain('"from 2026-03-01 to 2026-03-10"');
  });

  it("refuses impossible dates and backwards ranges", async () => {
    expect((await callTool(getTimeRangeMsTool, berlin, { timeExpression: "2026-02-30" })).text).toMatch(/not a date in the calendar/);
    expect((await callTool(getTimeRangeMsTool, berlin, { timeExpression: "from 2026-03-10 to 2026-03-01" })).text).toMatch(
      /ends before it starts/,
    );
  });

  it("names the field when the argument is missing or of the wrong type", async () => {
    const missing = await callTool(getTimeRangeMsTool, berlin, {});
    expect(missing.status).toBe("invalid-arguments");
    expect(missing.text).toContain("`timeExpression`");
    const wrongType = await callTool(getTimeRangeMsTool, berlin, '{"timeExpression": 5}');
    expect(wrongType.status).toBe("invalid-arguments");
  });
});

describe("getCurrentTime", () => {
  it("reports the time in the user's zone, or in the one asked for", async () => {
    const own = (await callTool(getCurrentTimeTool, berlin, {})).output as TimeInfo;
    expect(own).toMatchObject({ epochMs: TEST_NOW, localDateTime: "2026-12-02 10:00:00", utcOffset: "+01:00", weekday: "Wednesday" });
    const tokyo = (await callTool(getCurrentTimeTool, berlin, { timeZone: "asia/tokyo" })).output as TimeInfo;
    expect(tokyo).toMatchObject({ timeZone: "Asia/Tokyo", localDateTime: "2026-12-02 18:00:00", isoLocal: "2026-12-02T18:00:00+09:00" });
  });

  it("rejects an unknown time zone naming the field", async () => {
    const result = await callTool(getCurrentTimeTool, berlin, { timeZone: "Mars/Olympus" });
    expect(result.status).toBe("invalid-arguments");
    expect(result.text).toContain("`timeZone`");
    expect(result.text).toContain("IANA");
  });
});

describe("getTimeInfoByEpoch", () => {
  it("reads milliseconds and seconds", async () => {
    const ms = (await callTool(getTimeInfoByEpochTool, berlin, { epoch: Date.UTC(2026, 6, 1, 12) })).output as TimeInfo;
    expect(ms).toMatchObject({ localDateTime: "2026-07-01 14:00:00", utcOffset: "+02:00", readAsSeconds: false });
    const seconds = (await callTool(getTimeInfoByEpochTool, berlin, { epoch: Date.UTC(2026, 6, 1, 12) / 1000 })).output as TimeInfo;
    expect(seconds).toMatchObject({ epochMs: Date.UTC(2026, 6, 1, 12), readAsSeconds: true });
  });

  it("refuses non-numbers and dates out of range", async () => {
    expect((await callTool(getTimeInfoByEpochTool, berlin, { epoch: "yesterday" })).status).toBe("invalid-arguments");
    const huge = await callTool(getTimeInfoByEpochTool, berlin, { epoch: 1e20 });
    expect(huge.status).toBe("error");
    expect(huge.text).toMatch(/outside the range/);
  });
});

describe("convertTimeBetweenTimezones", () => {
  async function convert(time: string, fromTimeZone: string, toTimeZone: string): Promise<TimeConversion> {
    const result = await callTool(convertTimeBetweenTimezonesTool, berlin, { time, fromTimeZone, toTimeZone });
    expect(result.status).toBe("ok");
    return result.output as TimeConversion;
  }

  it("uses the offset in force on each side of the Berlin DST change of 2026-03-29", async () => {
    expect((await convert("2026-03-29 01:30", "Europe/Berlin", "UTC")).to.localDateTime).toBe("2026-03-29 00:30:00");
    expect((await convert("2026-03-29 03:30", "Europe/Berlin", "UTC")).to.localDateTime).toBe("2026-03-29 01:30:00");
  });

  it("says so when a wall time falls in the spring-forward gap", async () => {
    const gap = await convert("2026-03-29 02:30", "Europe/Berlin", "UTC");
    expect(gap.from.localDateTime).toBe("2026-03-29 03:30:00");
    expect(gap.to.localDateTime).toBe("2026-03-29 01:30:00");
    expect(gap.note).toMatch(/does not exist in Europe\/Berlin/);
  });

  it("takes the first of two instants in the fall-back overlap and says so", async () => {
    const overlap = await convert("2026-10-25 02:30", "Europe/Berlin", "UTC");
    expect(overlap.to.localDateTime).toBe("2026-10-25 00:30:00");
    expect(overlap.note).toMatch(/happens twice/);
    expect(overlap.note).toContain("UTC+01:00");
  });

  it("converts between two zones whose DST dates differ", async () => {
    // The US moved to summer time on 2026-03-08, Europe only on 2026-03-29: five hours apart, not six.
    const result = await convert("2026-03-15 12:00", "America/New_York", "Europe/Berlin");
    expect(result.to.localDateTime).toBe("2026-03-15 17:00:00");
    expect((await convert("2:30 pm", "Asia/Kolkata", "UTC")).to.localDateTime).toBe("2026-12-02 09:00:00");
    expect((await convert("2026-03-29T00:30:00Z", "UTC", "Europe/Berlin")).to.localDateTime).toBe("2026-03-29 01:30:00");
  });

  it("explains what it can read when the time is unreadable", async () => {
    const result = await callTool(convertTimeBetweenTimezonesTool, berlin, { time: "teatime", fromTimeZone: "UTC", toTimeZone: "UTC" });
    expect(result.status).toBe("error");
    expect(result.text).toMatch(/Could not read the time "teatime"/);
    const badZone = await callTool(convertTimeBetweenTimezonesTool, berlin, { time: "12:00", fromTimeZone: "UTC", toTimeZone: "Nowhere" });
    expect(badZone.status).toBe("invalid-arguments");
    expect(badZone.text).toContain("`toTimeZone`");
  });
});
