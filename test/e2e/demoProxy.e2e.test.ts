/**
 * The browser demo's model proxy in headless Chromium: the page's stand-in for Node's http streams
 * an answer piece by piece through /proxy, the key is added on the server and never reaches the
 * page, an abort cuts the upstream connection, error statuses and unreachable servers reach the
 * page as Node's http would report them, nothing but --base-url is forwarded, and on a phone
 * (?mobile=1) the page's own fetch reaches the model server the same way.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import type { OpenAIServer } from "../helpers/openAIServer";
import type { TempVault } from "../helpers/tempVault";
import { CHAT_VIEW_SELECTOR, openDemoPage, screenshotPath, startDemo, type RunningDemo } from "./demoHarness";
import { openDemoSession, type DemoSession } from "./demoSession";

jest.setTimeout(120_000);

const API_KEY = "sk-demo-test-key-0123456789";

/** What the page's http shim reports for one request: pieces as they arrived, and how it ended. */
interface ShimResult {
  status: number;
  pieces: string[];
  ended: boolean;
}

describe("browser demo: the model proxy", () => {
  let vault: TempVault;
  let model: OpenAIServer;
  let demo: RunningDemo;
  let browser: Browser;
  let page: Page;
  let consoleErrors: string[];

  let session: DemoSession;

  beforeAll(async () => {
    session = await openDemoSession(API_KEY);
    ({ vault, model, demo, browser, page, consoleErrors } = session);
  });

  const scratchPage = () => session.scratchPage();

  afterAll(() => session?.close());

  it("streams a model answer through /proxy piece by piece, adds the key there, and Stop cuts the upstream connection", async () => {
    const result = await page.evaluate(async (baseUrl: string): Promise<ShimResult> => {
      const http = (window as unknown as { require: (id: string) => import("../../src/net/nodeHttpFetch").NodeHttpModule }).require("http");
      return new Promise<ShimResult>((resolve, reject) => {
        const body = JSON.stringify({ model: "scripted-model", stream: true, messages: [{ role: "user", content: "hi" }] });
        const request = http.request(new URL(`${baseUrl}/chat/completions`), { method: "POST", headers: { "content-type": "application/json" } }, (response) => {
          const pieces: string[] = [];
          const decoder = new TextDecoder();
          response.on("data", (chunk) => {
            pieces.push(decoder.decode(chunk, { stream: true }));
            // The model server holds the answer open: pieces arriving now arrived before its end.
            if (pieces.join("").includes('"finish_reason":"stop"')) {
              resolve({ status: response.statusCode ?? 0, pieces, ended: response.complete });
              request.destroy();
            }
          });
          response.on("end", () => reject(new Error("the held-open answer ended")));
        });
        request.on("error", reject);
        request.end(body);
      });
    }, model.baseUrl);
    expect(result.status).toBe(200);
    expect(result.ended).toBe(false);
    expect(result.pieces.join("")).toContain('"content":"stre"');
    expect(result.pieces.join("")).not.toContain("[DONE]");
    expect(model.requests[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    // Resolves only when the proxy has cut the model server's connection.
    await model.requests[0]!.closed;
  });

  it("hands the model server's error status to the page's http as it is, without a console error (Node's http logs none)", async () => {
    const answer = await page.evaluate(
      (baseUrl: string) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const http = (window as unknown as { require: (id: string) => import("../../src/net/nodeHttpFetch").NodeHttpModule }).require("http");
          const request = http.request(new URL(`${baseUrl}/chat/completions`), { method: "POST", headers: { "content-type": "application/json" } }, (response) => {
            let body = "";
            response.on("data", (chunk) => (body += new TextDecoder().decode(chunk)));
            response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
          });
          request.on("error", reject);
          request.end(JSON.stringify({ model: "scripted-model", messages: [{ role: "user", content: "hi" }] }));
        }),
      model.baseUrl,
    );
    expect(answer.status).toBe(401);
    expect(answer.body).toContain("Incorrect API key provided");
  });

  it("the key never reaches the page, and the proxy forwards nowhere but the base URL", async () => {
    const scratch = await scratchPage();
    const seen = await scratch.evaluate(async (elsewhere: string) => {
      const config = await (await fetch("/api/config")).text();
      const refused = await fetch(`/proxy?url=${encodeURIComponent(elsewhere)}`, { headers: { "x-vault-copilot-demo": "1" } });
      return { config, refusedStatus: refused.status, refused: await refused.text() };
    }, `${model.origin}/v1evil/chat/completions`);
    await scratch.close();
    expect(seen.config).not.toContain(API_KEY);
    expect(await page.evaluate(() => document.documentElement.outerHTML)).not.toContain(API_KEY);
    expect(seen.refusedStatus).toBe(403);
    expect(seen.refused).toContain("forwards only to the --base-url");
    expect(model.requests).toHaveLength(2);
  });

  it("reports an unreachable model server the way Node's http does (an error with code ECONNREFUSED)", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = await startDemo({ vault: vault.root, baseUrl: `http://127.0.0.1:${port}/v1`, model: "m" });
    try {
      const scratch = await browser.newPage();
      await scratch.goto(unreachable.url);
      await scratch.waitForSelector('body[data-demo="ready"]');
      const failure = await scratch.evaluate(
        (baseUrl: string) =>
          new Promise<{ code?: string; message: string }>((resolve) => {
            const http = (window as unknown as { require: (id: string) => import("../../src/net/nodeHttpFetch").NodeHttpModule }).require("http");
            const request = http.request(new URL(`${baseUrl}/models`), { method: "GET", headers: {} }, () => resolve({ message: "answered" }));
            request.on("error", (error) => resolve({ code: (error as Error & { code?: string }).code, message: error.message }));
            request.end();
          }),
        `http://127.0.0.1:${port}/v1`,
      );
      await scratch.close();
      expect(failure).toEqual({ code: "ECONNREFUSED", message: expect.stringContaining("could not be reached") });
    } finally {
      await unreachable.stop();
    }
  });

  it("?mobile=1 acts as Obsidian on a phone: no Node require, the chat view fills the 375 px screen, requests reach the model through requestUrl's path", async () => {
    const { page: phone, consoleErrors: phoneErrors } = await openDemoPage(browser, `${demo.url}?mobile=1`, { viewport: { width: 375, height: 700 } });
    await phone.waitForSelector(CHAT_VIEW_SELECTOR);
    const seen = await phone.evaluate(async (baseUrl: string) => {
      // What the double's requestUrl does underneath: the page's fetch, to the model server's origin.
      const models = await fetch(`${baseUrl}/models`);
      return {
        require: typeof (window as unknown as { require?: unknown }).require,
        mobile: document.body.classList.contains("is-mobile"),
        width: document.querySelector(".mod-right-split")!.getBoundingClientRect().width,
        modelsStatus: models.status,
        models: ((await models.json()) as { object?: string }).object,
      };
    }, model.baseUrl);
    expect(seen).toEqual({ require: "undefined", mobile: true, width: 375, modelsStatus: 200, models: "list" });
    await phone.screenshot({ path: screenshotPath("demo-mobile.png") });
    await phone.close();
    expect(phoneErrors).toEqual([]);
  });

  it("logged no errors in the console", () => {
    expect(consoleErrors).toEqual([]);
  });
});
