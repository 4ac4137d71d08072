// The chat view benchmark (`npm run bench -- chat`), measured in headless Chromium through the
// real view on the browser demo (scripts/demo.mjs: the built main.js on the Obsidian double):
// 1. main-thread time to stream answers of 1k, 10k and 50k tokens, against the same text arriving
//    as one chunk (the finished answer rendered once);
// 2. keystroke-to-paint in the Message box while a fast stream runs, 200 messages above it,
//    against the same chat with no stream (each run types for the length of one stream both ways);
// 3. the plugin's onload and the chat view's first frame, over fresh page loads.
// Medians over BENCH_CHAT_RUNS runs (default 5). BENCH_CHAT_PARTS picks parts (stream, typing,
// startup; comma-separated, default all), so a before-and-after of one figure fits in a minute or
// two. Prints one table, writes .bench-data/chat-results.json. Bundled and run by bench/run.mjs;
// bench/chat/profile.ts shows where the time of the typing and startup figures goes.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, CDPSession, Page } from "playwright-core";
import { runBench, startChatBench } from "./chatBench";
import { CHARACTERS_PER_TOKEN, longAnswer } from "./longAnswer";
import type { BenchModelServer } from "./modelServer";
import {
  allowLongAnswers,
  demoStarted,
  difference,
  firstFrameWatcher,
  holdController,
  keyLatencies,
  mainThreadTime,
  keepHistory,
  newChat,
  restoreHistory,
  sendAndWait,
  settle,
  startupTimes,
  watchKeys,
  type MainThreadTime,
} from "./pageProbes";

const RUNS = Number(process.env.BENCH_CHAT_RUNS ?? 5);
const ANSWER_TOKENS = [1_000, 10_000, 50_000];
/** Characters per streamed delta: one token, as chat-completions servers send them. */
const STREAM_CHUNK = CHARACTERS_PER_TOKEN;
const HISTORY_MESSAGES = 200;
/** The longest-answer setting for the benchmark: room for the 50k-token answer, with the setting's slack. */
const LONGEST_ANSWER_TOKENS = 100_000;
/** The stream typed over: 4,000 tokens at 1,000 tokens a second (16 deltas every 16 ms). */
const TYPING_STREAM = { tokens: 4_000, pace: { deltas: 16, intervalMs: 16 } };
/** Typing with no stream lasts as long as a typing stream, so both p95s stand on as many keys. */
const IDLE_TYPING_MS = (TYPING_STREAM.tokens / TYPING_STREAM.pace.deltas) * TYPING_STREAM.pace.intervalMs;
const PARTS = new Set((process.env.BENCH_CHAT_PARTS ?? "stream,typing,startup").split(",").map((part) => part.trim()));
const KEYS = "thequickbrownfoxjumpsoverthelazydog";

const median = (values: number[]) => percentile(values, 0.5);
function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))]!;
}
const ms = (value: number) => (value >= 100 ? `${value.toFixed(0)} ms` : `${value.toFixed(1)} ms`);

interface StreamFigures {
  tokens: number;
  streamed: MainThreadTime;
  once: MainThreadTime;
  ratio: number;
}

/** A fresh page of the demo, started; the first frame with the Message box is timed from its load. */
async function loadPage(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  await page.addInitScript(firstFrameWatcher);
  page.on("pageerror", (error) => process.stderr.write(`bench/chat: page error: ${error.message}\n`));
  await page.goto(url);
  await demoStarted(page);
  return page;
}

async function openPage(browser: Browser, url: string): Promise<{ page: Page; cdp: CDPSession }> {
  const page = await loadPage(browser, url);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable", { timeDomain: "threadTicks" });
  await holdController(page);
  await allowLongAnswers(page, LONGEST_ANSWER_TOKENS);
  return { page, cdp };
}

/** Main-thread time of one answer, from sending the question until it is drawn. */
async function measureAnswer(page: Page, cdp: CDPSession, server: BenchModelServer, text: string, chunkSize: number): Promise<MainThreadTime> {
  server.setAnswer({ text, chunkSize });
  await newChat(page);
  await cdp.send("HeapProfiler.collectGarbage");
  await settle(page);
  const before = await mainThreadTime(cdp);
  const received = await sendAndWait(page, "Write the long answer.");
  const after = await mainThreadTime(cdp);
  if (received !== text.length) throw new Error(`The answer arrived with ${received} of ${text.length} characters`);
  return difference(after, before);
}

