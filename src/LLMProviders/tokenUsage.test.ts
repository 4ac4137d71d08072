import { addUsage, emptyUsage } from "./tokenUsage";

describe("addUsage", () => {
  it("keeps a long chat's total a whole number: a sum stops at the largest exact integer, a count that is not one adds nothing", () => {
    const total = addUsage(emptyUsage(), { inputTokens: Number.MAX_SAFE_INTEGER - 1, outputTokens: 7 });
    addUsage(total, { inputTokens: 5, outputTokens: Number.NaN, cacheReadTokens: -3, cacheWriteTokens: 2.5 });
    expect(total).toEqual({ inputTokens: Number.MAX_SAFE_INTEGER, outputTokens: 7, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });
});
