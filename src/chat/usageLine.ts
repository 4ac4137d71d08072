import { addUsage, costOf, emptyUsage, type TokenUsage } from "../LLMProviders/tokenUsage";
import type { ModelPrices } from "../settings/settingsSchema";

/** Usage and what it cost (null where a model's prices are not entered). */
export interface PricedUsage {
  usage: TokenUsage;
  cost: number | null;
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
