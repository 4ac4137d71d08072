/**
 * What the end-to-end tests need to drive the browser demo: the demo server as a child process
 * (`node scripts/demo.mjs … --port 0`, as `npm run demo` runs it) and a headless Chromium.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";

const repoRoot = resolve(__dirname, "../..");

export const CHROMIUM = "/usr/bin/chromium";
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** Headless Chromium from /usr/bin/chromium; fails with the way to install it when it cannot start. */
export async function launchChromium(): Promise<Browser> {
  try {
    return await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
  } catch (error) {
    throw new Error(
      `Chromium could not start from ${CHROMIUM} (${error instanceof Error ? error.message : String(error)}). ` +
        "Install it with: apt-get update && apt-get install -y chromium",
    );
  }
}

export interface DemoOptions {
  vault: string;
  baseUrl: string;
  model: string;
  /** The name of an environment variable holding the API key (set it in `env`). */
  apiKeyEnv?: string;
  /** Extra environment for the demo process. */
  env?: Record<string, string>;
  /** What the plugin knows of the model's tool calling (unknown when left out: new chats start in Chat). */
  modelTakesTools?: boolean;
  /** The model's "Takes images" setting (not known when left out: images are left out of requests). */
  modelTakesImages?: boolean;
  /** Switches inline completion on in the note editor, with this model at the same base URL. */
  completionModel?: string;
}

export interface RunningDemo {
  /** "http://127.0.0.1:PORT/" */
  url: string;
  /** Everything the demo printed, stdout and stderr. */
  output(): string;
  stop(): Promise<void>;
}

/** Starts the demo server on a free port and resolves once it prints its `Serving` line. */
export function startDemo(options: DemoOptions): Promise<RunningDemo> {
  const args = [join(repoRoot, "scripts/demo.mjs"), "--vault", options.vault, "--base-url", options.baseUrl, "--model", options.model, "--port", "0"];
  if (options.apiKeyEnv) args.push("--api-key-env", options.apiKeyEnv);
  if (options.modelTakesTools !== undefined) args.push("--model-takes-tools", options.modelTakesTools ? "yes" : "no");
  if (options.modelTakesImages !== undefined) args.push("--model-takes-images", options.modelTakesImages ? "yes" : "no");
  if (options.completionModel !== undefined) args.push("--completion-model", options.completionModel);
  const child: ChildProcess = spawn(process.execPath, args, { cwd: repoRoot, env: { ...process.env, ...options.env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  return new Promise<RunningDemo>((resolvePromise, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const match = /Serving (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output);
      if (match) resolvePromise({ url: match[1]!, output: () => output, stop });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`The demo exited (code ${code}) before serving:\n${output}`)));
    child.once("error", reject);
  });
}

/** Where screenshots go: $E2E_SCREENSHOT_DIR, or a folder in the system's temporary folder (outside the repository). */
export function screenshotPath(name: string): string {
  const folder = process.env.E2E_SCREENSHOT_DIR ?? join(tmpdir(), "vault-copilot-e2e-screenshots");
  mkdirSync(folder, { recursive: true });
  return join(folder, name);
}

export interface DemoPage {
  page: Page;
  /** Console errors and uncaught exceptions of the page so far (a test ends by expecting none). */
  consoleErrors: string[];
}

/**
 * Opens the demo in a new page (`?theme=` and `?width=` as given) and waits until the plugin is
 * enabled and the chat view open; fails with the page's own report when the demo could not start.
 * `touch`: the page is a phone's (touch events, a coarse pointer that cannot hover), for `?mobile=1`.
 */
export async function openDemoPage(
  browser: Browser,
  demoUrl: string,
  options: { theme?: "dark" | "light"; width?: number; viewport?: { width: number; height: number }; touch?: boolean } = {},
): Promise<DemoPage> {
  const page = await browser.newPage({ viewport: options.viewport ?? { width: 1200, height: 800 }, ...(options.touch ? { hasTouch: true, isMobile: true } : {}) });
  const consoleErrors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
  page.on("pageerror", (error) => consoleErrors.push(error.message));
  const url = new URL(demoUrl);
  url.searchParams.set("theme", options.theme ?? "dark");
  if (options.width !== undefined) url.searchParams.set("width", String(options.width));
  await page.goto(url.href);
  await page.waitForSelector('body[data-demo="ready"], body[data-demo="failed"]');
  if ((await page.evaluate(() => document.body.dataset.demo)) !== "ready") {
    throw new Error(`The demo page failed: ${await page.evaluate(() => document.querySelector(".demo-failure")?.textContent ?? "no report")}`);
  }
  return { page, consoleErrors };
}

/** The chat view's element on the demo page: the right sidebar's leaf of the chat view type. */
export const CHAT_VIEW_SELECTOR = '.workspace-split.mod-right-split .workspace-leaf-content[data-type="vault-copilot-chat-view"]';

// A transparent 1×1 PNG: what an outside request is answered with, so nothing fails loudly.
const EMPTY_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");

/**
 * Records every request the page makes to anything but 127.0.0.1 (a remote image, a tracking
 * pixel, a script) and answers it locally, so no test ever reaches the network and a test can
 * assert that model output made the page fetch nothing by itself.
 */
export async function watchOutsideRequests(page: Page): Promise<string[]> {
  const outside: string[] = [];
  await page.route(
    (url) => url.hostname !== "127.0.0.1" && url.protocol !== "data:" && url.protocol !== "blob:",
    (route) => {
      outside.push(route.request().url());
      return route.fulfill({ status: 200, contentType: "image/png", body: EMPTY_PNG });
    },
  );
  return outside;
}
