import type { Plugin } from "obsidian";
import type { EmbedderStatus } from "../search/embeddings/Embedder";
import type { IndexProgress } from "../search/reconcile";
import { t } from "../i18n/t";

/** Builds of fewer notes than this finish too fast to be worth showing. */
export const SHOW_PROGRESS_FROM_NOTES = 200;

/**
 * The search index's progress in the status bar, for a long first build or a rebuild: shown while
 * notes are read and indexed ("Indexing notes 1,200 / 5,183"), hidden when it is done.
 */
export function createIndexProgressStatusBar(plugin: Plugin): (progress: IndexProgress) => void {
  const item = plugin.addStatusBarItem();
  item.addClass("vault-copilot-index-progress");
  item.hide();
  // Made on first use: the first NumberFormat of a page costs milliseconds that onload should not pay.
  return ({ phase, done, total }) => {
    if (phase !== "indexing" || total < SHOW_PROGRESS_FROM_NOTES || done >= total) {
      item.hide();
      return;
    }
    item.setText(t("status.indexing", { done, total }));
    item.show();
  };
}

/**
 * Embedding's progress in the status bar while notes wait to be embedded ("Embedding notes: 1,200
 * done, 300 waiting"), hidden when the run ends or nothing waits.
 */
export function createEmbeddingProgressStatusBar(plugin: Plugin): (status: EmbedderStatus) => void {
  const item = plugin.addStatusBarItem();
  item.addClass("vault-copilot-embedding-progress");
  item.hide();
  return ({ running, waiting, embeddedNotes }) => {
    if (!running || waiting === 0) {
      item.hide();
      return;
    }
    item.setText(t("status.embedding", { done: embeddedNotes, waiting }));
    item.show();
  };
}
