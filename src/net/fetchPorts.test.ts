import * as http from "node:http";
import * as https from "node:https";
import { HumanMessage } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { Platform, requestUrl } from "obsidian";
import type { FetchLike } from "../ports/FetchLike";
import { createNodeHttpFetch } from "./nodeHttpFetch";
import { createObsidianFetch } from "./obsidianFetch";
import { createRequestUrlFetch } from "./requestUrlFetch";
import { startOpenAIServer, type OpenAIServer } from "../../test/helpers/openAIServer";

const nodeFetch = createNodeHttpFetch({ http, https });
const requestUrlFetch = createRequestUrlFetch((request) => requestUrl(request));

let server: OpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function model(fetch: FetchLike, baseUrl: string): ChatOpenAI {
  return new ChatOpenAI({ model: "test-model", apiKey: "k", streaming: true, maxRetries: 0, configuration: { baseURL: baseUrl, fetch } });
}

async function answer(fetch: FetchLike, baseUrl: string): Promise<string> {
  let text = "";
  for await (const chunk of await model(fetch, baseUrl).stream([new HumanMessage("hi")])) text += typeof chunk.content === "string" ? chunk.content : "";
  return text;
}

describe.each([
  ["Node http (desktop)", nodeFetch],
  ["requestUrl (mobile)", requestUrlFetch],
])("the model client over %s", (_name, fetch) => {
  it("gets a whole streamed answer and the request as sent", async () => {
    server = await startOpenAIServer([{ text: "Hello from the server, in pieces.", chunkSize: 3 }]);
    expect(await answer(fetch, server.baseUrl)).toBe("Hello from the server, in pieces.");
    expect(server.requests[0]?.headers.authorization).toBe("Bearer k");
    expect(server.requests[0]?.body.messages).toEqual([{ role: "user", content: "hi" }]);
  });

  it("passes HTTP errors through to the client with their body", async () => {
    server = await startOpenAIServer([{ status: 401, message: "bad key" }]);
    await expect(answer(fetch, server.baseUrl)).rejects.toMatchObject({ status: 401 });
  });

  it("rejects as a network failure when nothing listens", async () => {
    const closed = await startOpenAIServer([]);
    await closed.close();
    await expect(fetch(`${closed.baseUrl}/models`)).rejects.toThrow("fetch failed");
  });
});

describe("createNodeHttpFetch", () => {
  it("hands on each piece as it arrives, before the answer has ended", async () => {
    const controller = new AbortController();
    server = await startOpenAIServer([{ text: "first words then silence", chunkSize: 6, holdOpen: true }]);
    const received: string[] = [];
    const reading = (async () => {
      for await (const chunk of await model(nodeFetch, server.baseUrl).stream([new HumanMessage("hi")], { signal: controller.signal })) {
        if (typeof chunk.content === "string" && chunk.content) received.push(chunk.content);
        if (received.join("") === "first words then silence") controller.abort(new Error("enough"));
      }
    })();
    await expect(reading).rejects.toThrow("enough");
    expect(received.length).toBeGreaterThan(1);
    // Aborting destroyed the connection: the server saw the client go.
    await server.requests[0]?.closed;
  });

  it("fails the body stream when the connection is cut mid-answer", async () => {
    server = await startOpenAIServer([{ text: "abcdefghij", chunkSize: 2, cutAfterChunks: 3 }]);
    const received: string[] = [];
    await expect(
      (async () => {
        for await (const chunk of await model(nodeFetch, server.baseUrl).stream([new HumanMessage("hi")])) {
          if (typeof chunk.content === "string") received.push(chunk.content);
        }
      })(),
    ).rejects.toThrow("terminated");
    expect(received.join("")).toBe("abcd");
  });

  it("refuses URLs that are not http or https", async () => {
    await expect(nodeFetch("file:///etc/passwd")).rejects.toThrow("Cannot fetch file: URLs");
  });

  it("rejects at once when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort(new Error("already stopped"));
    await expect(nodeFetch("http://127.0.0.1:1/", { signal: controller.signal })).rejects.toThrow("already stopped");
  });
});

describe("createRequestUrlFetch", () => {
  it("settles at once when aborted, without waiting for the response", async () => {
    server = await startOpenAIServer([{ text: "never ends", holdOpen: true }]);
    const controller = new AbortController();
    const pending = requestUrlFetch(`${server.baseUrl}/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "m", stream: true, messages: [] }),
      signal: controller.signal,
    });
    controller.abort(new Error("stop"));
    await expect(pending).rejects.toThrow("stop");
  });
});

describe("createObsidianFetch", () => {
  const windowHolder = globalThis as unknown as { window?: unknown };
  const original = { isDesktopApp: Platform.isDesktopApp, window: windowHolder.window };
  afterEach(() => {
    Platform.isDesktopApp = original.isDesktopApp;
    windowHolder.window = original.window;
  });

  it("uses Node's http through window.require on desktop", async () => {
    const required: string[] = [];
    Platform.isDesktopApp = true;
    windowHolder.window = {
      require: (id: string) => {
        required.push(id);
        return id === "https" ? https : http;
      },
    };
    server = await startOpenAIServer([{ text: "desktop" }]);
    expect(await answer(createObsidianFetch(), server.baseUrl)).toBe("desktop");
    expect(required).toEqual(["http", "https"]);
  });

  it("uses requestUrl on mobile", async () => {
    Platform.isDesktopApp = false;
    windowHolder.window = { require: () => { throw new Error("no Node on mobile"); } };
    server = await startOpenAIServer([{ text: "mobile" }]);
    expect(await answer(createObsidianFetch(), server.baseUrl)).toBe("mobile");
  });
});
