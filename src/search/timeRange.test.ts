import { dailyNoteDayKey, dayKeyAt, timeRangeFilter } from "./timeRange";

describe("dailyNoteDayKey", () => {
  it.each([
    ["2026-03-14.md", 20260314],
    ["Journal/2026-03-14.md", 20260314],
    ["Daily 2026.03.14 Saturday.md", 20260314],
    ["2026_03_14.md", 20260314],
    ["20260314.md", 20260314],
    ["2024-02-29.md", 20240229],
  ])("reads the day of %s", (path, key) => {
    expect(dailyNoteDayKey(path)).toBe(key);
  });

  it.each(["Notes.md", "2026-13-01.md", "2025-02-29.md", "12026-03-14.md", "2026-03-140.md", "2026-03.md", "2026-03/14.md"])(
    "finds no day in %s",
    (path) => {
      expect(dailyNoteDayKey(path)).toBe(0);
    },
  );
});

describe("timeRangeFilter", () => {
  const range = { startTime: Date.parse("2026-03-14T00:00:00+01:00"), endTime: Date.parse("2026-03-14T23:59:59.999+01:00") };

  it("takes days in the range's time zone", () => {
    expect(dayKeyAt(range.startTime, "Europe/Berlin")).toBe(20260314);
    expect(dayKeyAt(range.startTime, "UTC")).toBe(20260313);
  });

  it("keeps notes modified in the range and daily notes for its days", () => {
    const inRange = timeRangeFilter(range, "Europe/Berlin");
    const document = (mtime: number, dayKey = 0) => ({ path: "x.md", size: 1, mtime, dayKey });
    expect(inRange(document(range.startTime + 1))).toBe(true);
    expect(inRange(document(range.endTime + 1))).toBe(false);
    expect(inRange(document(0, 20260314))).toBe(true);
    expect(inRange(document(0, 20260313))).toBe(false);
  });
});
