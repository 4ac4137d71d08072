import { addUsage, costOf, emptyUsage, type TokenUsage } from "../LLMProviders/tokenUsage";
import type { ModelPrices } from "../settings/settingsSchema";

/** Usage and what it cost (null where a model's prices are not entered). */
export interface PricedUsage {
  usage: TokenUsage;
  cost: number | null;
}

/** "1,234 in (1,000 cached) · 56 out · $0.0123": cached reads shown where there were any, cost where known. */
export function formatUsage({ usage, cost }: PricedUsage): string {
  const cached = usage.cacheReadTokens > 0 ? ` (${count(usage.cacheReadTokens)} cached)` : "";
  const parts = [`${count(usage.inputTokens)} in${cached}`, `${count(usage.outputTokens)} out`];
  if (cost !== null) parts.push(formatDollars(cost));
  return parts.join(" · ");
}

/** The line for screen readers: "Tokens: 1234 in, 56 out, 1000 read from the cache, cost $0.012". */
export function usageLabel({ usage, cost }: PricedUsage): string {
  const cached = usage.cacheReadTokens > 0 ? `, ${usage.cacheReadTokens} read from the cache` : "";
  return `Tokens: ${usage.inputTokens} in, ${usage.outputTokens} out${cached}${cost !== null ? `, cost ${formatDollars(cost)}` : ""}`;
}

/** Dollars with enough digits that a cheap turn does not read $0.00. */
export function formatDollars(dollars: number): string {
  if (dollars === 0) return "$0";
  if (dollars < 0.01) return `$${dollars.toPrecision(2)}`;
  return `$${dollars.toFixed(dollars < 1 ? 3 : 2)}`;
}

/**
 * A chat's answers added up. The cost is known only when every answer's model has prices (a sum
 * that left some answers out would understate it).
 */
export function chatUsage(answers: ReadonlyArray<{ usage?: TokenUsage; model?: string }>, pricesOf: (model: string) => ModelPrices | null): PricedUsage {
  const total = emptyUsage();
  let cost: number | null = 0;
  for (const answer of answers) {
    if (!answer.usage) continue;
    addUsage(total, answer.usage);
    const prices = answer.model ? pricesOf(answer.model) : null;
    const answerCost = prices ? costOf(answer.usage, prices) : null;
    cost = cost === null || answerCost === null ? null : cost + answerCost;
  }
  return { usage: total, cost };
}

/**
 * One formatter for every count: `toLocaleString` builds a new one per call, and a chat's total
 * is drawn again at every frame of a streaming answer.
 */
const TOKEN_COUNT = new Intl.NumberFormat("en-US");

function count(tokens: number): string {
  return TOKEN_COUNT.format(tokens);
}
