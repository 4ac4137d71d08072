import type { VaultEvent, VaultPort } from "../../vault/VaultPort";
import { NoteLookup } from "./noteLookup";

/**
 * One NoteLookup per vault, so readNote, the link tools and replaceInFile do not list the whole
 * vault on every call (at 50,000 notes a listing costs about half a second on disk). The lookup
 * follows the vault's events (create, delete, rename); what changes behind the vault's back is
 * caught by the callers, which take a fresh listing on a miss (see `findNote`).
 *
 * Nothing unsubscribes from the outside, so the lookup lets go by itself: the first event after
 * it has gone unused for IDLE_MS unsubscribes it and drops it (no timer keeps a process alive,
 * and an unloaded plugin's lookup is freed on the next vault change after that).
 */
const IDLE_MS = 10 * 60_000;

interface Entry {
  lookup: Promise<NoteLookup>;
  lastUsed: number;
  unsubscribe: () => void;
}

const entries = new WeakMap<VaultPort, Entry>();

/** The vault's lookup, built from one listing the first time and kept current after. */
export function cachedNoteLookup(vault: VaultPort): Promise<NoteLookup> {
  const entry = entries.get(vault) ?? startEntry(vault);
  entry.lastUsed = Date.now();
  return entry.lookup;
}

/** Builds the vault's lookup again from a fresh listing (after a miss that may be stale). */
export function refreshNoteLookup(vault: VaultPort): Promise<NoteLookup> {
  entries.get(vault)?.unsubscribe();
  entries.delete(vault);
  return cachedNoteLookup(vault);
}

function startEntry(vault: VaultPort): Entry {
  const built = new NoteLookup([], vault.configDir);
  // Events that arrive while the listing runs are replayed on top of it, in order.
  const early: VaultEvent[] = [];
  let ready = false;
  const entry: Entry = {
    lastUsed: Date.now(),
    lookup: Promise.resolve(built),
    unsubscribe: () => undefined,
  };
  const unsubscribe = vault.onChange((event) => {
    if (Date.now() - entry.lastUsed > IDLE_MS) {
      unsubscribe();
      if (entries.get(vault) === entry) entries.delete(vault);
      return;
    }
    if (!ready) {
      early.push(event);
      return;
    }
    apply(built, event);
  });
  entry.unsubscribe = unsubscribe;
  entry.lookup = vault.listFiles().then(
    (paths) => {
      for (const path of paths) built.add(path);
      for (const event of early) apply(built, event);
      ready = true;
      return built;
    },
    (error: unknown) => {
      unsubscribe();
      if (entries.get(vault) === entry) entries.delete(vault);
      throw error;
    },
  );
  entries.set(vault, entry);
  return entry;
}

function apply(lookup: NoteLookup, event: VaultEvent): void {
  if (event.type === "create") lookup.add(event.path);
  else if (event.type === "delete") lookup.remove(event.path);
  else if (event.type === "rename") {
    lookup.remove(event.oldPath);
    lookup.add(event.path);
  }
}
