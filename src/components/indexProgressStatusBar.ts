import type { Plugin } from "obsidian";
import type { EmbedderStatus } from "../search/embeddings/Embedder";
import type { IndexProgress } from "../search/reconcile";

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
  let format: Intl.NumberFormat | undefined;
  return ({ phase, done, total }) => {
    if (phase !== "indexing" || total < SHOW_PROGRESS_FROM_NOTES || done >= total) {
      item.hide();
      return;
    }
    format ??= new Intl.NumberFormat();
    item.setText(`Indexing notes ${format.format(done)} / ${format.format(total)}`);
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
  let format: Intl.NumberFormat | undefined;
  return ({ running, waiting, embeddedNotes }) => {
    if (!running || waiting === 0) {
      item.hide();
      return;
    }
    format ??= new Intl.NumberFormat();
    item.setText(`Embedding notes: ${format.format(embeddedNotes)} done, ${format.format(waiting)} waiting`);
    item.show();
  };
}
