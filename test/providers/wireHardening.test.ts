/**
 * What a model server should never send, for each wire format (OpenAI-compatible through
 * LangChain, Anthropic's and Gemini's own): usage counts that are not counts. Real servers on
 * 127.0.0.1 answering by hand, the real runners and clients.
 */
import { ContextManager } from "../../src/context/ContextManager";
import { LLMChainRunner } from "../../src/LLMProviders/chainRunner/LLMChainRunner";
import type { ChainRunResult } from "../../src/LLMProviders/chainRunner/ChainEvents";
import type { ProviderSettings } from "../../src/settings/settingsSchema";
import { eventLog, FAST_RETRIES, modelFactory, settingsFor } from "../helpers/runnerHarness";
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
