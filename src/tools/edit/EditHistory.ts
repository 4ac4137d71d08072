import { VaultFileNotFoundError, type DataStore, type VaultPort } from "../../vault/VaultPort";

/** One applied edit: enough to put the note back exactly as it was. */
export interface EditRecord {
  toolId: string;
  path: string;
  /** The note's text before the edit, or null when the edit created the note. */
  before: string | null;
  after: string;
  /** Epoch ms. */
  appliedAt: number;
  /** The agent run that made the edit (absent outside a run): a run's edits are never forgotten while it goes on. */
  runId?: string;
}

export type UndoOutcome =
  | { status: "undone"; record: EditRecord; message: string }
  | { status: "refused"; record: EditRecord; message: string }
  | { status: "nothing"; message: string };

export interface EditHistoryOptions {
  /** Most edits kept (the oldest are forgotten first). */
  maxEntries?: number;
  /** Most characters of before/after text kept in total; the newest edit is always kept. */
  maxTotalChars?: number;
  now?: () => number;
}

/** The file in the plugin's data folder that holds the history. */
export const EDIT_HISTORY_FILE = "edit-history.json";

class NoteChangedSinceEditError extends Error {
  constructor() {
    super("the note changed since the edit");
    this.name = "NoteChangedSinceEditError";
  }
}

/**
 * The edits the agent applied, newest last, so the user can take them back one by one. Kept in
 * the plugin's DataStore when one is given (it survives a restart, and the CLI and the plugin
 * share it), else in memory. Every operation re-reads the store, so two instances over one store
 * agree; operations on one instance run one at a time.
 */
export class EditHistory {
  private memory: EditRecord[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private readonly maxEntries: number;
  private readonly maxTotalChars: number;
  private readonly now: () => number;

  constructor(
    private readonly vault: VaultPort,
    private readonly store: DataStore | null = null,
    options: EditHistoryOptions = {},
  ) {
    this.maxEntries = options.maxEntries ?? 50;
    this.maxTotalChars = options.maxTotalChars ?? 5_000_000;
    this.now = options.now ?? Date.now;
  }

  /** Adds an applied edit. A history file that cannot be read is replaced by a fresh one. */
  record(edit: Omit<EditRecord, "appliedAt">): Promise<EditRecord> {
    return this.serialized(async () => {
      const edits = await this.load().catch(() => [] as EditRecord[]);
      const record: EditRecord = { ...edit, appliedAt: this.now() };
      edits.push(record);
      await this.save(this.trimmed(edits));
      return record;
    });
  }

  /** The recorded edits, oldest first. */
  list(): Promise<EditRecord[]> {
    return this.serialized(() => this.load());
  }

  /**
   * Takes back the newest edit: restores the text from before it exactly, or trashes the note
   * it created. Refuses (and keeps the edit) when the note changed since, so nothing the user
   * wrote afterwards is lost.
   */
  undoLast(): Promise<UndoOutcome> {
    return this.serialized(async () => {
      const edits = await this.load();
      const record = edits.at(-1);
      if (!record) return { status: "nothing", message: "There is no Copilot edit to undo." };
      const refuse = (why: string): UndoOutcome => ({
        status: "refused",
        record,
        message: `Cannot undo the last Copilot edit of "${record.path}": ${why}. Nothing was changed.`,
      });

      if (record.before === null) {
        const current = await this.readOrNull(record.path);
        if (current === null) {
          await this.save(edits.slice(0, -1));
          return { status: "undone", record, message: `"${record.path}", which Copilot created, is already gone.` };
        }
        if (current !== record.after) return refuse("the note changed after Copilot created it");
        await this.vault.trash(record.path);
        await this.save(edits.slice(0, -1));
        return { status: "undone", record, message: `Undid Copilot's edit: moved "${record.path}", which it had created, to the trash.` };
      }

      const before = record.before;
      try {
        await this.vault.process(record.path, (current) => {
          if (current !== record.after) throw new NoteChangedSinceEditError();
          return before;
        });
      } catch (error) {
        if (error instanceof NoteChangedSinceEditError) return refuse("the note changed after the edit");
        if (error instanceof VaultFileNotFoundError) return refuse("the note no longer exists (it was moved or deleted)");
        throw error;
      }
      await this.save(edits.slice(0, -1));
      return { status: "undone", record, message: `Undid Copilot's edit of "${record.path}": its previous text is back.` };
    });
  }

  private async readOrNull(path: string): Promise<string | null> {
    try {
      return await this.vault.read(path);
    } catch (error) {
      if (error instanceof VaultFileNotFoundError) return null;
      throw error;
    }
  }

  private trimmed(edits: EditRecord[]): EditRecord[] {
    let kept = edits.slice(-this.maxEntries);
    const size = (record: EditRecord) => (record.before?.length ?? 0) + record.after.length;
    let total = kept.reduce((sum, record) => sum + size(record), 0);
    while (kept.length > 1 && total > this.maxTotalChars) {
      total -= size(kept[0] as EditRecord);
      kept = kept.slice(1);
    }
    return kept;
  }

  private async load(): Promise<EditRecord[]> {
    if (!this.store) return [...this.memory];
    const stored = await this.store.read(EDIT_HISTORY_FILE);
    if (stored === null) return [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(stored);
    } catch (error) {
      throw new Error(`The edit history (${EDIT_HISTORY_FILE}) is unreadable: ${(error as Error).message}`);
    }
    const edits = (parsed as { edits?: unknown } | null)?.edits;
    if (!Array.isArray(edits) || !edits.every(isEditRecord)) {
      throw new Error(`The edit history (${EDIT_HISTORY_FILE}) does not have the expected shape.`);
    }
    return edits;
  }

  private async save(edits: EditRecord[]): Promise<void> {
    if (!this.store) {
      this.memory = edits;
      return;
    }
    await this.store.write(EDIT_HISTORY_FILE, JSON.stringify({ version: 1, edits }));
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

function isEditRecord(value: unknown): value is EditRecord {
  if (!value || typeof value !== "object") return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.toolId === "string" &&
    typeof record.path === "string" &&
    (record.before === null || typeof record.before === "string") &&
    typeof record.after === "string" &&
    typeof record.appliedAt === "number" &&
    (record.runId === undefined || typeof record.runId === "string")
  );
}
