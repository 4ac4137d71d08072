// Where the chat view's time goes, for the two figures of bench/chat that are about waiting:
// "Open chat" to the first frame, and keystroke to paint while an answer streams. Runs the same
// page as the benchmark (the demo over a scripted model server, headless Chromium) with the
// DevTools timeline and V8's sampling profiler on, and prints, per window, the time by trace event
// (Layout, Paint, GC, …), by script and by function (self and total), and the longest tasks.
//
//   npx esbuild bench/chat/profile.ts --bundle --platform=node --target=node20 \
//     --external:playwright-core --outfile=.bench-data/chat-profile.js
//   node .bench-data/chat-profile.js [startup] [typing] [frames]
//
// Build main.js first; for readable function names, without minifying:
//   node -e 'require("esbuild").build({...require("./esbuild.options.js").pluginBuildOptions(true), minify: false})'
// BENCH_CHAT_RUNS page loads for startup and streams for frames (default 3); BENCH_PROFILE_STYLE
// adds CSS to the page, to try a change of style without a build. Traces are kept in .bench-data/.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { runBench, startChatBench } from "./chatBench";
import { CHARACTERS_PER_TOKEN, longAnswer } from "./longAnswer";
import type { BenchModelServer } from "./modelServer";
import { demoStarted, difference, firstFrameWatcher, holdController, keepHistory, mainThreadTime, restoreHistory, sendAndWait, type BenchWindow } from "./pageProbes";
import { formatRows, longTasks, readTrace, taskTimeline, timeByEvent, timeByFunction, type MainThreadTrace, type TraceWindow } from "./traceSummary";

const RUNS = Number(process.env.BENCH_CHAT_RUNS ?? 3);
const CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing", "toplevel", "v8", "disabled-by-default-v8.cpu_profiler", "disabled-by-default-v8.gc"];
const folder = join(process.cwd(), ".bench-data");

function keepTrace(name: string, trace: Buffer): MainThreadTrace {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, name), trace);
  return readTrace(trace.toString("utf8"));
}

function report(title: string, trace: MainThreadTrace, windows: TraceWindow[], limit = 25): void {
  const wall = windows.reduce((sum, window) => sum + (window.end - window.start), 0) / 1000;
  const functions = timeByFunction(trace, windows);
  process.stdout.write(`\n=== ${title}: ${windows.length} window(s), ${wall.toFixed(1)} ms of wall time\n`);
  process.stdout.write(`${formatRows("by trace event", timeByEvent(trace, windows), limit)}\n`);
  process.stdout.write(`${formatRows("by script (samples)", functions.byScript, 10)}\n`);
  process.stdout.write(`${formatRows("by function, self", functions.self, limit)}\n`);
  process.stdout.write(`${formatRows("by function, total", functions.total, limit)}\n`);
}

async function profileStartup(browser: Browser, url: string): Promise<void> {
  // One load first, so the counted ones find the browser's caches as a second start would.
  for (let run = -1; run < RUNS; run++) {
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    await page.addInitScript(firstFrameWatcher);
    await page.addInitScript(() => void (window as unknown as BenchWindow).benchFirstFrame.then(() => performance.mark("bench:first-frame")));
    if (run >= 0) await browser.startTracing(page, { categories: CATEGORIES });
    await page.goto(url);
    await demoStarted(page);
    await page.evaluate(() => (window as unknown as BenchWindow).benchFirstFrame);
    // What follows the first frame (effects, the index starting) is in the trace too.
    await page.waitForTimeout(300);
    if (run >= 0) {
      const trace = keepTrace(`chat-profile-startup-${run}.json`, await browser.stopTracing());
      const open = trace.marks.get("demo:open-chat")?.[0];
      const frame = trace.marks.get("bench:first-frame")?.[0];
      if (open === undefined || frame === undefined) throw new Error("The trace has no demo:open-chat or bench:first-frame mark");
      const window = { start: open, end: frame };
      report(`startup ${run + 1}: "Open chat" to the first frame`, trace, [window]);
      process.stdout.write(`tasks of 0.5 ms or more, from "Open chat":\n${taskTimeline(trace, window, 0.5).join("\n")}\n`);
      report(`startup ${run + 1}: the 300 ms after the first frame`, trace, [{ start: frame, end: frame + 300_000 }], 12);
    }
    await page.close();
  }
}

