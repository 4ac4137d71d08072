import { Notice, type Plugin } from "obsidian";
import type { Clock } from "../ports/Clock";
import { ENGLISH } from "../i18n/languages";
import { currentLanguage, t } from "../i18n/t";
import type { FinishedPomodoro, PomodoroDisplay } from "../tools/pomodoro/PomodoroDisplay";
import { PomodoroTimer } from "../tools/pomodoro/PomodoroTimer";

/** The pomodoro in Obsidian's status bar, hidden while none runs; the end comes as a notice that stays until clicked. */
export function createPomodoroStatusBar(plugin: Plugin): PomodoroDisplay {
  const item = plugin.addStatusBarItem();
  item.addClass("vault-copilot-pomodoro");
  item.hide();
  return {
    show: (text) => {
      item.setText(text);
      item.show();
    },
    clear: () => {
      item.setText("");
      item.hide();
    },
    notify: (text, finished) => {
      new Notice(pomodoroDoneText(text, finished), 0);
    },
  };
}

/** The plugin's pomodoro timer, shown in the status bar and stopped when the plugin unloads. */
export function registerPomodoro(plugin: Plugin, clock: Clock): PomodoroTimer {
  const timer = new PomodoroTimer({ clock, display: createPomodoroStatusBar(plugin) });
  plugin.register(() => timer.dispose());
  return timer;
}

/** The end of a pomodoro in the interface's language (English: the timer's own sentence). */
export function pomodoroDoneText(text: string, finished: FinishedPomodoro): string {
  if (currentLanguage() === ENGLISH) return text;
  return finished.label ? t("pomodoro.doneLabelled", { label: finished.label, count: finished.minutes }) : t("pomodoro.done", { count: finished.minutes });
}
