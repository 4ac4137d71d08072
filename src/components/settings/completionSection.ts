import type { UsageSummary } from "../../editor/completionUsage";
import { DEFAULT_CONTEXT_LIMITS } from "../../editor/completionContext";
import { completionSettingsSchema, providerSettingsSchema } from "../../settings/settingsSchema";
import { errorMessage } from "../../errorMessage";
import { priceFieldsRow } from "./modelSettingsRows";
import { PROVIDER_PRESET_DETAILS, presetChoices } from "./providerPresets";
import { t, uiLocale } from "../../i18n/t";
import { formatDollars } from "../chat-components/usageText";
import { dropdownRow, fieldRow, parseWholeNumber, secretRow, toggleRow, type RowContext, type SettingsRow, type SettingsSection } from "./settingRows";

/** Where the section reads what completions used (the plugin's CompletionUsage). */
export interface CompletionUsageSource {
  summary(now: number): Promise<UsageSummary>;
}

/** "1,234 requests · 56,789 tokens in / 1,234 out · $0.0123", numbers and dollars in the interface's locale. */
export function usageLine(day: UsageSummary["today"], locale = uiLocale()): string {
  const cost = day.cost > 0 ? ` · ${formatDollars(day.cost, locale)}` : "";
  const unknown = day.unpricedRequests > 0 ? t("completion.used.unpriced", { count: day.unpricedRequests }) : "";
  return `${t("completion.used.line", { requests: day.requests, input: day.inputTokens, output: day.outputTokens })}${cost}${unknown}`;
}

function usageRow(source: CompletionUsageSource): SettingsRow {
  return {
    name: t("completion.used.name"),
    desc: t("completion.used.desc"),
    render(setting) {
      const out = setting.infoEl.createDiv({ cls: "vault-copilot-completion-usage" });
      source.summary(Date.now()).then(
        (summary) => {
          out.createDiv({ text: t("completion.used.today", { usage: usageLine(summary.today) }) });
          out.createDiv({ text: t("completion.used.month", { usage: usageLine(summary.month) }) });
        },
        (error: unknown) => out.createDiv({ text: t("completion.used.failed", { reason: errorMessage(error) }) }),
      );
    },
  };
}

/** "Inline completion": off by default, its own model, and what is sent said plainly. */
export function completionSection(context: RowContext, usage?: CompletionUsageSource): SettingsSection {
  const completion = completionSettingsSchema.shape;
  const model = providerSettingsSchema.shape;
  return {
    heading: t("completion.heading"),
    rows: [
      toggleRow(context, {
        name: t("completion.enabled.name"),
        desc: t("completion.enabled.desc", { before: DEFAULT_CONTEXT_LIMITS.before, after: DEFAULT_CONTEXT_LIMITS.after }),
        read: (s) => s.completion.enabled,
        write: (s, enabled) => ({ ...s, completion: { ...s.completion, enabled } }),
      }),
      dropdownRow(context, {
        name: t("completion.provider.name"),
        desc: t("completion.provider.desc"),
        choices: presetChoices(),
        read: (s) => s.completion.model.preset,
        write: (s, preset) => ({ ...s, completion: { ...s.completion, model: { ...s.completion.model, preset, baseUrl: PROVIDER_PRESET_DETAILS[preset].baseUrl ?? s.completion.model.baseUrl } } }),
      }),
      fieldRow(context, {
        name: t("completion.baseUrl.name"),
        desc: t("completion.baseUrl.desc"),
        read: (s) => s.completion.model.baseUrl,
        write: (s, baseUrl) => ({ ...s, completion: { ...s.completion, model: { ...s.completion.model, baseUrl } } }),
        schema: model.baseUrl,
        parse: (text) => text.trim(),
        format: String,
        inputType: "url",
      }),
      fieldRow(context, {
        name: t("completion.model.name"),
        desc: t("completion.model.desc"),
        read: (s) => s.completion.model.model,
        write: (s, name) => ({ ...s, completion: { ...s.completion, model: { ...s.completion.model, model: name } } }),
        schema: model.model,
        parse: (text) => text.trim(),
        format: String,
      }),
      secretRow(context, {
        name: t("completion.key.name"),
        desc: t("completion.key.desc"),
        read: (s) => s.completion.model.apiKeySecretId,
        write: (s, apiKeySecretId) => ({ ...s, completion: { ...s.completion, model: { ...s.completion.model, apiKeySecretId } } }),
      }),
      toggleRow(context, {
        name: t("completion.fim.name"),
        desc: t("completion.fim.desc"),
        read: (s) => s.completion.fillInTheMiddle,
        write: (s, fillInTheMiddle) => ({ ...s, completion: { ...s.completion, fillInTheMiddle } }),
      }),
      toggleRow(context, {
        name: t("completion.related.name"),
        desc: t("completion.related.desc"),
        read: (s) => s.completion.relatedNotes,
        write: (s, relatedNotes) => ({ ...s, completion: { ...s.completion, relatedNotes } }),
      }),
      fieldRow(context, {
        name: t("completion.pause.name"),
        desc: t("completion.pause.desc"),
        read: (s) => s.completion.pauseMs,
        write: (s, pauseMs) => ({ ...s, completion: { ...s.completion, pauseMs } }),
        schema: completion.pauseMs,
        parse: parseWholeNumber,
        format: String,
        inputType: "number",
      }),
      fieldRow(context, {
        name: t("completion.maxTokens.name"),
        desc: t("completion.maxTokens.desc"),
        read: (s) => s.completion.model.maxTokens,
        write: (s, maxTokens) => ({ ...s, completion: { ...s.completion, model: { ...s.completion.model, maxTokens } } }),
        schema: model.maxTokens,
        parse: parseWholeNumber,
        format: String,
        inputType: "number",
      }),
      fieldRow(context, {
        name: t("completion.cap.name"),
        desc: t("completion.cap.desc"),
        read: (s) => s.completion.dailyRequestCap,
        write: (s, dailyRequestCap) => ({ ...s, completion: { ...s.completion, dailyRequestCap } }),
        schema: completion.dailyRequestCap,
        parse: parseWholeNumber,
        format: String,
        inputType: "number",
      }),
      toggleRow(context, {
        name: t("completion.mobile.name"),
        desc: t("completion.mobile.desc"),
        read: (s) => s.completion.onMobile,
        write: (s, onMobile) => ({ ...s, completion: { ...s.completion, onMobile } }),
      }),
      priceFieldsRow(context, {
        name: t("completion.prices.name"),
        desc: t("completion.prices.desc"),
        read: (s) => s.completion.model.prices,
        write: (s, prices) => ({ ...s, completion: { ...s.completion, model: { ...s.completion.model, prices } } }),
      }),
      ...(usage ? [usageRow(usage)] : []),
    ],
  };
}