async function measureStreaming(page: Page, cdp: CDPSession, server: BenchModelServer): Promise<StreamFigures[]> {
  const figures: StreamFigures[] = [];
  // One of each first: the page's code is compiled and warm before anything is counted.
  await measureAnswer(page, cdp, server, longAnswer(1_000), STREAM_CHUNK);
  for (const tokens of ANSWER_TOKENS) {
    const text = longAnswer(tokens);
    const streamed: MainThreadTime[] = [];
    const once: MainThreadTime[] = [];
    for (let run = 0; run < RUNS; run++) {
      streamed.push(await measureAnswer(page, cdp, server, text, STREAM_CHUNK));
      once.push(await measureAnswer(page, cdp, server, text, text.length));
    }
    const middle = (list: MainThreadTime[]): MainThreadTime => ({
      task: median(list.map((entry) => entry.task)),
      script: median(list.map((entry) => entry.script)),
      layout: median(list.map((entry) => entry.layout)),
      style: median(list.map((entry) => entry.style)),
    });
    const entry = { tokens, streamed: middle(streamed), once: middle(once), ratio: median(streamed.map((value, index) => value.task / once[index]!.task)) };
    figures.push(entry);
    process.stdout.write(`  ${tokens} tokens: streamed ${ms(entry.streamed.task)}, once ${ms(entry.once.task)}\n`);
  }
  await newChat(page);
  return figures;
}

async function typeKeys(page: Page, count: number): Promise<void> {
  for (let index = 0; index < count; index++) {
    await page.keyboard.press(KEYS[index % KEYS.length]!);
    await page.waitForTimeout(25);
  }
}

/** Keystroke-to-paint of each run: p95 while a stream arrives, and p95 in the same chat without one. */
interface TypingRun {
  idle: number[];
  streaming: number[];
}

async function measureTyping(page: Page, server: BenchModelServer): Promise<TypingRun[]> {
  // The history: short answers with a list and some code, sent one after the other.
  server.setAnswer({ text: longAnswer(120, 3), chunkSize: STREAM_CHUNK });
  for (let index = 0; index < HISTORY_MESSAGES / 2; index++) await sendAndWait(page, `Question ${index + 1}: tell me about my notes.`);
  await keepHistory(page);
  const box = page.locator('textarea[aria-label="Message"]');
  const text = longAnswer(TYPING_STREAM.tokens, 5);
  const runs: TypingRun[] = [];
  // One of each first, not counted: the typing paths are compiled and warm.
  for (let run = -1; run < RUNS; run++) {
    await box.focus();
    await watchKeys(page, true);
    const began = Date.now();
    while (Date.now() - began < IDLE_TYPING_MS) await typeKeys(page, 10);
    const idle = await keyLatencies(page);
    await box.fill("");

    await watchKeys(page, false);
    server.setAnswer({ text, chunkSize: STREAM_CHUNK, pace: TYPING_STREAM.pace });
    await page.evaluate(() => {
      const bench = window as unknown as { benchChat: { send(text: string): Promise<void> }; benchRun?: Promise<void> };
      bench.benchRun = bench.benchChat.send("Write a long answer while I type.");
    });
    await box.focus();
    while (await page.evaluate(() => (window as unknown as { benchChat: { getState(): { running: boolean } } }).benchChat.getState().running)) await typeKeys(page, 10);
    await page.evaluate(() => (window as unknown as { benchRun?: Promise<void> }).benchRun);
    await box.fill("");
    const streaming = await keyLatencies(page);
    if (run >= 0) runs.push({ idle, streaming });
    // The chat goes back to its 200 messages, so every run types over the same conversation.
    await restoreHistory(page);
  }
  return runs;
}

async function measureStartup(browser: Browser, url: string): Promise<{ onload: number[]; firstFrame: number[] }> {
  const onload: number[] = [];
  const firstFrame: number[] = [];
  // One load first, so that every counted load finds the browser's caches as a second start would.
  for (let run = -1; run < RUNS; run++) {
    // Nothing else is asked of the page until its first frame is timed.
    const page = await loadPage(browser, url);
    const times = await startupTimes(page);
    await page.close();
    if (run < 0) continue;
    onload.push(times.onloadMs);
    firstFrame.push(times.firstFrameMs);
  }
  return { onload, firstFrame };
}

