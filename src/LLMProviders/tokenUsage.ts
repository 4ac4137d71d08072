import type { UsageMetadata } from "@langchain/core/messages";
import type { ModelPrices } from "../settings/settingsSchema";

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

/** Adds `more` into `total` (and returns it). */
export function addUsage(total: TokenUsage, more: Partial<TokenUsage>): TokenUsage {
  total.inputTokens += more.inputTokens ?? 0;
  total.outputTokens += more.outputTokens ?? 0;
  total.cacheReadTokens += more.cacheReadTokens ?? 0;
  total.cacheWriteTokens += more.cacheWriteTokens ?? 0;
  return total;
}

/** LangChain's usage record as ours (OpenAI's cached prompt tokens arrive as `cache_read` too). */
export function usageFromMetadata(metadata: UsageMetadata): TokenUsage {
  return {
    inputTokens: metadata.input_tokens,
    outputTokens: metadata.output_tokens,
    cacheReadTokens: metadata.input_token_details?.cache_read ?? 0,
    cacheWriteTokens: metadata.input_token_details?.cache_creation ?? 0,
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
