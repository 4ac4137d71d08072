import { clearTimer, setTimer } from "../ports/timers";
import type { VaultPort } from "./VaultPort";

/**
 * Calls `changed` once things settle after a file under `folder()` was created, changed, deleted
 * or moved in or out (`delayMs` after the last such event), for the libraries that read a folder
 * of notes again as it changes (prompts, projects). Returns the function that stops following.
 */
export function followFolderChanges(vault: VaultPort, folder: () => string, changed: () => void, delayMs: number): () => void {
  let timer: number | undefined;
  const unsubscribe = vault.onChange((event) => {
    const prefix = `${folder().replace(/\/+$/, "")}/`;
    const touched = event.path.startsWith(prefix) || (event.type === "rename" && event.oldPath.startsWith(prefix));
    if (!touched) return;
    clearTimer(timer);
    timer = setTimer(changed, delayMs);
  });
  return () => {
    clearTimer(timer);
    unsubscribe();
  };
}
