import { errorMessage } from "../../errorMessage";
import { fieldRow, parseLines, secretRow, toggleRow, type RowContext, type SettingsRow, type SettingsSection } from "./settingRows";
import { embeddingSettingsSchema } from "../../settings/settingsSchema";
import type { FetchLike } from "../../ports/FetchLike";
import type { SecretStore } from "../../ports/SecretStore";
import { testEmbeddings, type EmbeddingsVerdict } from "../../search/embeddings/testEmbeddings";
import { addCheckButton } from "./verdict";
import { ENGLISH } from "../../i18n/languages";
import { currentLanguage, t } from "../../i18n/t";

/** What "Index health" shows: the word index always, the embeddings when switched on. */
export interface IndexHealth {
  notes: number;
  terms: number;
  savedBytes: number;
  lastUpdate: number;
  embeddings: { embeddedNotes: number; sections: number; waiting: number; failed: number; bytes: number; running: boolean; model: string } | null;
}

/** Where the health comes from, and the rebuild button's action. */
export interface IndexHealthSource {
  health(): IndexHealth;
  /** Reads every note again (and embeds again when embeddings are on). */
  rebuild(): Promise<void>;
  /** Called when the figures may have changed; returns what stops listening. */
  onChange(listener: () => void): () => void;
}

/** "1.2 MB", "340 KB". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1_000_000) return `${(bytes / 1_000_000).toFixed(1)} MB`;
  return `${Math.max(0, Math.round(bytes / 1000))} KB`;
}

/** The lines of "Index health", one fact each. */
export function healthLines(health: IndexHealth, now = Date.now()): string[] {
  const updated = health.lastUpdate > 0 ? t("settings.health.minutesAgo", { count: Math.max(0, Math.round((now - health.lastUpdate) / 60_000)) }) : t("settings.health.notSinceStart");
  const lines = [t("settings.health.notes", { notes: health.notes, terms: health.terms }), t("settings.health.size", { size: formatBytes(health.savedBytes) }), t("settings.health.updated", { updated })];
  const embeddings = health.embeddings;
  if (!embeddings) lines.push(t("settings.health.embeddingsOff"));
  else {
    lines.push(
      t("settings.health.embedded", { notes: embeddings.embeddedNotes, sections: embeddings.sections, model: embeddings.model }),
      t(embeddings.running ? "settings.health.waitingNow" : "settings.health.waiting", { count: embeddings.waiting }),
      t("settings.health.failedCount", { count: embeddings.failed }),
      t("settings.health.embeddingsSize", { size: formatBytes(embeddings.bytes) }),
    );
  }
  return lines;
}

function healthRow(source: IndexHealthSource): SettingsRow {
  return {
    name: t("settings.health.name"),
    desc: t("settings.health.desc"),
    render(setting) {
      const out = setting.infoEl.createDiv({ cls: "vault-copilot-index-health" });
      let outcome = "";
      const draw = () => {
        out.empty();
        for (const line of healthLines(source.health())) out.createDiv({ text: line });
        if (outcome) out.createDiv({ cls: "vault-copilot-index-health-outcome", text: outcome });
      };
      draw();
      setting.addButton((button) =>
        button.setButtonText(t("settings.health.rebuild")).onClick(() => {
          button.setDisabled(true);
          outcome = t("settings.health.rebuilding");
          draw();
          source
            .rebuild()
            .then(
              () => (outcome = t("settings.health.rebuilt")),
              (error: unknown) => (outcome = t("settings.health.failed", { reason: errorMessage(error) })),
            )
            .finally(() => {
              button.setDisabled(false);
              draw();
            });
        }),
      );
      return source.onChange(draw);
    },
  };
}

/** "Test" for the embeddings server: one short text embedded with the settings above, the verdict in a sentence. */
function testEmbeddingsRow(context: RowContext, ports: { fetch: FetchLike; secrets: SecretStore }): SettingsRow {
  return {
    name: t("settings.testEmbeddings.name"),
    desc: t("settings.testEmbeddings.desc"),
    render(setting) {
      addCheckButton(setting, t("settings.testEmbeddings.button"), async () => {
        const verdict = await testEmbeddings(context.store.get().embeddings, ports, undefined, { cases: true });
        return { ok: verdict.ok, headline: verdict.ok ? t("settings.testEmbeddings.ok") : t("settings.testEmbeddings.failed"), lines: [{ outcome: verdict.ok ? "yes" : "no", text: embeddingsTestText(verdict) }] };
      });
    },
  };
}

/** "Semantic search": embeddings (off by default, said plainly), a test of the server, and the index's health. */
export function semanticSearchSection(context: RowContext, health?: IndexHealthSource, ports?: { fetch: FetchLike; secrets: SecretStore }): SettingsSection {
  const embeddings = embeddingSettingsSchema.shape;
  return {
    heading: t("settings.semantic"),
    rows: [
      toggleRow(context, {
        name: t("settings.embeddings.name"),
        desc: t("settings.embeddings.desc"),
        read: (s) => s.embeddings.enabled,
        write: (s, enabled) => ({ ...s, embeddings: { ...s.embeddings, enabled } }),
      }),
      fieldRow(context, {
        name: t("settings.embeddingsUrl.name"),
        desc: t("settings.embeddingsUrl.desc"),
        read: (s) => s.embeddings.baseUrl,
        write: (s, baseUrl) => ({ ...s, embeddings: { ...s.embeddings, baseUrl } }),
        schema: embeddings.baseUrl,
        parse: (text) => text.trim(),
        format: String,
        inputType: "url",
      }),
      fieldRow(context, {
        name: t("settings.embeddingsModel.name"),
        desc: t("settings.embeddingsModel.desc"),
        read: (s) => s.embeddings.model,
        write: (s, model) => ({ ...s, embeddings: { ...s.embeddings, model } }),
        schema: embeddings.model,
        parse: (text) => text.trim(),
        format: String,
      }),
      secretRow(context, {
        name: t("settings.embeddingsKey.name"),
        desc: t("settings.embeddingsKey.desc"),
        read: (s) => s.embeddings.apiKeySecretId,
        write: (s, apiKeySecretId) => ({ ...s, embeddings: { ...s.embeddings, apiKeySecretId } }),
      }),
      fieldRow(context, {
        name: t("settings.embedFolders.name"),
        desc: t("settings.embedFolders.desc"),
        read: (s) => s.embeddings.includeFolders,
        write: (s, includeFolders) => ({ ...s, embeddings: { ...s.embeddings, includeFolders } }),
        schema: embeddings.includeFolders,
        parse: parseLines,
        format: (lines) => lines.join("\n"),
        multiline: true,
      }),
      ...(ports ? [testEmbeddingsRow(context, ports)] : []),
      ...(health ? [healthRow(health)] : []),
    ],
  };
}

/** The embeddings test's sentence in the interface's language (English, or a case only its message says: the test's own words). */
export function embeddingsTestText(verdict: EmbeddingsVerdict): string {
  const { said } = verdict;
  if (currentLanguage() === ENGLISH || said === undefined || said.code === "other") return verdict.message;
  if (said.code === "answered") return t("settings.embeddingsTest.answered", { model: said.model, count: said.size });
  return t(`settings.embeddingsTest.${said.code}`, { baseUrl: said.baseUrl, model: said.model });
}
