import * as http from "node:http";
import * as https from "node:https";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { requestUrl } from "obsidian";
import type { FetchLike } from "../ports/FetchLike";
import { createNodeHttpFetch } from "./nodeHttpFetch";
import { plainHttp } from "./plainHttp";
import { createRequestUrlFetch } from "./requestUrlFetch";

// requestUrl comes from the Obsidian double, which sends real requests with fetch.
describe.each<[string, FetchLike]>([
  ["Node's http (desktop Obsidian)", createNodeHttpFetch({ http, https })],
  ["requestUrl (mobile Obsidian)", createRequestUrlFetch((request) => requestUrl(request))],
  ["Node's fetch (the CLI)", globalThis.fetch],
])("plainHttp over %s", (_name, fetch) => {
  let server: Server;
  let elsewhere: Server;
  let base: string;
  let elsewhereBase: string;
  const stalled: (() => void)[] = [];
  const redirects: Record<string, [number, () => string]> = {
    "/moved": [302, () => "/whoami"],
    "/see-other": [303, () => "/whoami"],
    "/temporary": [307, () => "/whoami"],
    "/away": [302, () => `${elsewhereBase}/whoami`],
    "/loop": [302, () => "/loop"],
  };
  const whoami = (request: http.IncomingMessage, body: string) =>
    JSON.stringify({ method: request.method, authorization: request.headers.authorization ?? null, token: request.headers["x-token"] ?? null, body });

  beforeAll(async () => {
    elsewhere = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      request.on("end", () => response.end(whoami(request, body)));
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, "127.0.0.1", resolve));
    elsewhereBase = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
    server = createServer((request, response) => {
      const redirect = redirects[request.url ?? ""];
      if (redirect) {
        request.resume();
        response.writeHead(redirect[0], { Location: redirect[1]() }).end();
        return;
      }
      if (request.url === "/slow") {
        stalled.push(() => response.end("late"));
        return;
      }
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const status = request.url === "/missing" ? 404 : 200;
        const body = Buffer.concat(chunks).toString("utf8");
        if (request.url === "/whoami") return void response.end(whoami(request, body));
        response.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", "X-Echo-Method": request.method ?? "" }).end(`${String(request.headers["x-token"] ?? "")}|${body}`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const finish of stalled) finish();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await new Promise<void>((resolve) => elsewhere.close(() => resolve()));
  });

  it("sends method, headers and body, and gives status, lower-case headers and the text", async () => {
    const text = "Поиск · 搜索 · بحث · ค้นหา · 🔎 · Cafe\u0301";
    const response = await plainHttp(fetch).request({ url: `${base}/echo`, method: "POST", headers: { "X-Token": "t1" }, body: text });
    expect(response).toMatchObject({ status: 200, text: `t1|${text}` });
    expect(response.headers["x-echo-method"]).toBe("POST");
  });

  it("follows redirects as fetch does: 302 and 303 as a GET without the body, 307 with method and body, no authorization to another origin", async () => {
    const request = { method: "POST" as const, headers: { Authorization: "Bearer key-1", "X-Token": "t2" }, body: "данные 数据" };
    const answer = async (path: string) => JSON.parse((await plainHttp(fetch).request({ ...request, url: `${base}${path}` })).text) as unknown;
    expect(await answer("/moved")).toEqual({ method: "GET", authorization: "Bearer key-1", token: "t2", body: "" });
    expect(await answer("/see-other")).toEqual({ method: "GET", authorization: "Bearer key-1", token: "t2", body: "" });
    expect(await answer("/temporary")).toEqual({ method: "POST", authorization: "Bearer key-1", token: "t2", body: "данные 数据" });
    expect(await answer("/away")).toEqual({ method: "GET", authorization: null, token: "t2", body: "" });
    await expect(plainHttp(fetch).request({ url: `${base}/loop` })).rejects.toThrow("fetch failed");
  });

  it("answers an error status instead of throwing", async () => {
    const response = await plainHttp(fetch).request({ url: `${base}/missing` });
    expect(response.status).toBe(404);
  });

  it("settles at once when the signal aborts, and refuses to start when it already has", async () => {
    const controller = new AbortController();
    const pending = plainHttp(fetch).request({ url: `${base}/slow`, signal: controller.signal });
    controller.abort(new Error("stopped by the user"));
    await expect(pending).rejects.toThrow("stopped by the user");
    await expect(plainHttp(fetch).request({ url: `${base}/echo`, signal: controller.signal })).rejects.toThrow("stopped by the user");
  });
});
