/** One line of a verdict: what was checked and how it went. */
export interface VerdictLine {
  outcome: "yes" | "no" | "unknown";
  text: string;
}

const MARKS: Record<VerdictLine["outcome"], string> = { yes: "✓", no: "✗", unknown: "?" };

/**
 * Draws a check's verdict under a settings row, as Test connection and the embeddings' Test show
 * it: the headline in Obsidian's success or error colour, then each check on its line, marked and
 * coloured by how it went. Replaces what `out` held.
 */
export function showVerdict(out: HTMLElement, verdict: { ok: boolean; headline: string; lines?: readonly VerdictLine[] }): void {
  out.empty();
  out.createDiv({ cls: verdict.ok ? "vault-copilot-verdict-ok" : "vault-copilot-verdict-failed", text: verdict.headline });
  for (const line of verdict.lines ?? []) out.createDiv({ cls: `vault-copilot-check is-${line.outcome}`, text: `${MARKS[line.outcome]} ${line.text}` });
}

/** "Testing…" while a check runs. */
export function showTesting(out: HTMLElement): void {
  out.empty();
  out.createDiv({ cls: "vault-copilot-verdict-pending", text: "Testing…" });
}
