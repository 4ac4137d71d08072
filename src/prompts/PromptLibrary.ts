import { followFolderChanges } from "../vault/folderChanges";
import { nameMatchRank } from "../text/fuzzy";
import type { VaultPort } from "../vault/VaultPort";
import { loadPrompts, type CustomPrompt, type PromptNoteError } from "./customPrompt";

/** How long the library waits after a change in the prompts folder before it reads it again. */
const RELOAD_DELAY_MS = 300;

/**
 * The user's prompts, read from the prompts folder and read again when a note in it changes, for
 * the slash menu, the command palette and the editor's menu. A prompt note that cannot be read is
 * reported once per change (the others still load).
 */
export class PromptLibrary {
  private prompts: CustomPrompt[] = [];
  private loaded: Promise<void> | null = null;
  private readonly listeners = new Set<(prompts: readonly CustomPrompt[]) => void>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly vault: VaultPort,
    private readonly folder: () => string,
    private readonly onProblems: (problems: PromptNoteError[]) => void = () => undefined,
  ) {
    this.unsubscribe = followFolderChanges(vault, folder, () => void this.reload(), RELOAD_DELAY_MS);
  }

  /** The prompts, by name (read on first use). */
  async list(): Promise<readonly CustomPrompt[]> {
    await (this.loaded ??= this.reload());
    return this.prompts;
  }

  /** Told the prompts each time they are read again. */
  subscribe(listener: (prompts: readonly CustomPrompt[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async reload(): Promise<void> {
    try {
      const { prompts, problems } = await loadPrompts(this.vault, this.folder());
      this.prompts = prompts;
      if (problems.length > 0) this.onProblems(problems);
    } catch {
      // A prompts folder the path rule refuses holds no prompts.
      this.prompts = [];
    }
    for (const listener of [...this.listeners]) listener(this.prompts);
  }

  dispose(): void {
    this.unsubscribe();
    this.listeners.clear();
  }
}

/** Prompts whose name matches what was typed after "/": starts with it first, then contains it, then has its letters in order. */
export function matchPrompts(prompts: readonly CustomPrompt[], query: string): CustomPrompt[] {
  return prompts
    .flatMap((prompt) => {
      const rank = nameMatchRank(query, prompt.name);
      return rank === null ? [] : [{ prompt, rank }];
    })
    .sort((left, right) => left.rank - right.rank || left.prompt.name.localeCompare(right.prompt.name))
    .map((entry) => entry.prompt);
}
