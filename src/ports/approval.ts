/**
 * Asking the user before a tool writes. In Obsidian the answer comes from a diff view with Accept
 * and Reject; in the CLI from `--yes` (approve all) or nothing (it cannot ask, so it refuses).
 */
export interface EditProposal {
  /** The tool asking (e.g. "replaceInFile"); per-tool auto-approval is keyed by its id. */
  toolId: string;
  /** Vault-relative path of the note. */
  path: string;
  /** The note's text now, or null when the note is to be created. */
  before: string | null;
  after: string;
}

/**
 * How long an approval that has just appeared ignores its approve button (ms), in the chat and in
 * the dialogs alike. It may appear while the user is typing or about to click where it now sits;
 * what they meant for something else must not approve a change.
 */
export const APPROVAL_ARMING_MS = 700;

/**
 * The user's answer. An edit accepted with `hunks` applies only those hunks of its diff (indices
 * into `buildDiffHunks(before, after)`, the diff the approval shows); without, all of it.
 */
export type ApprovalDecision = { approved: true; hunks?: readonly number[] } | { approved: false; reason: string };

export interface ApprovalPort {
  requestApproval(proposal: EditProposal, signal: AbortSignal): Promise<ApprovalDecision>;
}

/** Approves everything (the CLI's `--yes`). */
export const approveAll: ApprovalPort = {
  requestApproval: () => Promise.resolve({ approved: true }),
};

/** Refuses everything, saying why (the CLI without `--yes`: there is nobody to ask). */
export function refuseAll(reason: string): ApprovalPort {
  return { requestApproval: () => Promise.resolve({ approved: false, reason }) };
}

/** A call of an MCP tool: every one is asked about unless the user auto-approved its id (a server's read-only hint is not trusted). */
export interface ToolCallProposal {
  toolId: string;
  /** Where the tool comes from, e.g. the MCP server's name. */
  source: string;
  toolName: string;
  arguments: unknown;
}

export interface ToolCallApprovalPort {
  requestToolCallApproval(proposal: ToolCallProposal, signal: AbortSignal): Promise<ApprovalDecision>;
}

/**
 * Where the questions of one run go, both kinds: the chat that started the run, which shows them
 * in its conversation. A run carries it to every tool call it makes (`ToolCallContext.approvals`),
 * so two chats running at once each ask only about their own calls.
 */
export interface RunApprovals extends ApprovalPort, ToolCallApprovalPort {}

/** Approves every tool call (the CLI's `--yes`). */
export const approveAllToolCalls: ToolCallApprovalPort = {
  requestToolCallApproval: () => Promise.resolve({ approved: true }),
};

/** Refuses every tool call, saying why. */
export function refuseAllToolCalls(reason: string): ToolCallApprovalPort {
  return { requestToolCallApproval: () => Promise.resolve({ approved: false, reason }) };
}

/** Approves every edit and every tool call (the CLI's `--yes`). */
export const approveEverything: RunApprovals = { ...approveAll, ...approveAllToolCalls };

/** Refuses every edit and every tool call, saying why (the CLI without `--yes`: there is nobody to ask). */
export function refuseEverything(reason: string): RunApprovals {
  return { ...refuseAll(reason), ...refuseAllToolCalls(reason) };
}
