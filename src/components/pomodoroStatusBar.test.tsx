import type { Plugin as ObsidianPlugin } from "obsidian";
import { FakeScheduler } from "../../test/helpers/fakeScheduler";
import { App, Plugin } from "../../test/obsidian/obsidian";
import { PomodoroTimer } from "../tools/pomodoro/PomodoroTimer";
import { createPomodoroStatusBar } from "./pomodoroStatusBar";

class TestPlugin extends Plugin {}
const manifest = { id: "vault-copilot", name: "Vault Copilot", version: "0.1.0", minAppVersion: "1.11.4", description: "", author: "", authorUrl: "", isDesktopOnly: false };

/** The pomodoro in the Obsidian double's status bar, its time moved by hand. */
function pomodoro() {
  const plugin = new TestPlugin(new App(), manifest);
  const time = new FakeScheduler();
  const timer = new PomodoroTimer({ clock: { now: () => time.now(), timeZone: () => "Asia/Tokyo" }, display: createPomodoroStatusBar(plugin as unknown as ObsidianPlugin), timers: time });
  const item = plugin.registered.statusBarItems[0]!;
  const notices = () => [...document.body.querySelectorAll(".notice")].map((notice) => notice.textContent);
  return { time, timer, item, notices };
}

afterEach(() => {
  window.localStorage.removeItem("language");
  document.body.replaceChildren();
});

describe("the pomodoro in the status bar", () => {
  it("counts down with the user's label, and ends with a notice in English as the timer says it", () => {
    const { time, timer, item, notices } = pomodoro();
    timer.start(2, "Отчёт 📝");
    expect(item.textContent).toBe("🍅 02:00 Отчёт 📝");
    time.advance(120_000);
    expect(notices()).toEqual(["Pomodoro done: Отчёт 📝 (2 min). Time for a break."]);
  });

  it("ends with a notice in the interface's language, the label as the user wrote it", () => {
    window.localStorage.setItem("language", "ru");
    const { time, timer, notices } = pomodoro();
    timer.start(2, "Отчёт 📝");
    time.advance(120_000);
    timer.start(1);
    time.advance(60_000);
    expect(notices()).toEqual(["Помидор закончился: Отчёт 📝 (2 мин). Пора отдохнуть.", "Помидор закончился (1 мин). Пора отдохнуть."]);
  });
});
