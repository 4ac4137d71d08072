/**
 * The time tools' banners: the summary of a result reads in the interface's locale (weekday,
 * date and time through Intl, in the zone the tool answered for), while the model reads the
 * tool's English; in English the summary is the tool's own words, as before. The real banner
 * component, given the real tools' outputs for a fixed instant.
 */
import { render } from "@testing-library/react";
import type { PomodoroOutput } from "../../tools/pomodoro/pomodoro";
import { convertTime } from "../../tools/time/convertTimeBetweenTimezones";
import { timeRangeFor } from "../../tools/time/getTimeRangeMs";
import { describeInstant } from "../../tools/time/timeInfo";
import { ToolCallBanner } from "./ToolCallBanner";

afterEach(() => window.localStorage.removeItem("language"));

/** Wednesday 2026-12-02 09:00 UTC. */
const NOW = Date.UTC(2026, 11, 2, 9, 0, 0);

function subjectOf(toolId: string, output: unknown): string | null | undefined {
  const { container } = render(
    <ToolCallBanner toolName={toolId} toolId={toolId} displayName={toolId} wording={{ pending: "p", running: "r", done: "Done" }} status="ok" args={{}} startedAt={0} durationMs={3} resultText="{}" output={output} onOpenNote={() => undefined} />,
  );
  const text = container.querySelector(".vault-copilot-tool-subject")?.textContent?.replace(/^· /, "");
  container.remove();
  return text;
}

const instant = describeInstant(NOW, "Asia/Tokyo");
const conversion = convertTime("2026-12-02 14:30", "Europe/Moscow", "Asia/Bangkok", NOW);
const lastWeek = timeRangeFor("last week", NOW, "Europe/Berlin");
const pastDays = timeRangeFor("past 3 days", NOW, "Europe/Berlin");

describe("the time tools' summaries", () => {
  it("in English, the tool's own words as before", () => {
    expect(subjectOf("getCurrentTime", instant)).toBe("Wednesday 2026-12-02 18:00:00 (Asia/Tokyo)");
    expect(subjectOf("getTimeInfoByEpoch", instant)).toBe("Wednesday 2026-12-02 18:00:00 (Asia/Tokyo)");
    expect(subjectOf("convertTimeBetweenTimezones", conversion)).toBe("2026-12-02 14:30:00 Europe/Moscow → 2026-12-02 18:30:00 Asia/Bangkok");
    expect(subjectOf("getTimeRangeMs", lastWeek)).toBe('"last week" in Europe/Berlin: from Monday 2026-11-23 00:00 to Sunday 2026-11-29 23:59');
  });

  it("in Japanese, Russian and German, the weekday and date through Intl in that locale, in the tool's zone", () => {
    window.localStorage.setItem("language", "ja");
    expect(subjectOf("getCurrentTime", instant)).toBe("2026年12月2日水曜日 18:00（Asia/Tokyo）");
    expect(subjectOf("convertTimeBetweenTimezones", conversion)).toBe("2026年12月2日水曜日 14:30（Europe/Moscow）→ 2026年12月2日水曜日 18:30（Asia/Bangkok）");
    expect(subjectOf("getTimeRangeMs", lastWeek)).toBe("2026/11/23(月) 0:00～2026/11/29(日) 23:59（Europe/Berlin）");

    window.localStorage.setItem("language", "ru");
    expect(subjectOf("getTimeInfoByEpoch", instant)).toBe("среда, 2 декабря 2026 г. в 18:00 (Asia/Tokyo)");
    // A rolling range ends now: Sunday 29 November, midnight in Berlin, until now.
    expect(subjectOf("getTimeRangeMs", pastDays)).toBe("с вс, 29 нояб. 2026 г., 00:00 до сейчас (Europe/Berlin)");

    window.localStorage.setItem("language", "de");
    expect(subjectOf("getCurrentTime", instant)).toBe("Mittwoch, 2. Dezember 2026 um 18:00 (Asia/Tokyo)");
    expect(subjectOf("getTimeRangeMs", lastWeek)).toContain("Mo., 23. Nov. 2026");
    expect(subjectOf("getTimeRangeMs", lastWeek)).toContain("So., 29. Nov. 2026");
  });
});

describe("the pomodoro's end in its banner", () => {
  /** A pomodoro running until 10:25 UTC on NOW's day, as the tool reports it from Tokyo. */
  const running: PomodoroOutput = {
    action: "start",
    status: { running: true, minutes: 25, startedAt: NOW, endsAt: NOW + 85 * 60_000, remainingMs: 85 * 60_000 },
    endTimeLocal: "2026-12-02 19:25:00",
    timeZone: "Asia/Tokyo",
  };
  /** The last one ended three days before NOW. */
  const finished: PomodoroOutput = {
    action: "status",
    status: { running: false, lastFinished: { minutes: 25, endedAt: NOW - 3 * 86_400_000 } },
    endTimeLocal: "2026-11-29 18:00:00",
    timeZone: "Asia/Tokyo",
  };

  it("in English, the tool's own wall time as before", () => {
    expect(subjectOf("pomodoro", running)).toBe("ends at 2026-12-02 19:25:00");
  });

  it("in Korean and German, the time of day through Intl in the tool's zone, with the date when it is not today", () => {
    jest.useFakeTimers({ now: NOW, doNotFake: ["queueMicrotask", "nextTick", "setImmediate", "setTimeout", "setInterval", "clearTimeout", "clearInterval"] });
    try {
      window.localStorage.setItem("language", "ko");
      // Korean's day period reads "오후" or "PM" by the ICU data at hand; the hour is Tokyo's either way.
      expect(subjectOf("pomodoro", running)).toMatch(/^(오후|PM) 7:25에 끝남$/);
      window.localStorage.setItem("language", "de");
      expect(subjectOf("pomodoro", running)).toBe("endet um 19:25");
      expect(subjectOf("pomodoro", finished)).toBe("endet um 29.11.2026, 18:00");
    } finally {
      jest.useRealTimers();
    }
  });
});
