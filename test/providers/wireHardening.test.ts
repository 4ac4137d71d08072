/**
 * What a model server should never send, for each wire format (OpenAI-compatible through
 * LangChain, Anthropic's and Gemini's own): usage counts that are not counts. Real servers on
 * 127.0.0.1 answering by hand, the real runners and clients.
 */
import { ContextManager } from "../../src/context/ContextManager";
import { LLMChainRunner } from "../../src/LLMProviders/chainRunner/LLMChainRunner";
import type { ChainRunResult } from "../../src/LLMProviders/chainRunner/ChainEvents";
import type { ProviderSettings } from "../../src/settings/settingsSchema";
import { runCli } from "../helpers/runCli";
import { eventLog, FAST_RETRIES, modelFactory, settingsFor } from "../helpers/runnerHarness";
import { makeTempVault } from "../helpers/tempVault";
import { readFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { join } from "node:path";
import { setImmediate } from "node:timers";
import { startRawWireServer, WIRE_EVENTS, type RawWireServer, type WireName } from "../helpers/rawWireServer";
import { MAX_MERGED_TEXT_CHARACTERS } from "../../src/LLMProviders/wire/coalesceTextDeltas";
import { MAX_SSE_EVENT_CHARACTERS } from "../../src/net/sseEvents";

const PRESETS: Record<WireName, ProviderSettings["preset"]> = { openai: "custom", anthropic: "anthropic", gemini: "gemini" };
const WIRES: WireName[] = ["openai", "anthropic", "gemini"];

let server: RawWireServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function ask(wire: WireName, provider: Partial<ProviderSettings> = {}): Promise<ChainRunResult & { streamed: string }> {
  const settings = settingsFor(server!, {}, { preset: PRESETS[wire], ...provider });
  const runner = new LLMChainRunner({ getSettings: () => settings, createModel: modelFactory(() => settings), retryPolicy: FAST_RETRIES });
  const log = eventLog();
  const result = await runner.run({ userMessage: "Сколько стоит? 多少钱?", conversation: new ContextManager(), signal: new AbortController().signal, onEvent: log.onEvent });
  return { ...result, streamed: log.streamedText() };
}

/** The usage objects of each format with `bad` where counts go (the input count of OpenAI and Gemini stays a good 12). */
const HOSTILE_USAGE: Record<WireName, (bad: unknown) => { start?: Record<string, unknown>; end: Record<string, unknown> }> = {
  openai: (bad) => ({ end: { prompt_tokens: 12, completion_tokens: bad, total_tokens: bad, prompt_tokens_details: { cached_tokens: bad } } }),
  anthropic: (bad) => ({ start: { input_tokens: bad, output_tokens: bad, cache_read_input_tokens: bad, cache_creation_input_tokens: bad }, end: { output_tokens: bad } }),
  gemini: (bad) => ({ end: { promptTokenCount: 12, candidatesTokenCount: bad, thoughtsTokenCount: bad, cachedContentTokenCount: bad } }),
};
const HOSTILE_COUNTS: unknown[] = ["0NaN", "NaN", "12", -5, 1e308, 2.5, 2 ** 53, null, {}, [3], true];

describe("usage counts from a hostile server", () => {
  describe.each(WIRES)("%s", (wire) => {
    it.each(HOSTILE_COUNTS.map((bad) => [JSON.stringify(bad), bad]))("%s: counts stay whole numbers ≥ 0, the bad ones counted as absent", async (_shown, bad) => {
      const usage = HOSTILE_USAGE[wire](bad);
      server = await startRawWireServer((response) => {
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.end(WIRE_EVENTS[wire].start(usage.start) + WIRE_EVENTS[wire].text("Сто юаней.") + WIRE_EVENTS[wire].end(usage.end));
      });
      const result = await ask(wire);
      expect(result).toMatchObject({ status: "completed", text: "Сто юаней." });
      for (const value of Object.values(result.usage)) {
        expect(Number.isSafeInteger(value)).toBe(true);
        expect(value).toBeGreaterThanOrEqual(0);
      }
      expect(result.usage).toEqual({ inputTokens: wire === "anthropic" ? 0 : 12, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 });
    });
  });
});

const PORTAL_PAGE = `<!DOCTYPE html>\n<html><head><title>Вход в сеть · 登录 · تسجيل الدخول</title></head>\u0007\u001b[31m<body>${"Введите номер комнаты, чтобы продолжить. ".repeat(20)}</body></html>`;

describe("a successful answer that is not an event stream", () => {
  const answers: Array<[string, string, string, RegExp]> = [
    ["an HTML page", "text/html; charset=utf-8", PORTAL_PAGE, /answered 200 with text\/html, not an event stream: <!DOCTYPE html> <html><head><title>Вход в сеть · 登录 · تسجيل الدخول<\/title><\/head> \[31m<body>Введите/],
    ["a JSON answer (stream ignored)", "application/json", JSON.stringify({ choices: [{ message: { content: "Привет" } }] }), /answered 200 with application\/json, not an event stream: \{"choices":\[\{"message":\{"content":"Привет"\}\}\]\}$/],
    ["an empty event stream", "text/event-stream", "", /answered 200 with text\/event-stream, but no event arrived$/],
    ["an event stream of no events", "text/event-stream", "hello from a proxy 🦓\n\n", /answered 200 with text\/event-stream, but no event arrived: hello from a proxy 🦓$/],
  ];
  describe.each(WIRES)("%s", (wire) => {
    it.each(answers)("%s: the run fails once, saying what arrived", async (_name, contentType, body, said) => {
      server = await startRawWireServer((response) => {
        response.writeHead(200, { "content-type": contentType });
        response.end(body);
      });
      const result = await ask(wire);
      expect(result.status).toBe("failed");
      expect(result.error?.kind).toBe("bad-response");
      expect(result.error?.message).toMatch(said);
      expect(result.error?.message).not.toContain("Cannot reach");
      expect([...(result.error?.message ?? "")].some((character) => character.charCodeAt(0) < 0x20)).toBe(false);
      // What is quoted is at most 200 characters of the body.
      const quoted = result.error?.message.split(/event stream: |arrived: /)[1] ?? "";
      expect(Array.from(quoted).length).toBeLessThanOrEqual(200);
      expect(server.requests()).toBe(1);
    });
  });
});

describe("the CLI given a page instead of an event stream", () => {
  it.each(WIRES)("%s: exit 1, one line saying what arrived, nothing on stdout", async (wire) => {
    server = await startRawWireServer((response) => {
      response.writeHead(200, { "content-type": "text/html" });
      response.end(PORTAL_PAGE);
    });
    const vault = makeTempVault({ "Заметки/Комната.md": "Номер 12.\n" });
    try {
      const result = await runCli(
        ["chat", "--vault", vault.root, "--provider", wire, "--base-url", server.baseUrl, "--model", "m", "--api-key-env", "WIRE_KEY", "Какой номер?"],
        { WIRE_KEY: "key-0123456789abcdef" },
      );
      expect(result.status).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr.trim().split("\n")).toEqual([expect.stringMatching(/^vault-copilot: .* answered 200 with text\/html, not an event stream: <!DOCTYPE html> <html><head><title>Вход в сеть/)]);
    } finally {
      vault.remove();
    }
  });
});

describe("a server that streams for good", () => {
  /** Answers by streaming WORDS until the client goes (or 200,000 pieces, so it stops by itself); `closed` settles with the pieces sent when the client went. */
  function foreverAnswer(wire: WireName): { answer: (response: ServerResponse) => void; closed: Promise<number> } {
    let done!: (pieces: number) => void;
    const closed = new Promise<number>((resolve) => (done = resolve));
    const answer = (response: ServerResponse) => {
      let pieces = 0;
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(WIRE_EVENTS[wire].start());
      response.on("close", () => done(pieces));
      const pump = () => {
        if (response.destroyed || pieces >= 200_000) {
          response.end();
          return;
        }
        pieces++;
        if (response.write(WIRE_EVENTS[wire].text(WORDS))) setImmediate(pump);
        else response.once("drain", pump);
      };
      pump();
    };
    return { answer, closed };
  }
  const WORDS = "слово 字 كلمة คำ 🦓 word ";

  it.each(WIRES)("%s: stopped at the longest-answer setting, the text kept, the connection closed", async (wire) => {
    const forever = foreverAnswer(wire);
    server = await startRawWireServer(forever.answer);
    const result = await ask(wire, { maxTokens: 50 });
    expect(result.status).toBe("failed");
    expect(result.error).toEqual({ kind: "answer-too-long", message: "stopped: the answer passed the longest-answer limit (50 tokens); the part that arrived is kept." });
    expect(result.text).toBe(result.streamed);
    expect(result.text.startsWith(WORDS + WORDS)).toBe(true);
    // Stopped within a piece of 50 tokens (as characters / 4, with the estimate's slack); the
    // OpenAI client's pieces are the text deltas one read brought, merged up to a limit.
    expect(result.text.length).toBeGreaterThan(50 * 4);
    expect(result.text.length).toBeLessThanOrEqual(50 * 4 * 1.5 + (wire === "openai" ? MAX_MERGED_TEXT_CHARACTERS : WORDS.length));
    const pieces = await forever.closed;
    expect(pieces).toBeLessThan(200_000);
  });

  it.each(WIRES)("%s: a server that keeps to the setting is not cut short", async (wire) => {
    server = await startRawWireServer((response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      // 50 tokens' worth of long tokens (6 characters each), then the server's own end.
      response.end(WIRE_EVENTS[wire].start() + WIRE_EVENTS[wire].text("abcdef".repeat(50)) + WIRE_EVENTS[wire].end(wire === "gemini" ? { promptTokenCount: 3, candidatesTokenCount: 50 } : wire === "openai" ? { prompt_tokens: 3, completion_tokens: 50 } : { output_tokens: 50 }));
    });
    const result = await ask(wire, { maxTokens: 50 });
    expect(result).toMatchObject({ status: "completed", text: "abcdef".repeat(50) });
  });
});

describe("an event that never ends", () => {
  it.each(WIRES)("%s: stopped past MAX_SSE_EVENT_CHARACTERS with a message naming the server, the text kept, the connection closed", async (wire) => {
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    server = await startRawWireServer((response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.on("close", () => closed());
      response.write(WIRE_EVENTS[wire].start() + WIRE_EVENTS[wire].text("Начало ответа 🌱. "));
      // One line that grows past the limit and never ends: 1 MiB at a time, while the client reads.
      const piece = "ж".repeat(1024 * 1024);
      let written = 0;
      const pump = () => {
        while (!response.destroyed && written <= MAX_SSE_EVENT_CHARACTERS) {
          written += piece.length;
          if (!response.write(written === piece.length ? `data: ${piece}` : piece)) return void response.once("drain", pump);
        }
      };
      pump();
    });
    const result = await ask(wire);
    expect(result.status).toBe("failed");
    expect(result.error?.kind).toBe("bad-response");
    expect(result.error?.message).toMatch(/ \(http:\/\/127\.0\.0\.1:\d+\/v1\) sent an event of more than 16,777,216 characters, more than any answer or tool call holds; the stream was stopped; the part that arrived is kept\.$/);
    expect(result.streamed).toBe("Начало ответа 🌱. ");
    await connectionClosed;
    expect(server.requests()).toBe(1);
  });
});

describe("the CLI against a server that streams for good", () => {
  it("chat --save: stops at the vault's longest-answer setting, prints and saves the part that arrived, exit 1", async () => {
    server = await startRawWireServer((response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      let pieces = 0;
      const pump = () => {
        if (response.destroyed || ++pieces > 200_000) {
          response.end();
          return;
        }
        if (response.write(WIRE_EVENTS.openai.text("ещё одно слово, 还有一个词 "))) setImmediate(pump);
        else response.once("drain", pump);
      };
      pump();
    });
    const vault = makeTempVault({ ".obsidian/plugins/vault-copilot/data.json": JSON.stringify({ provider: { maxTokens: 80 } }) });
    try {
      const result = await runCli(["chat", "--vault", vault.root, "--base-url", server.baseUrl, "--model", "m", "--save", "Говори без конца"]);
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(/^vault-copilot: saved to copilot\/chats\/.*\.md\nvault-copilot: stopped: the answer passed the longest-answer limit \(80 tokens\); the part that arrived is kept\.\n$/);
      expect(result.stdout.startsWith("ещё одно слово, 还有一个词 ")).toBe(true);
      expect(result.stdout.length).toBeLessThanOrEqual(80 * 4 * 1.5 + MAX_MERGED_TEXT_CHARACTERS);
      const saved = /saved to (.*\.md)/.exec(result.stderr)?.[1] ?? "";
      const note = readFileSync(join(vault.root, saved), "utf8");
      expect(note).toContain(result.stdout.trim());
      expect(note.length).toBeLessThan(4000);
    } finally {
      vault.remove();
    }
  });
});
