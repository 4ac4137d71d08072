import type { UsageMetadata } from "@langchain/core/messages";
import type { ModelPrices } from "../settings/settingsSchema";
import { count } from "./wire/usageMetadata";

/**
 * Tokens a request (or a run, or a chat) used. `inputTokens` counts every prompt token; the cache
 * counts say how many of them were read from the provider's prompt cache and how many written to
 * it (0 where the provider reports none).
 */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export function emptyUsage(): TokenUsage {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
}

/** Adds `more` into `total` (and returns it); a count that is not a whole number ≥ 0 adds nothing, and a sum stops at the largest exact integer. */
export function addUsage(total: TokenUsage, more: Partial<TokenUsage>): TokenUsage {
  const add = (sum: number, value: unknown) => Math.min(Number.MAX_SAFE_INTEGER, count(sum) + count(value));
  total.inputTokens = add(total.inputTokens, more.inputTokens);
  total.outputTokens = add(total.outputTokens, more.outputTokens);
  total.cacheReadTokens = add(total.cacheReadTokens, more.cacheReadTokens);
  total.cacheWriteTokens = add(total.cacheWriteTokens, more.cacheWriteTokens);
  return total;
}

/**
 * LangChain's usage record as ours (OpenAI's cached prompt tokens arrive as `cache_read` too).
 * LangChain hands on what an OpenAI-compatible server sent unchecked ("NaN", -5, 1e308): a field
 * that is not a whole number ≥ 0 counts as absent (0).
 */
export function usageFromMetadata(metadata: UsageMetadata): TokenUsage {
  return {
    inputTokens: count(metadata.input_tokens),
    outputTokens: count(metadata.output_tokens),
    cacheReadTokens: count(metadata.input_token_details?.cache_read),
    cacheWriteTokens: count(metadata.input_token_details?.cache_creation),
  };
}

/**
 * What the tokens cost in US dollars at the user's prices (per million tokens), or null when the
 * input or output price is missing. Cached reads and writes cost the input price unless the user
 * gave them their own.
 */
export function costOf(usage: TokenUsage, prices: ModelPrices): number | null {
  if (prices.input === null || prices.output === null) return null;
  const fresh = Math.max(0, usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens);
  const dollars =
    fresh * prices.input +
    usage.cacheReadTokens * (prices.cacheRead ?? prices.input) +
    usage.cacheWriteTokens * (prices.cacheWrite ?? prices.input) +
    usage.outputTokens * prices.output;
  return dollars / 1_000_000;
}