function table(streams: StreamFigures[], typing: TypingRun[], startup: { onload: number[]; firstFrame: number[] } | null): string {
  const rows: string[][] = [["", "figure", "goal"]];
  for (const entry of streams) {
    rows.push([
      `stream ${entry.tokens / 1000}k tokens: main-thread time streamed / sent as one chunk`,
      `${ms(entry.streamed.task)} / ${ms(entry.once.task)} (${entry.ratio.toFixed(2)}×)`,
      entry.tokens === 50_000 ? `≤ 2× ${entry.ratio <= 2 ? "(met)" : `(missed by ${(entry.ratio - 2).toFixed(2)}×)`}` : "",
    ]);
  }
  if (typing.length > 0) {
    const keys = (list: number[][]) => list.reduce((sum, run) => sum + run.length, 0);
    const streaming = typing.map((run) => run.streaming);
    const idle = typing.map((run) => run.idle);
    const middle = (list: number[][], share: number) => median(list.map((run) => percentile(run, share)));
    const extra = median(typing.map((run) => percentile(run.streaming, 0.95) - percentile(run.idle, 0.95)));
    rows.push([
      `keystroke to paint during a 1,000 tokens/s stream, ${HISTORY_MESSAGES} messages above (${keys(streaming)} keys in ${typing.length} runs)`,
      `p50 ${ms(middle(streaming, 0.5))}, p95 ${ms(middle(streaming, 0.95))}`,
      "",
    ]);
    rows.push([`keystroke to paint, same chat, no stream (${keys(idle)} keys in ${typing.length} runs)`, `p50 ${ms(middle(idle, 0.5))}, p95 ${ms(middle(idle, 0.95))}`, ""]);
    rows.push(["keystroke p95 during the stream less p95 without, per run", `${extra >= 0 ? "+" : ""}${ms(extra)}`, `≤ +2 ms ${extra <= 2 ? "(met)" : `(missed by ${ms(extra - 2)})`}`]);
  }
  if (startup) {
    const frame = median(startup.firstFrame);
    const onload = median(startup.onload);
    rows.push([`chat view: "Open chat" to first frame with the Message box (${startup.firstFrame.length} page loads)`, `median ${ms(frame)} (${ms(Math.min(...startup.firstFrame))}–${ms(Math.max(...startup.firstFrame))})`, `≤ 100 ms ${frame <= 100 ? "(met)" : `(missed by ${ms(frame - 100)})`}`]);
    rows.push([`plugin onload (${startup.onload.length} page loads)`, `median ${ms(onload)} (${ms(Math.min(...startup.onload))}–${ms(Math.max(...startup.onload))})`, `≤ 20 ms ${onload <= 20 ? "(met)" : `(missed by ${ms(onload - 20)})`}`]);
  }
  const lines = rows.map((row) => `| ${row.join(" | ")} |`);
  lines.splice(1, 0, "|---|---|---|");
  return lines.join("\n");
}

async function main(): Promise<void> {
  const { server, demo, browser, close } = await startChatBench();
  try {
    process.stdout.write(`chat view in headless Chromium (main-thread time: CDP Performance.getMetrics TaskDuration; medians of ${RUNS} runs; ${[...PARTS].join(", ")})\n`);
    const began = Date.now();
    const phase = (name: string) => process.stdout.write(`  ${name} done after ${((Date.now() - began) / 1000).toFixed(0)} s\n`);
    const startup = PARTS.has("startup") ? await measureStartup(browser, demo.url) : null;
    if (startup) phase("startup");
    let streams: StreamFigures[] = [];
    let typing: TypingRun[] = [];
    if (PARTS.has("stream") || PARTS.has("typing")) {
      const { page, cdp } = await openPage(browser, demo.url);
      if (PARTS.has("stream")) {
        streams = await measureStreaming(page, cdp, server);
        phase("streaming");
      }
      if (PARTS.has("typing")) {
        typing = await measureTyping(page, server);
        phase("typing");
      }
      await page.close();
    }
    process.stdout.write(`${table(streams, typing, startup)}\n`);
    const folder = join(process.cwd(), ".bench-data");
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "chat-results.json"), `${JSON.stringify({ runs: RUNS, parts: [...PARTS], streams, typing, startup }, null, 2)}\n`);
  } finally {
    await close();
  }
}

runBench("bench/chat", main);
