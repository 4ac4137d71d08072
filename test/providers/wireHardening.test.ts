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
import { startRawWireServer, WIRE_EVENTS, type RawWireServer, type WireName } from "../helpers/rawWireServer";

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
