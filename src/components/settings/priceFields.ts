import { TextComponent } from "obsidian";
import { errorMessage } from "../../errorMessage";
import { modelPricesSchema, type ModelPrices } from "../../settings/settingsSchema";
import { t } from "../../i18n/t";
import type { MessageKey } from "../../i18n/messages";

/** The four prices, in the order they are shown, with their labels. */
export const PRICE_FIELDS: readonly { key: keyof ModelPrices; label: MessageKey }[] = [
  { key: "input", label: "prices.input" },
  { key: "output", label: "prices.output" },
  { key: "cacheRead", label: "prices.cacheRead" },
  { key: "cacheWrite", label: "prices.cacheWrite" },
];

/** One price as typed: empty is "not entered" (null); anything else must be a number of dollars, 0 or more. Throws with a message. */
export function parsePrice(text: string): number | null {
  const trimmed = text.trim().replace(/^\$/, "").replace(",", ".");
  if (trimmed === "") return null;
  const value = Number(trimmed);
  if (!/^\d*\.?\d+$/.test(trimmed) || !modelPricesSchema.shape.input.safeParse(value).success) {
    throw new Error(t("prices.invalid", { text: text.trim() }));
  }
  return value;
}

/**
 * The four labelled price fields (input, output, cache read, cache write; US dollars per million
 * tokens), in `container`. Each field reports its own price as it is typed: `onPrice` gets the
 * key and the price, `onProblem` a message for text that is not one (null once it is fixed).
 * Returns what puts new prices into the fields (a change made elsewhere).
 */
export function priceFields(
  container: HTMLElement,
  prices: ModelPrices,
  onPrice: (key: keyof ModelPrices, price: number | null) => void,
  onProblem: (message: string | null) => void,
): (prices: ModelPrices) => void {
  const grid = container.createDiv({ cls: "vault-copilot-prices" });
  const fields = new Map<keyof ModelPrices, TextComponent>();
  const problems = new Map<keyof ModelPrices, string>();
  for (const { key, label: labelKey } of PRICE_FIELDS) {
    const label = t(labelKey);
    const cell = grid.createEl("label", { cls: "vault-copilot-price" });
    cell.createSpan({ cls: "vault-copilot-price-label", text: label });
    const field = new TextComponent(cell);
    field.inputEl.type = "text";
    field.inputEl.inputMode = "decimal";
    field.inputEl.setAttribute("aria-label", t("prices.label", { label }));
    field.setPlaceholder(key.startsWith("cache") ? t("prices.sameAsInput") : t("prices.notSet"));
    field.setValue(formatPrice(prices[key]));
    field.onChange((text) => {
      try {
        const price = parsePrice(text);
        problems.delete(key);
        onProblem(firstProblem(problems));
        onPrice(key, price);
      } catch (error) {
        problems.set(key, `${label}: ${errorMessage(error)}`);
        onProblem(firstProblem(problems));
      }
    });
    fields.set(key, field);
  }
  return (next) => {
    for (const { key } of PRICE_FIELDS) {
      const field = fields.get(key);
      if (field && !problems.has(key) && parsePriceOrUndefined(field.getValue()) !== next[key]) field.setValue(formatPrice(next[key]));
    }
  };
}

function formatPrice(price: number | null): string {
  return price === null ? "" : String(price);
}

function parsePriceOrUndefined(text: string): number | null | undefined {
  try {
    return parsePrice(text);
  } catch {
    return undefined;
  }
}

function firstProblem(problems: ReadonlyMap<string, string>): string | null {
  return problems.values().next().value ?? null;
}
