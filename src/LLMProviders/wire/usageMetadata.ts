import type { UsageMetadata } from "@langchain/core/messages";

/** A response's token counts as the runners read them. `input` includes the cached part. */
export interface WireUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** LangChain's usage record: input counts every prompt token, cached ones included. */
export function toUsageMetadata(usage: WireUsage): UsageMetadata {
  return {
    input_tokens: usage.input,
    output_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    input_token_details: { cache_read: usage.cacheRead, cache_creation: usage.cacheWrite },
  };
}

/**
 * A count the server sent, or 0 when it sent none or something that is not a count: a string
 * ("12", "NaN"), a negative or fractional number, or one past the exactly representable integers
 * (1e308), which would turn a chat's total into Infinity or NaN.
 */
export function count(value: unknown): number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}
