import { editorInfoField, Notice, Platform, type Plugin } from "obsidian";
import { completer } from "../../editor/completer";
import type { CompletionNotice } from "../../editor/CompletionSession";
import type { CompletionUsage } from "../../editor/completionUsage";
import type { FetchLike } from "../../ports/FetchLike";
import type { NoteSearcher } from "../../ports/NoteSearcher";
import type { SecretStore } from "../../ports/SecretStore";
import { realScheduler } from "../../ports/timers";
import type { CompletionSettings } from "../../settings/settingsSchema";
import { inlineCompletionExtension } from "./inlineCompletionExtension";
import { ENGLISH } from "../../i18n/languages";
import { currentLanguage, t } from "../../i18n/t";

export interface InlineCompletionWiring {
  settings(): CompletionSettings;
  secrets: SecretStore;
  fetch: FetchLike;
  usage: CompletionUsage;
  /** Note search for the related passages the settings may send (the saved chats left out). */
  search: NoteSearcher;
}

/**
 * Adds inline completion to every Markdown editor. It is registered whether or not it is switched
 * on, and reads the settings at each pause, so switching it on or off takes effect without a
 * restart; while off it only clears a timer per keystroke.
 */
export function registerInlineCompletion(plugin: Plugin, wiring: InlineCompletionWiring): void {
  plugin.registerEditorExtension(
    inlineCompletionExtension({
      policy: () => {
        const settings = wiring.settings();
        return { enabled: settings.enabled, pauseMs: settings.pauseMs, onMobile: settings.onMobile, dailyRequestCap: settings.dailyRequestCap, prices: settings.model.prices };
      },
      mobile: Platform.isMobile,
      scheduler: realScheduler,
      usage: wiring.usage,
      complete: completer({
        settings: () => wiring.settings(),
        secrets: wiring.secrets,
        fetch: wiring.fetch,
        search: wiring.search,
        onProblem: (message) => console.warn(`Vault Copilot: ${message}`),
      }),
      notify: (message, notice) => new Notice(t("notice.prefixed", { message: completionNoticeText(message, notice) })),
      notePath: (state) => state.field(editorInfoField, false)?.file?.path ?? "",
    }),
  );
}

/** A completion notice in the interface's language (English: the session's own sentence). */
export function completionNoticeText(message: string, notice: CompletionNotice): string {
  if (currentLanguage() === ENGLISH) return message;
  return notice.kind === "daily-cap" ? t("completion.notice.dailyCap", { count: notice.cap }) : t("completion.notice.failed", { reason: t(`error.${notice.error}`) });
}
