/**
 * What the chat benchmark runs inside the demo page (each function is sent to the page whole, so
 * it uses nothing from outside itself) and reads through the Chrome DevTools Protocol.
 */
import type { CDPSession, Page } from "playwright-core";

/** The chat controller as far as the benchmark drives it. */
interface BenchController {
  send(text: string): Promise<void>;
  newChat(): Promise<void>;
  restore(chat: BenchChat): Promise<void>;
  getState(): BenchChat & { running: boolean };
}

/** A chat as the controller shows it and restores it. */
interface BenchChat {
  chatId: string;
  mode: string;
  model: string;
  messages: Array<{ role: string; parts?: Array<{ type: string; text?: string }> }>;
}

/** What the benchmark keeps on the page's window. */
export interface BenchWindow {
  app: {
    workspace: { getLeavesOfType(type: string): Array<{ view: { getController(): BenchController | null } }> };
    vault: { adapter: { read(path: string): Promise<string>; write(path: string, data: string): Promise<void> } };
  };
  demo: { plugin: { manifest: { dir: string }; onExternalSettingsChange(): Promise<void> } };
  benchChat: BenchController;
  benchRun?: Promise<void>;
  benchKeys: number[];
  benchKeyWatch?: AbortController;
  benchFirstFrame: Promise<number>;
  benchHistory?: BenchChat;
}

const CHAT_VIEW_TYPE = "vault-copilot-chat-view";

/**
 * Waits until the demo page has started (its `demo.ready`), by awaiting that promise in the page:
 * a selector wait would poll the page every frame while it starts, and its visibility checks
 * would run inside the very frames the startup figures time.
 */
export async function demoStarted(page: Page): Promise<void> {
  const state = await page.evaluate(async () => {
    const page = window as unknown as { demo: { ready: Promise<void> } };
    await page.demo.ready;
    return document.body.dataset.demo;
  });
  if (state !== "ready") throw new Error("The demo page failed to start");
}

/** Keeps the chat view's controller at `window.benchChat`. */
export async function holdController(page: Page): Promise<void> {
  await page.evaluate((viewType) => {
    const bench = window as unknown as BenchWindow;
    const controller = bench.app.workspace.getLeavesOfType(viewType)[0]?.view.getController();
    if (!controller) throw new Error("The chat view has no controller");
    bench.benchChat = controller;
  }, CHAT_VIEW_TYPE);
}

/**
 * Sets the longest-answer setting (the provider's maxTokens) as sync would: data.json rewritten,
 * then the plugin told it changed. The default (4,096 tokens) stops the 10k and 50k answers.
 */
export async function allowLongAnswers(page: Page, maxTokens: number): Promise<void> {
  await page.evaluate(async (tokens) => {
    const demo = (window as unknown as BenchWindow).demo;
    const adapter = (window as unknown as BenchWindow).app.vault.adapter;
    const file = `${demo.plugin.manifest.dir}/data.json`;
    const settings = JSON.parse(await adapter.read(file)) as { provider: { maxTokens: number } };
    settings.provider.maxTokens = tokens;
    await adapter.write(file, JSON.stringify(settings, null, 2));
    await demo.plugin.onExternalSettingsChange();
  }, maxTokens);
}

/** Two frames and a pause: whatever a change set going (React commits, Markdown renders) has run. */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 50)))));
}

/** Sends a message and waits until its answer is complete and drawn; returns the answer's text length. */
export async function sendAndWait(page: Page, text: string): Promise<number> {
  return page.evaluate(async (message) => {
    const chat = (window as unknown as BenchWindow).benchChat;
    await chat.send(message);
    await new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 50))));
    const last = chat.getState().messages.at(-1);
    return (last?.parts ?? []).reduce((sum, part) => sum + (part.type === "text" ? (part.text?.length ?? 0) : 0), 0);
  }, text);
}

/** Keeps the chat as it is now, for `restoreHistory` to show it again. */
export async function keepHistory(page: Page): Promise<void> {
  await page.evaluate(() => {
    const bench = window as unknown as BenchWindow;
    const { chatId, mode, model, messages } = bench.benchChat.getState();
    bench.benchHistory = { chatId, mode, model, messages };
  });
}

