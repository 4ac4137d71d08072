/**
 * The second pass over model output on its own, in a real Chromium where every request can be
 * seen: hostile HTML that got past the Markdown-level pass (test/helpers/hostileHtml.ts) is
 * rendered as the chat view renders an answer (fixtures/untrustedRenderPage.ts) and must not make
 * a single request to the hostile server, a counting server on 127.0.0.1. For comparison, the
 * same image checked only after rendering into a detached element of the page does reach it.
 */
import { build } from "esbuild";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import type { Browser, Page, Request } from "playwright-core";
import { hostileAnswers } from "../helpers/hostileHtml";
import { startLocalServer, type LocalServer } from "../helpers/localServer";
import { launchChromium } from "./demoHarness";
import type { Flow, Renderer } from "./fixtures/untrustedRenderPage";

jest.setTimeout(60_000);

const repoRoot = resolve(__dirname, "../..");

describe("the second pass over a rendered answer, in Chromium", () => {
  let hostile: LocalServer;
  let pageServer: Server;
  let pageUrl: string;
  let browser: Browser;
  let page: Page;
  /** Every request the page made, in the order it made them. */
  const requests: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    const bundled = await build({
      entryPoints: [resolve(__dirname, "fixtures/untrustedRenderPage.ts")],
      bundle: true,
      format: "iife",
      platform: "browser",
      target: "es2022",
      write: false,
      absWorkingDir: repoRoot,
      logLevel: "silent",
    });
    const script = bundled.outputFiles[0]!.contents;
    // A 1×1 GIF, so that an image that does load is a real one.
    const gif = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
    hostile = await startLocalServer(() => ({ status: 200, headers: { "Content-Type": "image/gif" }, body: gif.toString("latin1") }));
    pageServer = createServer((request, response) => {
      if (request.url === "/") response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end('<!doctype html><meta charset="utf-8"><body><script src="/page.js"></script></body>');
      else if (request.url === "/page.js") response.writeHead(200, { "Content-Type": "text/javascript" }).end(script);
      else if (request.url?.startsWith("/sentinel")) response.writeHead(200, { "Content-Type": "image/gif" }).end(gif);
      else response.writeHead(404).end();
    });
    await new Promise<void>((done) => pageServer.listen(0, "127.0.0.1", done));
    pageUrl = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}/`;

    browser = await launchChromium();
    page = await browser.newPage();
    page.on("request", (request) => void requests.push(request.url()));
    page.on("pageerror", (error) => void pageErrors.push(error.message));
    await page.goto(pageUrl);
    await page.waitForSelector("body[data-ready]", { state: "attached" });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((done) => (pageServer ? pageServer.close(() => done()) : done()));
    await hostile?.close();
  });

  const render = (html: string, renderer: Renderer, flow: Flow) => page.evaluate(([html, renderer, flow]) => window.untrustedRenderPage.render(html, renderer, flow), [html, renderer, flow] as const);

  /** Resolves once the page asked for a sentinel image added now: every request the page made before it has been seen. */
  async function settled(name: string): Promise<void> {
    const url = `${pageUrl}sentinel/${name}`;
    const asked = page.waitForRequest((request: Request) => request.url() === url);
    await page.evaluate((url) => window.untrustedRenderPage.sentinel(url), url);
    await asked;
  }

  it.each(["raw", "obsidian"] as const)("renders every hostile answer (%s renderer) without a request to the hostile server", async (renderer) => {
    const origin = `${hostile.url}/${renderer}`;
    const rendered: string[] = [];
    for (const [, html] of hostileAnswers(origin)) rendered.push(await render(html, renderer, "inert"));
    await settled(renderer);
    expect(requests.filter((url) => url.startsWith(origin))).toEqual([]);
    expect(hostile.requests.filter((request) => request.url.startsWith(`/${renderer}/`))).toEqual([]);
    // The page is still the one loaded (no refresh, no new base) and ran none of the answers' code.
    expect(page.url()).toBe(pageUrl);
    expect(pageErrors).toEqual([]);
    // What is shown still reads: the answers' text is there.
    expect(rendered.every((html) => html.includes("Ответ 答案"))).toBe(true);
  });

  it("for comparison: the same images checked only after rendering into the page reach the hostile server", async () => {
    const origin = `${hostile.url}/checked-after`;
    const loaded = Promise.all(["srcset", "broken"].map((name) => page.waitForRequest((request: Request) => request.url() === `${origin}/${name}`)));
    for (const [name, html] of hostileAnswers(origin)) {
      if (name === "srcset" || name === "an image whose error runs code") await render(html, "raw", "checked-after");
    }
    await loaded;
    expect(requests.filter((url) => url.startsWith(origin)).length).toBeGreaterThanOrEqual(2);
  });
});
