import { z } from "zod";
import type { BuiltinToolEntry } from "../BuiltinToolEntry";
import type { SimpleTool } from "../SimpleTool";
import { describeInstant } from "../time/timeInfo";
import { formatRemaining, PomodoroTimer, type PomodoroStatus } from "./PomodoroTimer";

const schema = z.object({
  action: z.enum(["start", "status", "stop"]).describe('"start" a focus timer, report its "status", or "stop" it.'),
  minutes: z.number().int().min(1).max(240).optional().describe("Length of the focus session for start, in minutes (default 25)."),
  label: z.string().max(100).optional().describe('What the session is for, shown beside the timer, e.g. "Write report".'),
});

export interface PomodoroOutput {
  action: "start" | "status" | "stop";
  status: PomodoroStatus;
  /** For stop: whether a timer was running. */
  stopped?: boolean;
  /** When the running (or last) pomodoro ends or ended, in the user's time zone: "2026-12-02 10:25:00". */
  endTimeLocal?: string;
  /** That time zone (IANA), for a view that writes the end in its own locale. */
  timeZone?: string;
}

export const DEFAULT_POMODORO_MINUTES = 25;

export const pomodoroTool: BuiltinToolEntry = {
  metadata: {
    id: "pomodoro",
    displayName: "Pomodoro timer",
    description: "Lets the model start, check and stop a focus timer shown in the status bar.",
    category: "custom",
    enabledByDefault: true,
    customPromptInstructions:
      "Use pomodoro when the user wants to focus for a while or asks for a timer: start (25 minutes unless they say " +
      "otherwise, with a short label), status, or stop. A notice appears when the time is up.",
    wording: { pending: "Would like to use the pomodoro timer", running: "Setting the pomodoro timer", done: "Set the pomodoro timer" },
  },
  create: ({ clock, pomodoroTimer }): SimpleTool<z.infer<typeof schema>, PomodoroOutput> => {
    // Without a timer from the wiring (the CLI), one lives as long as this tool, shown nowhere.
    const timer = pomodoroTimer ?? new PomodoroTimer({ clock });
    return {
      name: "pomodoro",
      description: "Starts, reports or stops a pomodoro focus timer (default 25 minutes).",
      schema,
      func: ({ action, minutes, label }) => {
        let output: PomodoroOutput;
        if (action === "start") output = { action, status: timer.start(minutes ?? DEFAULT_POMODORO_MINUTES, label?.trim() || undefined) };
        else if (action === "stop") {
          const stopped = timer.stop();
          output = { action, status: stopped ?? timer.status(), stopped: stopped !== null };
        } else output = { action, status: timer.status() };
        const end = output.status.running ? output.status.endsAt : output.status.lastFinished?.endedAt;
        if (end !== undefined) {
          const timeZone = clock.timeZone();
          output.endTimeLocal = describeInstant(end, timeZone).localDateTime;
          output.timeZone = timeZone;
        }
        return Promise.resolve(output);
      },
      formatForModel: describePomodoro,
    };
  },
};

export function describePomodoro(output: PomodoroOutput): string {
  const { status } = output;
  const named = (label?: string) => (label ? ` "${label}"` : "");
  if (output.action === "stop") {
    return status.running && output.stopped ? `Stopped the pomodoro${named(status.label)} with ${formatRemaining(status.remainingMs)} left.` : "No pomodoro was running.";
  }
  if (status.running) {
    const verb = output.action === "start" ? "Started" : "Running:";
    return `${verb} a ${status.minutes}-minute pomodoro${named(status.label)}; ${formatRemaining(status.remainingMs)} left (ends at ${output.endTimeLocal ?? new Date(status.endsAt).toISOString()}).`;
  }
  const last = status.lastFinished;
  return last ? `No pomodoro is running. The last one${named(last.label)} (${last.minutes} min) ended at ${output.endTimeLocal ?? new Date(last.endedAt).toISOString()}.` : "No pomodoro is running.";
}
