import { errorMessage } from "../../errorMessage";
import { SerialQueue } from "../../ports/serialQueue";
import { VaultFileNotFoundError, type DataStore, type VaultPort } from "../../vault/VaultPort";
import { hasLoneSurrogate } from "./wellFormedText";

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
  /** Set when the user applied only some of the changes proposed: `after` holds those alone. */
  changes?: { applied: number; proposed: number };
}

/**
 * - undone: the note reads back exactly as before the edit (or the note it created is gone);
 * - refused: nothing was changed and the edit stays in the history (the note changed since);
 * - unrestorable: the edit cannot be taken back exactly, so it left the history (older edits
 *   can be undone next); the message says what the note holds now;
 * - nothing: the history is empty.
 */
export type UndoOutcome =
  | { status: "undone" | "refused" | "unrestorable"; record: EditRecord; message: string; reason: UndoReason }
  | { status: "nothing"; message: string; reason: { code: "nothing" } };

/**
 * What happened, for a view to say in its own language (`message` is the English sentence): the
 * case, with the line where a note reads back differently, and for an edit removed from the
 * history whether an older one is left to undo.
 */
export type UndoReason =
  | { code: "undone" | "undone-created-gone" | "undone-created-trashed" }
  | { code: "refused-changed" | "refused-changed-created" | "refused-gone" }
  | (Unrestorable & { olderLeft: boolean });

/** Why an edit cannot be taken back exactly (it then leaves the history). */
type Unrestorable = { code: "unrestorable-surrogate" | "unrestorable-created-again" | "unrestorable-gone" } | { code: "unrestorable-differs"; line: number };

export interface EditHistoryOptions {
  /** Most edits kept (the oldest are forgotten first; never those of the run that recorded last). */
  maxEntries?: number;
  /** Most characters of before/after text kept in total; the newest run's edits are always kept. */
  maxTotalChars?: number;
  now?: () => number;
}

/** Edits kept by default: one run can make 100 and more (50 steps, several edits a step). */
export const DEFAULT_MAX_EDITS = 200;

/** The file in the plugin's data folder that holds the history. */
export const EDIT_HISTORY_FILE = "edit-history.json";

/** Why the stored edit history cannot be read, by case, for a view in another language (`file`: its name). */
export type EditHistoryProblem = { code: "not-json"; file: string; detail: string } | { code: "wrong-shape"; file: string };

