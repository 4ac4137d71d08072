import type { UsageSummary } from "../../editor/completionUsage";
import { DEFAULT_CONTEXT_LIMITS } from "../../editor/completionContext";
import { completionSettingsSchema, providerSettingsSchema } from "../../settings/settingsSchema";
import { errorMessage } from "../../errorMessage";
import { priceFieldsRow } from "./modelSettingsRows";
import { PROVIDER_PRESET_DETAILS, type ProviderPresetId } from "./providerPresets";
import { dropdownRow, fieldRow, parseWholeNumber, secretRow, toggleRow, type RowContext, type SettingsRow, type SettingsSection } from "./settingRows";

/** Where the section reads what completions used (the plugin's CompletionUsage). */
export interface CompletionUsageSource {
  summary(now: number): Promise<UsageSummary>;
}

const presetChoices = Object.fromEntries(Object.entries(PROVIDER_PRESET_DETAILS).map(([id, preset]) => [id, preset.label])) as Record<ProviderPresetId, string>;

/** "1,234 requests · 56,789 tokens in / 1,234 out · $0.0123", in the reader's own number format. */
export function usageLine(day: UsageSummary["today"]): string {
  const number = (value: number) => value.toLocaleString();
  const cost = day.cost > 0 ? ` · $${day.cost.toFixed(day.cost < 1 ? 4 : 2)}` : "";
  const unknown = day.unpricedRequests > 0 ? ` (${number(day.unpricedRequests)} without a known cost)` : "";
  return `${number(day.requests)} requests · ${number(day.inputTokens)} tokens in / ${number(day.outputTokens)} out${cost}${unknown}`;
}

function usageRow(source: CompletionUsageSource): SettingsRow {
  return {
    name: "Completions used",
    desc: "Requests, tokens and cost, today and this month.",
    render(setting) {
      const out = setting.infoEl.createDiv({ cls: "vault-copilot-completion-usage" });
      source.summary(Date.now()).then(
        (summary) => {
          out.createDiv({ text: `Today: ${usageLine(summary.today)}` });
          out.createDiv({ text: `This month: ${usageLine(summary.month)}` });
        },
        (error: unknown) => out.createDiv({ text: `The figures could not be read: ${errorMessage(error)}` }),
      );
    },
  };
}

/** "Inline completion": off by default, its own model, and what is sent said plainly. */
export function completionSection(context: RowContext, usage?: CompletionUsageSource): SettingsSection {
  const completion = completionSettingsSchema.shape;
  const model = providerSettingsSchema.shape;
  return {
    heading: "Inline completion",
    rows: [
      toggleRow(context, {
        name: "Suggest while writing",
        desc:
          `Off by default. When on, at each pause while you write, the note's title and up to ${DEFAULT_CONTEXT_LIMITS.before.toLocaleString()} characters before the cursor and ${DEFAULT_CONTEXT_LIMITS.after.toLocaleString()} after it go to the completion model below; ` +
          "its suggestion shows faint after the cursor (Tab takes it, Ctrl/Cmd+→ one word, Escape dismisses it). A local model (Ollama, LM Studio) keeps your notes on this computer.",
        read: (s) => s.completion.enabled,
        write: (s, enabled) => ({ ...s, completion: { ...s.completion, enabled } }),
      }),
      dropdownRow(context, {
        name: "Completion provider",
        desc: "Its own model: a small, fast one answers in time.",
        choices: presetChoices,
        read: (s) => s.completion.model.preset,
        write: (s, preset) => ({ ...s, completion: { ...s.completion, model: { ...s.completion.model, preset, baseUrl: PROVIDER_PRESET_DETAILS[preset].baseUrl ?? s.completion.model.baseUrl } } }),
      }),
      fieldRow(context, {
        name: "Completion base URL",
        desc: "The provider's API root (usually ending in /v1).",
        read: (s) => s.completion.model.baseUrl,
        write: (s, baseUrl) => ({ ...s, completion: { ...s.completion, model: { ...s.completion.model, baseUrl } } }),
        schema: model.baseUrl,
        parse: (text) => text.trim(),
        format: String,
        inputType: "url",
      }),
      fieldRow(context, {
        name: "Completion model",
        desc: "E.g. qwen2.5:1.5b (Ollama) or gpt-4.1-nano.",
        read: (s) => s.completion.model.model,
        write: (s, name) => ({ ...s, completion: { ...s.completion, model: { ...s.completion.model, model: name } } }),
        schema: model.model,
        parse: (text) => text.trim(),
        format: String,
      }),
      secretRow(context, {
        name: "Completion API key",
        desc: "Kept in Obsidian's secret storage. Local servers need none.",
        read: (s) => s.completion.model.apiKeySecretId,
        write: (s, apiKeySecretId) => ({ ...s, completion: { ...s.completion, model: { ...s.completion.model, apiKeySecretId } } }),
      }),
      toggleRow(context, {
        name: "Fill in the middle",
        desc: "OpenAI-compatible servers whose model fills in the middle: the text after the cursor goes as `suffix` to /completions.",
        read: (s) => s.completion.fillInTheMiddle,
        write: (s, fillInTheMiddle) => ({ ...s, completion: { ...s.completion, fillInTheMiddle } }),
      }),
      fieldRow(context, {
        name: "Pause before suggesting",
        desc: "Milliseconds of quiet after your last key (100 to 10,000).",
        read: (s) => s.completion.pauseMs,
        write: (s, pauseMs) => ({ ...s, completion: { ...s.completion, pauseMs } }),
        schema: completion.pauseMs,
        parse: parseWholeNumber,
        format: String,
        inputType: "number",
      }),
      fieldRow(context, {
        name: "Longest suggestion",
        desc: "Most tokens in one suggestion.",
        read: (s) => s.completion.model.maxTokens,
        write: (s, maxTokens) => ({ ...s, completion: { ...s.completion, model: { ...s.completion.model, maxTokens } } }),
        schema: model.maxTokens,
        parse: parseWholeNumber,
        format: String,
        inputType: "number",
      }),
      fieldRow(context, {
        name: "Requests per day",
        desc: "Past this many, suggestions pause until tomorrow.",
        read: (s) => s.completion.dailyRequestCap,
        write: (s, dailyRequestCap) => ({ ...s, completion: { ...s.completion, dailyRequestCap } }),
        schema: completion.dailyRequestCap,
        parse: parseWholeNumber,
        format: String,
        inputType: "number",
      }),
      toggleRow(context, {
        name: "Suggest on mobile",
        desc: "Off by default: each pause spends mobile data and battery.",
        read: (s) => s.completion.onMobile,
        write: (s, onMobile) => ({ ...s, completion: { ...s.completion, onMobile } }),
      }),
      priceFieldsRow(context, {
        name: "Completion prices",
        desc: "US dollars per million tokens, for the cost below.",
        read: (s) => s.completion.model.prices,
        write: (s, prices) => ({ ...s, completion: { ...s.completion, model: { ...s.completion.model, prices } } }),
      }),
      ...(usage ? [usageRow(usage)] : []),
    ],
  };
}