/** Each key pressed while the answer streams leaves a measure "bench:key" from its event to just after the next frame. */
function watchKeysAsMeasures(page: Page): Promise<void> {
  return page.evaluate(() => {
    const bench = window as unknown as BenchWindow;
    const box = document.querySelector<HTMLTextAreaElement>('textarea[aria-label="Message"]');
    if (!box) throw new Error("No Message box");
    box.addEventListener(
      "keydown",
      (event) => {
        if (!bench.benchChat.getState().running) return;
        const start = event.timeStamp;
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => performance.measure("bench:key", { start, end: performance.now() });
          channel.port2.postMessage(null);
        });
      },
      { capture: true },
    );
  });
}

/** The demo page with the benchmark's 200 messages in its chat (kept for `restoreHistory`). */
async function openWithHistory(browser: Browser, url: string, server: BenchModelServer): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  await page.goto(url);
  await demoStarted(page);
  const style = process.env.BENCH_PROFILE_STYLE;
  if (style) await page.addStyleTag({ content: style });
  await holdController(page);
  server.setAnswer({ text: longAnswer(120, 3), chunkSize: CHARACTERS_PER_TOKEN });
  for (let index = 0; index < 100; index++) await sendAndWait(page, `Question ${index + 1}: tell me about my notes.`);
  await keepHistory(page);
  return page;
}

async function profileTyping(browser: Browser, url: string, server: BenchModelServer): Promise<void> {
  const page = await openWithHistory(browser, url, server);
  const box = page.locator('textarea[aria-label="Message"]');
  await watchKeysAsMeasures(page);
  server.setAnswer({ text: longAnswer(4_000, 5), chunkSize: CHARACTERS_PER_TOKEN, pace: { deltas: 16, intervalMs: 16 } });
  await browser.startTracing(page, { categories: CATEGORIES });
  await page.evaluate(() => {
    const bench = window as unknown as BenchWindow;
    performance.mark("bench:stream-start");
    bench.benchRun = bench.benchChat.send("Write a long answer while I type.").then(() => void performance.mark("bench:stream-end"));
  });
  await box.focus();
  const keys = "thequickbrownfoxjumpsoverthelazydog";
  for (let index = 0; await page.evaluate(() => (window as unknown as BenchWindow).benchChat.getState().running); index++) {
    await page.keyboard.press(keys[index % keys.length]!);
    await page.waitForTimeout(25);
  }
  await page.evaluate(() => (window as unknown as BenchWindow).benchRun);
  const trace = keepTrace("chat-profile-typing.json", await browser.stopTracing());
  await page.close();

  const keyWindows = trace.measures.filter((measure) => measure.name === "bench:key").map((measure) => ({ start: measure.start, end: measure.end, ms: (measure.end - measure.start) / 1000 }));
  const sorted = [...keyWindows].sort((a, b) => a.ms - b.ms);
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]?.ms ?? NaN;
  process.stdout.write(`\n${keyWindows.length} keys during the stream: p50 ${at(0.5).toFixed(1)} ms, p90 ${at(0.9).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms\n`);
  const start = trace.marks.get("bench:stream-start")?.[0];
  const end = trace.marks.get("bench:stream-end")?.[0];
  if (start !== undefined && end !== undefined) {
    const stream = { start, end };
    report("the whole stream", trace, [stream]);
    const tasks = longTasks(trace, stream);
    process.stdout.write(`tasks: ${tasks.length}, over 8 ms: ${tasks.filter((task) => task.ms > 8).length}, longest: ${tasks.slice(0, 10).map((task) => task.ms.toFixed(1)).join(", ")} ms\n`);
  }
  report("every key's wait", trace, keyWindows);
  const slowest = sorted.slice(Math.floor(sorted.length * 0.9));
  report("the slowest tenth of keys' waits", trace, slowest);
  for (const key of [...slowest.slice(-3), sorted[Math.floor(sorted.length / 2)]!]) {
    process.stdout.write(`\nkey of ${key.ms.toFixed(1)} ms, its tasks:\n${taskTimeline(trace, key, 0.3).join("\n")}\n`);
  }
}

