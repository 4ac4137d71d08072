import { costOf, type TokenUsage } from "../LLMProviders/tokenUsage";
import type { ModelPrices } from "../settings/settingsSchema";
import type { DataStore } from "../vault/VaultPort";

/** The file in the plugin's data folder where completions are counted. */
export const COMPLETION_USAGE_FILE = "completion-usage.json";

/** Days kept: this month and last month's figures, nothing older. */
const DAYS_KEPT = 62;

/** What completions used in one day (or summed over a month). */
export interface DayUsage {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  /** US dollars at the prices the user gave; 0 where no price was given. */
  cost: number;
  /** Requests whose tokens were not priced (no price set) or not reported (stopped before the server said). */
  unpricedRequests: number;
}

export interface UsageSummary {
  today: DayUsage;
  month: DayUsage;
}

type UsageFile = { days: Record<string, DayUsage> };

function emptyDay(): DayUsage {
  return { requests: 0, inputTokens: 0, outputTokens: 0, cost: 0, unpricedRequests: 0 };
}

/** A local calendar day as "2026-12-04": the cap and the figures follow the user's own midnight. */
export function dayKey(time: number): string {
  const date = new Date(time);
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * Counts completion requests and their tokens per day, in the plugin's data folder (never in
 * data.json, which holds settings, and never in a note). A request is counted when it is sent,
 * whether or not it is later stopped (the daily cap counts what was sent); its tokens when the
 * server reports them. Kept in memory after the first read, written after each change.
 */
export class CompletionUsage {
  private file: UsageFile | null = null;
  private writing: Promise<unknown> = Promise.resolve();

  constructor(private readonly store: DataStore) {}

  /** Requests sent today (local time). */
  async requestsToday(now: number): Promise<number> {
    return (await this.load()).days[dayKey(now)]?.requests ?? 0;
  }

  /** Counts a request as sent. */
  async countRequest(now: number): Promise<void> {
    await this.change(now, (day) => {
      day.requests++;
    });
  }

  /** Adds what a request used, at `prices` (per million tokens; a missing price leaves the cost unknown, counted apart). */
  async countUsage(now: number, usage: TokenUsage | null, prices: ModelPrices): Promise<void> {
    await this.change(now, (day) => {
      if (!usage) {
        day.unpricedRequests++;
        return;
      }
      day.inputTokens += usage.inputTokens;
      day.outputTokens += usage.outputTokens;
      const cost = costOf(usage, prices);
      if (cost === null) day.unpricedRequests++;
      else day.cost += cost;
    });
  }

  /** Today's figures and this month's (local time). */
  async summary(now: number): Promise<UsageSummary> {
    const file = await this.load();
    const today = dayKey(now);
    const month = today.slice(0, 7);
    const total = emptyDay();
    for (const [key, day] of Object.entries(file.days)) {
      if (!key.startsWith(month)) continue;
      total.requests += day.requests;
      total.inputTokens += day.inputTokens;
      total.outputTokens += day.outputTokens;
      total.cost += day.cost;
      total.unpricedRequests += day.unpricedRequests;
    }
    return { today: { ...emptyDay(), ...file.days[today] }, month: total };
  }

  /** Settles when every change so far is written. */
  flushed(): Promise<unknown> {
    return this.writing;
  }

  private async change(now: number, apply: (day: DayUsage) => void): Promise<void> {
    const file = await this.load();
    const key = dayKey(now);
    const day = (file.days[key] ??= emptyDay());
    apply(day);
    const kept = Object.keys(file.days).sort().slice(-DAYS_KEPT);
    file.days = Object.fromEntries(kept.map((name) => [name, file.days[name] ?? emptyDay()]));
    const text = JSON.stringify(file);
    this.writing = this.writing.then(() => this.store.write(COMPLETION_USAGE_FILE, text)).catch(() => undefined);
    await this.writing;
  }

  private async load(): Promise<UsageFile> {
    if (this.file) return this.file;
    const text = await this.store.read(COMPLETION_USAGE_FILE).catch(() => null);
    this.file = parseUsage(text);
    return this.file;
  }
}

/** The stored figures, each day checked; an unreadable file or day starts from zero (figures, not data worth an error). */
function parseUsage(text: string | null): UsageFile {
  const days: Record<string, DayUsage> = {};
  try {
    const parsed = JSON.parse(text ?? "{}") as { days?: unknown };
    if (parsed.days && typeof parsed.days === "object") {
      for (const [key, value] of Object.entries(parsed.days as Record<string, unknown>)) {
        if (!/^\d{4}-\d{2}-\d{2}$/.test(key) || !value || typeof value !== "object") continue;
        const record = value as Record<string, unknown>;
        const number = (field: string) => {
          const value = record[field];
          return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
        };
        days[key] = { requests: number("requests"), inputTokens: number("inputTokens"), outputTokens: number("outputTokens"), cost: number("cost"), unpricedRequests: number("unpricedRequests") };
      }
    }
  } catch {
    // Not JSON: counting starts again.
  }
  return { days };
}
