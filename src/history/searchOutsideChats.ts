import type { NoteSearcher } from "../ports/NoteSearcher";
import { toVaultPath } from "../vault/vaultPath";

/**
 * The note search the agent's tools and vault QA use: every note but the saved chats. A chat note
 * holds earlier answers, not the user's knowledge; found by a search, it would have the model cite
 * itself. The history's own search still finds chats by their text (it asks the index directly).
 */
export function searchOutsideChats(searcher: NoteSearcher, historyFolder: () => string, configDir: string): NoteSearcher {
  return {
    search: (query, options) => {
      let outsideFolder: string | undefined;
      try {
        outsideFolder = toVaultPath(historyFolder(), configDir);
      } catch {
        // A history folder the path rule refuses holds no chats (none can be saved there).
      }
      return searcher.search(query, { ...options, ...(outsideFolder !== undefined ? { outsideFolder } : {}) });
    },
  };
}
