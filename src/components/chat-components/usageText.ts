import type { PricedUsage } from "../../chat/usageLine";
import { t, uiLocale } from "../../i18n/t";

/** "1,234 in (1,000 cached) · 56 out · $0.0123": cached reads shown where there were any, cost where known; numbers the language's way. */
export function formatUsage({ usage, cost }: PricedUsage): string {
  const input = usage.cacheReadTokens > 0 ? t("usage.cached", { tokens: usage.inputTokens, cached: usage.cacheReadTokens }) : t("usage.in", { tokens: usage.inputTokens });
  const parts = [input, t("usage.out", { tokens: usage.outputTokens })];
  if (cost !== null) parts.push(formatDollars(cost));
  return parts.join(" · ");
}

/** The line for screen readers: "Tokens: 1234 in, 56 out, 1000 read from the cache, cost $0.012" (digits unbroken, as a reader says them). */
export function usageLabel({ usage, cost }: PricedUsage): string {
  const counts = { input: String(usage.inputTokens), output: String(usage.outputTokens), cached: String(usage.cacheReadTokens) };
  const tokens = t(usage.cacheReadTokens > 0 ? "usage.labelCached" : "usage.label", counts);
  return cost !== null ? t("usage.labelCost", { usage: tokens, cost: formatDollars(cost) }) : tokens;
}

/** US dollars in the interface's locale, with enough digits that a cheap turn does not read $0.00. */
export function formatDollars(dollars: number, locale = uiLocale()): string {
  const digits: Intl.NumberFormatOptions =
    dollars === 0 ? { maximumFractionDigits: 0 } : dollars < 0.01 ? { minimumSignificantDigits: 2, maximumSignificantDigits: 2 } : { minimumFractionDigits: dollars < 1 ? 3 : 2, maximumFractionDigits: dollars < 1 ? 3 : 2 };
  return new Intl.NumberFormat(locale, { style: "currency", currency: "USD", currencyDisplay: "narrowSymbol", ...digits }).format(dollars);
}
