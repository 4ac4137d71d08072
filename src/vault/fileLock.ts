import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import { hostname } from "node:os";
import * as nodePath from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * A lock between processes (two CLIs on one vault) for one file: `.<name>.vault-copilot.lock`
 * beside it, created with O_EXCL, holding who took it. Held from the read of an edit through its
 * rename, so two of our writers never interleave. Obsidian does not take it: against Obsidian
 * the compare right before the rename is what protects an edit (see FsVault.process).
 */
export function lockFileFor(absolute: string): string {
  return nodePath.join(nodePath.dirname(absolute), `.${nodePath.basename(absolute)}.vault-copilot.lock`);
}

const LOCK_NAME = /^\..+\.vault-copilot\.lock$/;

export function isLockFileName(name: string): boolean {
  return LOCK_NAME.test(name);
}

export interface FileLockOptions {
  /** How long to wait for a lock another live process holds before giving up. */
  waitMs: number;
  /** A lock older than this is taken over even if its process seems alive (its pid may be reused). */
  staleMs?: number;
  /** The error to throw when the wait is over (it names what was locked). */
  busy: (holder: string) => Error;
  signal?: AbortSignal;
}

interface LockOwner {
  pid: number;
  host: string;
  at: number;
  token: string;
}

/** Holds `.lock` of a file while `work` runs; a lock whose process died is taken over. */
export async function withFileLock<T>(lockFile: string, work: () => Promise<T>, options: FileLockOptions): Promise<T> {
  const token = await acquire(lockFile, options);
  try {
    return await work();
  } finally {
    await release(lockFile, token);
  }
}

async function acquire(lockFile: string, options: FileLockOptions): Promise<string> {
  const owner: LockOwner = { pid: process.pid, host: hostname(), at: Date.now(), token: randomBytes(8).toString("hex") };
  const began = Date.now();
  for (let attempt = 0; ; attempt++) {
    options.signal?.throwIfAborted();
    try {
      await fs.writeFile(lockFile, JSON.stringify(owner), { flag: "wx", mode: 0o600 });
      return owner.token;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = await readOwner(lockFile);
    if (holder !== undefined && isStale(holder, options.staleMs ?? DEFAULT_STALE_MS)) {
      await breakLock(lockFile);
      continue;
    }
    if (Date.now() - began >= options.waitMs) throw options.busy(holder?.pid ? `process ${holder.pid}` : "another process");
    // Short at first (a note's write takes milliseconds), then backing off.
    await sleep(Math.min(5 * 2 ** Math.min(attempt, 5), 100), undefined, { signal: options.signal });
  }
}

/** Who holds the lock; undefined when it is gone; `{}` fields missing while its owner is still writing them. */
async function readOwner(lockFile: string): Promise<Partial<LockOwner> | undefined> {
  let text: string;
  let modified: number;
  try {
    [text, modified] = await Promise.all([fs.readFile(lockFile, "utf8"), fs.stat(lockFile).then((stats) => stats.mtimeMs)]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as Partial<LockOwner>;
    return { ...parsed, at: typeof parsed.at === "number" ? parsed.at : modified };
  } catch {
    // Created but not yet written (or written by something else): judge by its age alone.
    return { at: modified };
  }
}

/** A lock older than this is taken over even if its process seems alive: no write holds one for so long. */
const DEFAULT_STALE_MS = 30_000;

/** Removes a lock file that a killed process left behind (its process is gone, or it is too old). */
export async function removeIfStaleLock(lockFile: string): Promise<void> {
  const holder = await readOwner(lockFile);
  if (holder !== undefined && isStale(holder, DEFAULT_STALE_MS)) await breakLock(lockFile);
}

function isStale(holder: Partial<LockOwner>, staleMs: number): boolean {
  if (Date.now() - (holder.at ?? 0) > staleMs) return true;
  const sameHost = holder.host === undefined || holder.host === hostname();
  return sameHost && typeof holder.pid === "number" && !isAlive(holder.pid);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Moves a stale lock aside and removes it. Two processes that find the same stale lock at the
 * same moment can still both go ahead; the identity compare before each rename (FsVault) and
 * the re-read in `update` (FsDataStore) still keep either from writing over the other unseen.
 */
async function breakLock(lockFile: string): Promise<void> {
  const aside = `${lockFile}.stale-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    await fs.rename(lockFile, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  await fs.rm(aside, { force: true });
}

/** Removes the lock if it is still ours (a lock taken over as stale belongs to its new owner). */
async function release(lockFile: string, token: string): Promise<void> {
  const holder = await readOwner(lockFile);
  if (holder?.token === token) await fs.rm(lockFile, { force: true });
}
