import { Notice, type Plugin } from "obsidian";
import type { Clock } from "../ports/Clock";
import type { PomodoroDisplay } from "../tools/pomodoro/PomodoroDisplay";
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
    notify: (text) => {
      new Notice(text, 0);
    },
  };
}

/** The plugin's pomodoro timer, shown in the status bar and stopped when the plugin unloads. */
export function registerPomodoro(plugin: Plugin, clock: Clock): PomodoroTimer {
  const timer = new PomodoroTimer({ clock, display: createPomodoroStatusBar(plugin) });
  plugin.register(() => timer.dispose());
  return timer;
}
