import { NoteLookup, parseNoteReference } from "../tools/notes/noteLookup";
import { scanNoteMetadata } from "../tools/notes/vaultScan";
import { pathKey } from "../vault/vaultPath";
import type { LinkInfo, VaultEvent, VaultPort } from "../vault/VaultPort";
import type { ProjectDefinition } from "./projectNote";

/**
 * Which files of the vault a project holds: those in its folders, the notes its links name, and
 * the notes carrying one of its tags (or a tag nested under one). The projects folder and the
 * saved chats are never in a project (a project note could widen its own scope, and a chat note
 * holds answers from other projects), nor is the config folder (no vault lists it).
 *
 * The members are worked out once (`prepare`: a listing, and the notes' tags when the project
 * has tags) and kept current from the vault's events, so `has` is a set lookup: the search
 * filter asks it for every candidate note. `contains` asks the rule itself for one path, for the
 * reads and writes that must not trust a set an event may not have reached yet.
 */
export class ProjectScope {
  private readonly members = new Set<string>();
  /** The whole vault's notes, for the project's links and for links out of the project. */
  private lookup: NoteLookup | null = null;
  private linked = new Set<string>();
  private readonly folderKeys: string[];
  private readonly tagKeys: string[];
  private prepared: Promise<void> | null = null;
  /** Tag checks started by events, awaited before the next answer that relies on the members. */
  private pending: Promise<void> = Promise.resolve();
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly vault: VaultPort,
    readonly project: ProjectDefinition,
    /** Folders no project holds (the projects folder, the saved chats), as vault paths. */
    private readonly excludedFolders: readonly string[],
  ) {
    this.folderKeys = project.folders.map((folder) => `${pathKey(folder)}/`);
    this.tagKeys = project.tags.map((tag) => pathKey(tag));
  }

  /** Works out the members (once; later calls wait for the same work and for checks events started). */
  async prepare(signal?: AbortSignal): Promise<void> {
    this.prepared ??= this.build(signal ?? new AbortController().signal).catch((error: unknown) => {
      this.prepared = null;
      throw error;
    });
    await this.prepared;
    await this.pending;
  }

  /** Whether `path` is a member (after `prepare`): a set lookup, for filters over many paths. */
  has(path: string): boolean {
    return this.members.has(path);
  }

  /** Whether `path` belongs to the project by the rule itself, reading its tags when that decides. */
  async contains(path: string): Promise<boolean> {
    await this.prepare();
    if (this.isExcluded(path)) return false;
    if (this.inFolders(path)) return true;
    if (this.linked.has(path)) return true;
    if (this.tagKeys.length === 0 || !path.toLowerCase().endsWith(".md")) return false;
    const metadata = await this.vault.getMetadata(path).catch(() => null);
    return metadata !== null && this.carriesTag(metadata.tags);
  }

  /** Whether a new file may be made at `path`: only inside one of the project's folders. */
  canCreate(path: string): boolean {
    return !this.isExcluded(path) && this.inFolders(path);
  }

  /** The note a link in `sourcePath` points to in the whole vault, or null (after `prepare`). */
  resolveLink(link: LinkInfo, sourcePath: string): string | null {
    return this.lookup?.resolveLink(link, sourcePath) ?? null;
  }

  /** The members, for listings (after `prepare`). */
  memberPaths(): string[] {
    return [...this.members];
  }

  /** Stops following the vault. */
  dispose(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private async build(signal: AbortSignal): Promise<void> {
    // Events are followed from before the listing, so nothing that changes meanwhile is missed.
    this.unsubscribe ??= this.vault.onChange((event) => this.onVaultEvent(event));
    const files = await this.vault.listFiles();
    signal.throwIfAborted();
    this.lookup = new NoteLookup(files, this.vault.configDir);
    for (const path of files) if (this.inFolders(path)) this.admit(path);
    this.resolveLinks();
    if (this.tagKeys.length > 0) {
      await scanNoteMetadata(this.vault, signal, (path, metadata) => {
        if (this.carriesTag(metadata.tags)) this.admit(path);
      });
    }
  }

  /** Makes `path` a member, unless it is in a folder no project holds (so `has` is the set alone). */
  private admit(path: string): void {
    if (!this.isExcluded(path)) this.members.add(path);
  }

  private onVaultEvent(event: VaultEvent): void {
    const lookup = this.lookup;
    if (event.type === "delete" || event.type === "rename") {
      const gone = event.type === "rename" ? event.oldPath : event.path;
      this.members.delete(gone);
      lookup?.remove(gone);
    }
    if (event.type === "delete") {
      this.resolveLinks();
      return;
    }
    if (event.type !== "modify") {
      lookup?.add(event.path);
      this.resolveLinks();
    }
    const path = event.path;
    if (this.inFolders(path)) {
      this.admit(path);
      return;
    }
    if (this.tagKeys.length === 0 || !path.toLowerCase().endsWith(".md")) return;
    // A note's tags can bring it in or take it out: checked in order, awaited by the next prepare.
    this.pending = this.pending.then(async () => {
      const metadata = await this.vault.getMetadata(path).catch(() => null);
      if (metadata && this.carriesTag(metadata.tags)) this.admit(path);
      else if (!this.linked.has(path)) this.members.delete(path);
    });
  }

  /** Works out which notes the project's links name (again after a note came, went or moved). */
  private resolveLinks(): void {
    if (!this.lookup || this.project.notes.length === 0) return;
    const next = new Set<string>();
    for (const written of this.project.notes) {
      const found = this.lookup.resolve(parseNoteReference(written).target);
      if (found) next.add(found);
    }
    for (const path of this.linked) if (!next.has(path) && !this.inFolders(path)) this.members.delete(path);
    for (const path of next) this.admit(path);
    this.linked = next;
  }

  private inFolders(path: string): boolean {
    if (this.folderKeys.length === 0) return false;
    const key = pathKey(path);
    return this.folderKeys.some((folder) => key.startsWith(folder));
  }

  private isExcluded(path: string): boolean {
    return this.excludedFolders.some((folder) => folder !== "" && (path === folder || path.startsWith(`${folder}/`)));
  }

  private carriesTag(tags: readonly string[]): boolean {
    return tags.some((tag) => {
      const key = pathKey(tag.startsWith("#") ? tag : `#${tag}`);
      return this.tagKeys.some((wanted) => key === wanted || key.startsWith(`${wanted}/`));
    });
  }
}
