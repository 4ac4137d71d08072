import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { requestUrlHttp } from "./requestUrlHttp";

// requestUrl comes from the Obsidian double, which sends real requests with fetch.
describe("requestUrlHttp", () => {
  let server: Server;
  let base: string;
  const stalled: (() => void)[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === "/slow") {
        stalled.push(() => response.end("late"));
        return;
      }
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        const status = request.url === "/missing" ? 404 : 200;
        response.writeHead(status, { "X-Echo-Method": request.method ?? "" }).end(`${String(request.headers["x-token"] ?? "")}|${body}`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const finish of stalled) finish();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("sends method, headers and body, and gives status, lower-case headers and text", async () => {
    const response = await requestUrlHttp.request({ url: `${base}/echo`, method: "POST", headers: { "X-Token": "t1" }, body: "payload" });
    expect(response).toMatchObject({ status: 200, text: "t1|payload" });
    expect(response.headers["x-echo-method"]).toBe("POST");
  });

  it("returns an error status instead of throwing", async () => {
    const response = await requestUrlHttp.request({ url: `${base}/missing` });
    expect(response.status).toBe(404);
  });

  it("settles at once when the signal aborts, and refuses to start when it already has", async () => {
    const controller = new AbortController();
    const pending = requestUrlHttp.request({ url: `${base}/slow`, signal: controller.signal });
    controller.abort(new Error("stopped by the user"));
    await expect(pending).rejects.toThrow("stopped by the user");
    await expect(requestUrlHttp.request({ url: `${base}/echo`, signal: controller.signal })).rejects.toThrow("stopped by the user");
  });
});