/**
 * The main thread's CPU time while an answer streams into the 200-message chat, nobody typing
 * (CDP Performance metrics in thread time, which the machine's load moves far less than
 * latencies): per stream and per frame drawn, with layout and style apart. Then one stream traced,
 * for the time per frame by trace event (Layout, Paint, Commit, …).
 */
async function profileFrames(browser: Browser, url: string, server: BenchModelServer): Promise<void> {
  const page = await openWithHistory(browser, url, server);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable", { timeDomain: "threadTicks" });
  server.setAnswer({ text: longAnswer(4_000, 5), chunkSize: CHARACTERS_PER_TOKEN, pace: { deltas: 16, intervalMs: 16 } });
  const perFrame: number[] = [];
  const stream = () =>
    page.evaluate(async () => {
      const bench = window as unknown as BenchWindow;
      let frames = 0;
      let counting = true;
      const count = () => {
        frames++;
        if (counting) requestAnimationFrame(count);
      };
      requestAnimationFrame(count);
      performance.mark("bench:stream-start");
      await bench.benchChat.send("Write a long answer.");
      performance.mark("bench:stream-end");
      counting = false;
      return frames;
    });
  for (let run = 0; run < RUNS; run++) {
    await cdp.send("HeapProfiler.collectGarbage");
    const before = await mainThreadTime(cdp);
    const frames = await stream();
    const used = difference(await mainThreadTime(cdp), before);
    await restoreHistory(page);
    perFrame.push(used.task / frames);
    process.stdout.write(`stream ${run + 1}: ${frames} frames, CPU ${used.task.toFixed(0)} ms (script ${used.script.toFixed(0)}, layout ${used.layout.toFixed(0)}, style ${used.style.toFixed(0)}), ${(used.task / frames).toFixed(2)} ms a frame\n`);
  }
  process.stdout.write(`median CPU a frame: ${[...perFrame].sort((a, b) => a - b)[Math.floor(perFrame.length / 2)]!.toFixed(2)} ms\n`);

  await browser.startTracing(page, { categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing", "toplevel"] });
  await stream();
  const trace = keepTrace("chat-profile-frames.json", await browser.stopTracing());
  await page.close();
  const start = trace.marks.get("bench:stream-start")?.[0];
  const end = trace.marks.get("bench:stream-end")?.[0];
  if (start === undefined || end === undefined) throw new Error("The trace has no bench:stream-start or bench:stream-end mark");
  const count = (name: string) => trace.events.filter((event) => event.ts >= start && event.ts <= end && event.name === name).length;
  const animationFrames = Math.max(1, count("FireAnimationFrame"));
  process.stdout.write(`traced stream: ${((end - start) / 1000).toFixed(0)} ms, ${animationFrames} animation frames, ${count("Paint")} paints; wall ms per animation frame:\n`);
  process.stdout.write(`${timeByEvent(trace, [{ start, end }]).slice(0, 18).map(([name, ms]) => `  ${(ms / animationFrames).toFixed(2).padStart(7)}  ${name}`).join("\n")}\n`);
}

async function main(): Promise<void> {
  const wanted = new Set(process.argv.slice(2));
  const phase = (name: string) => wanted.size === 0 || wanted.has(name);
  const { server, demo, browser, close } = await startChatBench();
  try {
    if (phase("startup")) await profileStartup(browser, demo.url);
    if (phase("typing")) await profileTyping(browser, demo.url, server);
    if (phase("frames")) await profileFrames(browser, demo.url, server);
  } finally {
    await close();
  }
}

runBench("bench/chat/profile", main);
