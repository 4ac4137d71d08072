import { createRoot, type Root } from "react-dom/client";
import { ToolCallBanner, type ToolCallBannerProps } from "./ToolCallBanner";

/**
 * Every tool-call banner is its own React root, and every root goes through this manager: the
 * chat's components never call `root.render` or `root.unmount` themselves. That is what keeps
 * React's error #409 ("cannot update an unmounted root") out: a root is unmounted only on the tick
 * after it was let go, never while React renders, and a banner rendered again in the meantime takes
 * its root back instead of touching a disposed one.
 */
export interface ToolCallRootEntry {
  root: Root;
  container: HTMLElement;
  isUnmounting: boolean;
  /** The pending next-tick unmount, while `isUnmounting`. */
  unmountTimer?: number;
}

export type MessageToolCallRoots = Map<string, ToolCallRootEntry>;

interface RootRegistry {
  messages: Map<string, { roots: MessageToolCallRoots; touchedAt: number }>;
}

/** Messages whose roots were not touched for this long are let go (see cleanupStaleToolCallRoots). */
export const STALE_ROOT_AGE_MS = 60 * 60 * 1000;

declare global {
  interface Window {
    __copilotToolCallRoots?: RootRegistry;
  }
}

/** The one map of roots, kept on the window so a reloaded bundle finds (and can clean) the old one. */
function registry(): RootRegistry {
  return (window.__copilotToolCallRoots ??= { messages: new Map() });
}

function messageEntry(messageId: string): { roots: MessageToolCallRoots; touchedAt: number } {
  const messages = registry().messages;
  let entry = messages.get(messageId);
  if (!entry) {
    entry = { roots: new Map(), touchedAt: Date.now() };
    messages.set(messageId, entry);
  }
  return entry;
}

/** The roots of one message's tool calls (a stable map: ChatSingleMessage keeps it in `rootsRef`). */
export function getMessageToolCallRoots(messageId: string): MessageToolCallRoots {
  return messageEntry(messageId).roots;
}

/**
 * The root for one tool call in `container`: the existing one (taken back if it was about to be
 * unmounted), or a new one. A root left in another container is disposed on its own timer.
 */
export function ensureToolCallRoot(messageId: string, toolCallId: string, container: HTMLElement): ToolCallRootEntry {
  const message = messageEntry(messageId);
  message.touchedAt = Date.now();
  const existing = message.roots.get(toolCallId);
  if (existing && existing.container === container) {
    if (existing.isUnmounting) {
      window.clearTimeout(existing.unmountTimer);
      existing.isUnmounting = false;
      existing.unmountTimer = undefined;
    }
    return existing;
  }
  if (existing && !existing.isUnmounting) scheduleUnmount(messageId, toolCallId, existing);
  const entry: ToolCallRootEntry = { root: createRoot(container), container, isUnmounting: false };
  message.roots.set(toolCallId, entry);
  return entry;
}

/** Renders the banner of one tool call into its managed root. */
export function renderToolCallBanner(messageId: string, toolCallId: string, container: HTMLElement, props: ToolCallBannerProps): void {
  ensureToolCallRoot(messageId, toolCallId, container).root.render(<ToolCallBanner {...props} />);
}

/** Lets one tool call's root go: unmounted on the next tick, its entry dropped once it is. */
export function removeToolCallRoot(messageId: string, toolCallId: string): void {
  const message = registry().messages.get(messageId);
  const entry = message?.roots.get(toolCallId);
  if (entry && !entry.isUnmounting) scheduleUnmount(messageId, toolCallId, entry);
}

/** Lets every root of a message go (the message left the view); the message's map goes with the last. */
export function cleanupMessageToolCallRoots(messageId: string): void {
  const message = registry().messages.get(messageId);
  if (!message) return;
  for (const toolCallId of [...message.roots.keys()]) removeToolCallRoot(messageId, toolCallId);
  if (message.roots.size === 0) registry().messages.delete(messageId);
}

/** Lets go of the roots of messages not touched for an hour (a message list that never unmounted). */
export function cleanupStaleToolCallRoots(now = Date.now()): void {
  for (const [messageId, message] of [...registry().messages]) {
    if (now - message.touchedAt > STALE_ROOT_AGE_MS) cleanupMessageToolCallRoots(messageId);
  }
}

/** How many roots are alive or being disposed (for tests: none may be left behind). */
export function countToolCallRoots(): number {
  let count = 0;
  for (const message of registry().messages.values()) count += message.roots.size;
  return count;
}

function scheduleUnmount(messageId: string, toolCallId: string, entry: ToolCallRootEntry): void {
  entry.isUnmounting = true;
  entry.unmountTimer = window.setTimeout(() => {
    entry.root.unmount();
    const message = registry().messages.get(messageId);
    // The entry may have been replaced meanwhile (a new container): only this one is dropped.
    if (message?.roots.get(toolCallId) === entry) message.roots.delete(toolCallId);
    if (message?.roots.size === 0) registry().messages.delete(messageId);
  }, 0);
}
