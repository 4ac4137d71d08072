/**
 * Reads a Chromium trace (the DevTools timeline with V8's sampling profiler, as
 * `browser.startTracing` writes it) for bench/chat/profile.ts: the page's main thread, its user
 * timing entries, and where its time went inside a window — by trace event (Layout, Paint, GC, …)
 * and by JavaScript function (self and total time, from the profiler's samples).
 */

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  id?: string;
  args?: { name?: string; data?: ProfileData & { startTime?: number } };
}

/** A frame as the trace gives it: native and V8-internal frames come without a url or line. */
interface CallFrame {
  functionName: string;
  url?: string;
  lineNumber?: number;
  columnNumber?: number;
}

interface ProfileNode {
  id: number;
  parent?: number;
  callFrame: CallFrame;
}

interface ProfileData {
  cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] };
  timeDeltas?: number[];
}

/** One window of the main thread, in trace microseconds. */
export interface TraceWindow {
  start: number;
  end: number;
}

export interface MainThreadTrace {
  /** User timing marks and measures (name → start times in µs, measures with their end). */
  marks: Map<string, number[]>;
  measures: Array<{ name: string; start: number; end: number }>;
  /** The main thread's complete events. */
  events: TraceEvent[];
  /** Profiler samples: time (µs) and the stack, innermost frame first. */
  samples: Array<{ time: number; stack: CallFrame[] }>;
}

export function readTrace(json: string): MainThreadTrace {
  const all = (JSON.parse(json) as { traceEvents: TraceEvent[] }).traceEvents;
  // The page's renderer: the CrRendererMain thread whose process carries the demo's marks.
  const mains = all.filter((event) => event.ph === "M" && event.name === "thread_name" && event.args?.name === "CrRendererMain");
  const markEvent = all.find((event) => event.cat.includes("blink.user_timing") && event.name.startsWith("demo:"));
  const main = mains.find((event) => event.pid === markEvent?.pid) ?? mains[0];
  if (!main) throw new Error("The trace has no renderer main thread");
  const onMain = (event: TraceEvent) => event.pid === main.pid && event.tid === main.tid;

  const marks = new Map<string, number[]>();
  const measures: MainThreadTrace["measures"] = [];
  const open = new Map<string, number>();
  for (const event of all) {
    if (event.pid !== main.pid || !event.cat.includes("blink.user_timing")) continue;
    if (event.ph === "R" || event.ph === "I" || event.ph === "i" || event.ph === "n") marks.set(event.name, [...(marks.get(event.name) ?? []), event.ts]);
    else if (event.ph === "b") open.set(`${event.name}:${event.id}`, event.ts);
    else if (event.ph === "e") {
      const start = open.get(`${event.name}:${event.id}`);
      if (start !== undefined) measures.push({ name: event.name, start, end: event.ts });
    }
  }

  // Samples: a Profile event gives the start time; its chunks carry nodes, samples and time deltas.
  const nodes = new Map<number, ProfileNode>();
  const samples: MainThreadTrace["samples"] = [];
  const profiles = all.filter((event) => event.name === "Profile" && event.pid === main.pid);
  for (const profile of profiles) {
    let time = profile.args?.data?.startTime ?? profile.ts;
    const chunks = all.filter((event) => event.name === "ProfileChunk" && event.pid === main.pid && event.id === profile.id);
    for (const chunk of chunks) {
      const data = chunk.args?.data ?? {};
      for (const node of data.cpuProfile?.nodes ?? []) nodes.set(node.id, node);
      const ids = data.cpuProfile?.samples ?? [];
      const deltas = data.timeDeltas ?? [];
      ids.forEach((id, index) => {
        time += deltas[index] ?? 0;
        const stack: CallFrame[] = [];
        for (let node = nodes.get(id); node; node = node.parent === undefined ? undefined : nodes.get(node.parent)) stack.push(node.callFrame);
        samples.push({ time, stack });
      });
    }
  }
  return { marks, measures, events: all.filter((event) => onMain(event) && event.ph === "X"), samples };
}