/** The stored edit history is not one we can read: undo refuses rather than guess. */
export class EditHistoryUnreadableError extends Error {
  constructor(
    message: string,
    readonly problem: EditHistoryProblem,
  ) {
    super(message);
    this.name = "EditHistoryUnreadableError";
  }
}

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
  private readonly queue = new SerialQueue();
  private readonly maxEntries: number;
  private readonly maxTotalChars: number;
  private readonly now: () => number;

  constructor(
    private readonly vault: VaultPort,
    private readonly store: DataStore | null = null,
    options: EditHistoryOptions = {},
  ) {
    this.maxEntries = options.maxEntries ?? DEFAULT_MAX_EDITS;
    this.maxTotalChars = options.maxTotalChars ?? 5_000_000;
    this.now = options.now ?? Date.now;
  }

  /** Adds an applied edit. A history file that cannot be read is replaced by a fresh one. */
  record(edit: Omit<EditRecord, "appliedAt">): Promise<EditRecord> {
    return this.serialized(async () => {
      const record: EditRecord = { ...edit, appliedAt: this.now() };
      await this.change((edits) => this.trimmed([...edits, record]), { replaceUnreadable: true });
      return record;
    });
  }

  /** The recorded edits, oldest first. */
  list(): Promise<EditRecord[]> {
    return this.serialized(() => this.load());
  }

  /**
   * Takes back the newest edit: restores the text from before it exactly, or trashes the note
   * it created, then reads the note again and says "undone" only if it is exactly as before.
   * Refuses (and keeps the edit) when the note changed since, so nothing the user wrote
   * afterwards is lost. An edit that can never be restored exactly leaves the history with a
   * message, so it does not stand in front of the older ones for good.
   */
  undoLast(): Promise<UndoOutcome> {
    return this.serialized(async () => {
      const edits = await this.load();
      const record = edits.at(-1);
      if (!record) return { status: "nothing", message: "There is no Copilot edit to undo.", reason: { code: "nothing" } };
      const older = edits.slice(0, -1);
      // Only this record leaves the history: one another process added meanwhile stays.
      const forget = () => this.change((stored) => stored.filter((entry) => !sameRecord(entry, record)));
      const refuse = (why: string, code: "refused-changed" | "refused-changed-created" | "refused-gone"): UndoOutcome => ({
        status: "refused",
        record,
        message: `Cannot undo the last Copilot edit of "${record.path}": ${why}. Nothing was changed.`,
        reason: { code },
      });
      const drop = async (message: string, reason: Unrestorable): Promise<UndoOutcome> => {
        await forget();
        const next = older.length > 0 ? " Run the command again to undo the edit before it." : "";
        return { status: "unrestorable", record, message: `${message} The edit was removed from the edit history.${next}`, reason: { ...reason, olderLeft: older.length > 0 } };
      };

      if (hasLoneSurrogate(record.after) || (record.before !== null && hasLoneSurrogate(record.before))) {
        return drop(
          `The last Copilot edit of "${record.path}" cannot be undone: its text holds a lone surrogate (half of a character), ` +
            "which no note can store, so the note can never match it. Nothing was changed.",
          { code: "unrestorable-surrogate" },
        );
      }

      if (record.before === null) {
        const current = await this.readOrNull(record.path);
        if (current === null) {
          await forget();
          return { status: "undone", record, message: `"${record.path}", which Copilot created, is already gone.`, reason: { code: "undone-created-gone" } };
        }
        if (current !== record.after) return refuse("the note changed after Copilot created it", "refused-changed-created");
        await this.vault.trash(record.path);
        if ((await this.readOrNull(record.path)) !== null) {
          return drop(`Undo moved "${record.path}", which Copilot created, to the trash, but a note of that name is there again.`, { code: "unrestorable-created-again" });
        }
        await forget();
        return { status: "undone", record, message: `Undid Copilot's edit: moved "${record.path}", which it had created, to the trash.`, reason: { code: "undone-created-trashed" } };
      }

      const before = record.before;
      try {
        await this.vault.process(record.path, (current) => {
          if (current !== record.after) throw new NoteChangedSinceEditError();
          return before;
        });
      } catch (error) {
        if (error instanceof NoteChangedSinceEditError) return refuse("the note changed after the edit", "refused-changed");
        if (error instanceof VaultFileNotFoundError) return refuse("the note no longer exists (it was moved or deleted)", "refused-gone");
        throw error;
      }
      const restored = await this.readOrNull(record.path);
      if (restored !== before) {
        const line = restored === null ? undefined : firstDifferentLine(restored, before);
        const where = line === undefined ? "it is gone" : `it differs from line ${line} on`;
        return drop(
          `Undo wrote the previous text of "${record.path}" back, but the note does not read back as it was before the edit (${where}): ` +
            "another program may have changed it at the same moment. Check the note.",
          line === undefined ? { code: "unrestorable-gone" } : { code: "unrestorable-differs", line },
        );
      }
      await forget();
      const some = record.changes ? ` (the ${record.changes.applied} of ${record.changes.proposed} changes you had applied)` : "";
      return { status: "undone", record, message: `Undid Copilot's edit of "${record.path}"${some}: its previous text is back.`, reason: { code: "undone" } };
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

  /**
   * The edits to keep: the newest that fit both limits, oldest forgotten first, and always every
   * edit of the run that recorded last (a run's edits are undone newest first, so one forgotten
   * in the middle would leave the ones before it stuck).
   */
  private trimmed(edits: EditRecord[]): EditRecord[] {
    const currentRun = edits.at(-1)?.runId;
    const size = (record: EditRecord) => (record.before?.length ?? 0) + record.after.length;
    const kept: EditRecord[] = [];
    let total = 0;
    let full = false;
    for (let index = edits.length - 1; index >= 0; index--) {
      const record = edits[index] as EditRecord;
      const ofCurrentRun = index === edits.length - 1 || (currentRun !== undefined && record.runId === currentRun);
      full ||= kept.length >= this.maxEntries || total + size(record) > this.maxTotalChars;
      if (full && !ofCurrentRun) continue;
      kept.push(record);
      total += size(record);
    }
    return kept.reverse();
  }

  private async load(): Promise<EditRecord[]> {
    if (!this.store) return [...this.memory];
    return parseHistory(await this.store.read(EDIT_HISTORY_FILE));
  }

  /**
   * Changes the stored history in one step of the store (`DataStore.update`: under its lock, with
   * a compare before the write), so an edit recorded by another process meanwhile is not lost.
   */
  private async change(edit: (edits: EditRecord[]) => EditRecord[], options: { replaceUnreadable?: boolean } = {}): Promise<void> {
    if (!this.store) {
      this.memory = edit([...this.memory]);
      return;
    }
    await this.store.update(EDIT_HISTORY_FILE, (stored) => {
      let edits: EditRecord[];
      try {
        edits = parseHistory(stored);
      } catch (error) {
        if (!options.replaceUnreadable) throw error;
        edits = [];
      }
      return JSON.stringify({ version: 1, edits: edit(edits) });
    });
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    return this.queue.run(work);
  }
}

function sameRecord(a: EditRecord, b: EditRecord): boolean {
  return a.appliedAt === b.appliedAt && a.path === b.path && a.toolId === b.toolId && a.after === b.after && a.before === b.before;
}

/** The stored history's edits (none when nothing is stored); throws when the file is not one. */
function parseHistory(stored: string | null): EditRecord[] {
  {
    if (stored === null) return [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(stored);
    } catch (error) {
      throw new EditHistoryUnreadableError(`The edit history (${EDIT_HISTORY_FILE}) is unreadable: ${errorMessage(error)}`, { code: "not-json", file: EDIT_HISTORY_FILE, detail: errorMessage(error) });
    }
    const edits = (parsed as { edits?: unknown } | null)?.edits;
    if (!Array.isArray(edits) || !edits.every(isEditRecord)) {
      throw new EditHistoryUnreadableError(`The edit history (${EDIT_HISTORY_FILE}) does not have the expected shape.`, { code: "wrong-shape", file: EDIT_HISTORY_FILE });
    }
    return edits;
  }
}

/** The 1-based line where two texts first differ. */
function firstDifferentLine(a: string, b: string): number {
  let index = 0;
  while (index < a.length && index < b.length && a[index] === b[index]) index++;
  return a.slice(0, index).split("\n").length;
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
    (record.runId === undefined || typeof record.runId === "string") &&
    (record.changes === undefined || isChanges(record.changes))
  );
}

function isChanges(value: unknown): boolean {
  if (!value || typeof value !== "object") return false;
  const changes = value as Record<string, unknown>;
  return Number.isInteger(changes.applied) && Number.isInteger(changes.proposed);
}