/** Shows the chat kept by `keepHistory` again (the same chat, its later messages gone). */
export async function restoreHistory(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const bench = window as unknown as BenchWindow;
    if (!bench.benchHistory) throw new Error("No chat kept to restore");
    await bench.benchChat.restore(bench.benchHistory);
  });
  await settle(page);
}

export async function newChat(page: Page): Promise<void> {
  await page.evaluate(() => (window as unknown as BenchWindow).benchChat.newChat());
}

/**
 * The renderer's main-thread time so far, in ms (CDP `Performance.getMetrics`). TaskDuration is
 * the figure: ScriptDuration leaves out microtasks, where a stream's promise chain runs.
 */
export interface MainThreadTime {
  task: number;
  script: number;
  layout: number;
  style: number;
}

export async function mainThreadTime(cdp: CDPSession): Promise<MainThreadTime> {
  const { metrics } = await cdp.send("Performance.getMetrics");
  const value = (name: string) => (metrics.find((metric) => metric.name === name)?.value ?? 0) * 1000;
  return { task: value("TaskDuration"), script: value("ScriptDuration"), layout: value("LayoutDuration"), style: value("RecalcStyleDuration") };
}

export function difference(after: MainThreadTime, before: MainThreadTime): MainThreadTime {
  return { task: after.task - before.task, script: after.script - before.script, layout: after.layout - before.layout, style: after.style - before.style };
}

/**
 * Records, for each key pressed in the Message box (or the element `selector` names) while an
 * answer streams (or always, with `always`), the time from the key event (its timeStamp: when the browser received it, so waiting
 * behind a busy main thread counts) to just after the next frame was drawn (a message posted from
 * that frame's requestAnimationFrame runs once the frame's rendering is done).
 */
export async function watchKeys(page: Page, always: boolean, selector = 'textarea[aria-label="Message"]'): Promise<void> {
  await page.evaluate(([recordAlways, boxSelector]) => {
    const bench = window as unknown as BenchWindow;
    bench.benchKeys = [];
    const box = document.querySelector<HTMLElement>(boxSelector);
    if (!box) throw new Error(`Nothing matches ${boxSelector}`);
    // One watcher at a time: the one set before stops recording.
    bench.benchKeyWatch?.abort();
    const watch = new AbortController();
    bench.benchKeyWatch = watch;
    box.addEventListener(
      "keydown",
      (event) => {
        if (!recordAlways && !bench.benchChat.getState().running) return;
        const start = event.timeStamp;
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => bench.benchKeys.push(performance.now() - start);
          channel.port2.postMessage(null);
        });
      },
      { capture: true, signal: watch.signal },
    );
  }, [always, selector] as const);
}

export async function keyLatencies(page: Page): Promise<number[]> {
  return page.evaluate(() => (window as unknown as BenchWindow).benchKeys);
}

/**
 * Installed before the page's own scripts: resolves `window.benchFirstFrame` with the time just
 * after the first frame in which the chat view's Message box is on screen.
 */
export function firstFrameWatcher(): void {
  const bench = window as unknown as BenchWindow;
  bench.benchFirstFrame = new Promise<number>((resolve) => {
    const check = () => {
      const box = document.querySelector('.workspace-leaf-content[data-type="vault-copilot-chat-view"] textarea[aria-label="Message"]');
      if (box && box.getBoundingClientRect().height > 0) {
        // This frame draws it: the message runs once its rendering is done.
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve(performance.now());
        channel.port2.postMessage(null);
        return;
      }
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
}

/** The plugin's onload and the chat view's first frame (ms after "Open chat" ran), from the demo page's performance marks. */
export async function startupTimes(page: Page): Promise<{ onloadMs: number; firstFrameMs: number }> {
  return page.evaluate(async () => {
    const frame = await (window as unknown as BenchWindow).benchFirstFrame;
    const onload = performance.getEntriesByName("demo:plugin-onload")[0];
    const openChat = performance.getEntriesByName("demo:open-chat")[0];
    if (!onload || !openChat) throw new Error("The demo page has no demo:plugin-onload / demo:open-chat performance entries");
    return { onloadMs: onload.duration, firstFrameMs: frame - openChat.startTime };
  });
}