const shortUrl = (url: string | undefined) => (url ?? "").replace(/^.*\//, "").replace(/\?.*$/, "") || "(native)";
const frameName = (frame: CallFrame) => `${frame.functionName || "(anonymous)"} ${shortUrl(frame.url)}:${(frame.lineNumber ?? -1) + 1}`;

function overlap(event: TraceEvent, window: TraceWindow): number {
  const start = Math.max(event.ts, window.start);
  const end = Math.min(event.ts + (event.dur ?? 0), window.end);
  return Math.max(0, end - start);
}

/** Milliseconds per trace event name inside the windows (nested events are counted under each name). */
export function timeByEvent(trace: MainThreadTrace, windows: TraceWindow[]): Array<[string, number]> {
  const totals = new Map<string, number>();
  for (const event of trace.events) {
    let sum = 0;
    for (const window of windows) sum += overlap(event, window);
    if (sum > 0) totals.set(event.name, (totals.get(event.name) ?? 0) + sum / 1000);
  }
  return [...totals].sort((a, b) => b[1] - a[1]);
}

/** The main thread's top-level tasks inside a window, longest first. */
export function longTasks(trace: MainThreadTrace, window: TraceWindow): Array<{ start: number; ms: number }> {
  return trace.events
    .filter((event) => event.name === "RunTask" && overlap(event, window) > 0)
    .map((event) => ({ start: (event.ts - window.start) / 1000, ms: (event.dur ?? 0) / 1000 }))
    .sort((a, b) => b.ms - a.ms);
}

/**
 * Milliseconds per function inside the windows: self (the sample's innermost frame) and total
 * (every frame on the sample's stack, once). Each sample stands for the time to the next one.
 */
export function timeByFunction(trace: MainThreadTrace, windows: TraceWindow[]): { self: Array<[string, number]>; total: Array<[string, number]>; byScript: Array<[string, number]> } {
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const byScript = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms);
  trace.samples.forEach((sample, index) => {
    const next = trace.samples[index + 1];
    if (!next || !windows.some((window) => sample.time >= window.start && sample.time < window.end)) return;
    const ms = Math.min(next.time - sample.time, 2000) / 1000;
    const inner = sample.stack[0];
    if (!inner || inner.functionName === "(idle)") return;
    add(self, frameName(inner), ms);
    const script = sample.stack.find((frame) => frame.url)?.url;
    add(byScript, script ? shortUrl(script) : inner.functionName, ms);
    for (const name of new Set(sample.stack.map(frameName))) add(total, name, ms);
  });
  const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);
  return { self: sorted(self), total: sorted(total), byScript: sorted(byScript) };
}

export function formatRows(title: string, rows: Array<[string, number]>, limit: number): string {
  return [`${title}`, ...rows.slice(0, limit).map(([name, ms]) => `  ${ms.toFixed(1).padStart(8)} ms  ${name}`)].join("\n");
}

/**
 * The window's tasks in order, each with its time and what ran most in it: the functions with the
 * most self time and the trace events (Layout, Paint, …) it held.
 */
export function taskTimeline(trace: MainThreadTrace, window: TraceWindow, minimumMs: number): string[] {
  const tasks = trace.events.filter((event) => event.name === "RunTask" && overlap(event, window) > 0 && (event.dur ?? 0) / 1000 >= minimumMs).sort((a, b) => a.ts - b.ts);
  return tasks.map((task) => {
    const span = { start: task.ts, end: task.ts + (task.dur ?? 0) };
    const functions = timeByFunction(trace, [span]).self.filter(([name]) => !name.startsWith("(program)")).slice(0, 5);
    const events = timeByEvent(trace, [span]).filter(([name]) => !/RunTask|ThreadController|v8\.callFunction|FunctionCall|SimpleWatcher|Receive mojo/.test(name)).slice(0, 4);
    const list = (rows: Array<[string, number]>) => rows.map(([name, ms]) => `${name} ${ms.toFixed(1)}`).join("; ");
    return `  +${((task.ts - window.start) / 1000).toFixed(1).padStart(6)} ms  ${((task.dur ?? 0) / 1000).toFixed(1).padStart(5)} ms  [${list(events)}]  ${list(functions)}`;
  });
}
