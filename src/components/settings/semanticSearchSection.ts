import { errorMessage } from "../../errorMessage";
import { fieldRow, parseLines, secretRow, toggleRow, type RowContext, type SettingsRow, type SettingsSection } from "./settingRows";
import { embeddingSettingsSchema } from "../../settings/settingsSchema";
import type { FetchLike } from "../../ports/FetchLike";
import type { SecretStore } from "../../ports/SecretStore";
import { testEmbeddings } from "../../search/embeddings/testEmbeddings";
import { addCheckButton } from "./verdict";

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
  const updated = health.lastUpdate > 0 ? `${Math.max(0, Math.round((now - health.lastUpdate) / 60_000))} min ago` : "not since Obsidian started";
  const lines = [`Notes indexed: ${health.notes} (${health.terms} distinct words)`, `Index size: ${formatBytes(health.savedBytes)}`, `Last update: ${updated}`];
  const embeddings = health.embeddings;
  if (!embeddings) lines.push("Embeddings: off");
  else {
    lines.push(
      `Embedded notes: ${embeddings.embeddedNotes} (${embeddings.sections} sections, ${embeddings.model})`,
      `Waiting: ${embeddings.waiting}${embeddings.running ? " (embedding now)" : ""}`,
      `Failed: ${embeddings.failed}`,
      `Embeddings size: ${formatBytes(embeddings.bytes)}`,
    );
  }
  return lines;
}

function healthRow(source: IndexHealthSource): SettingsRow {
  return {
    name: "Index health",
    desc: "What the search index and the embeddings hold now.",
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
        button.setButtonText("Rebuild").onClick(() => {
          button.setDisabled(true);
          outcome = "Rebuilding…";
          draw();
          source
            .rebuild()
            .then(
              () => (outcome = "Rebuilt."),
              (error: unknown) => (outcome = `The search index could not be rebuilt: ${errorMessage(error)}`),
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
    name: "Test embeddings server",
    desc: "Sends one short sentence to the server above and says whether vectors came back. Works with embeddings off, so you can check before switching them on.",
    render(setting) {
      addCheckButton(setting, "Test", async () => {
        const verdict = await testEmbeddings(context.store.get().embeddings, ports);
        return { ok: verdict.ok, headline: verdict.ok ? "The embeddings server works." : "The embeddings server has a problem.", lines: [{ outcome: verdict.ok ? "yes" : "no", text: verdict.message }] };
      });
    },
  };
}

/** "Semantic search": embeddings (off by default, said plainly), a test of the server, and the index's health. */
export function semanticSearchSection(context: RowContext, health?: IndexHealthSource, ports?: { fetch: FetchLike; secrets: SecretStore }): SettingsSection {
  const embeddings = embeddingSettingsSchema.shape;
  return {
    heading: "Semantic search",
    rows: [
      toggleRow(context, {
        name: "Search by meaning (embeddings)",
        desc: "Off by default. When on, the text of your notes, section by section, is sent to the embeddings server below, and kept as vectors next to the search index. A server on this computer (Ollama, LM Studio) keeps your notes on it; a remote one (such as OpenAI) receives them.",
        read: (s) => s.embeddings.enabled,
        write: (s, enabled) => ({ ...s, embeddings: { ...s.embeddings, enabled } }),
      }),
      fieldRow(context, {
        name: "Embeddings base URL",
        desc: "An OpenAI-compatible API root: Ollama http://127.0.0.1:11434/v1, LM Studio http://127.0.0.1:1234/v1, OpenAI https://api.openai.com/v1.",
        read: (s) => s.embeddings.baseUrl,
        write: (s, baseUrl) => ({ ...s, embeddings: { ...s.embeddings, baseUrl } }),
        schema: embeddings.baseUrl,
        parse: (text) => text.trim(),
        format: String,
        inputType: "url",
      }),
      fieldRow(context, {
        name: "Embeddings model",
        desc: "E.g. nomic-embed-text (Ollama) or text-embedding-3-small (OpenAI). Changing it embeds every note again.",
        read: (s) => s.embeddings.model,
        write: (s, model) => ({ ...s, embeddings: { ...s.embeddings, model } }),
        schema: embeddings.model,
        parse: (text) => text.trim(),
        format: String,
      }),
      secretRow(context, {
        name: "Embeddings API key",
        desc: "Kept in Obsidian's secret storage. Local servers need none.",
        read: (s) => s.embeddings.apiKeySecretId,
        write: (s, apiKeySecretId) => ({ ...s, embeddings: { ...s.embeddings, apiKeySecretId } }),
      }),
      fieldRow(context, {
        name: "Embed only these folders",
        desc: "One folder per line; empty: every note. The excluded folders and patterns of note search are never embedded.",
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
