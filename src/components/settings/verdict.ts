import type { Setting } from "obsidian";
import { t } from "../../i18n/t";

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
export function showVerdict(out: HTMLElement, verdict: Verdict): void {
  out.empty();
  out.createDiv({ cls: verdict.ok ? "vault-copilot-verdict-ok" : "vault-copilot-verdict-failed", text: verdict.headline });
  for (const line of verdict.lines ?? []) out.createDiv({ cls: `vault-copilot-check is-${line.outcome}`, text: `${MARKS[line.outcome]} ${line.text}` });
}

/** A check's outcome: the headline, and its lines. */
export interface Verdict {
  ok: boolean;
  headline: string;
  lines?: readonly VerdictLine[];
}

/**
 * A button on a settings row that runs a check (Test connection, Test embeddings server): while
 * it runs the button waits and the row says "Testing…"; then the verdict is drawn under the row's
 * name.
 */
export function addCheckButton(setting: Setting, text: string, check: () => Promise<Verdict>): void {
  const out = setting.infoEl.createDiv({ cls: "vault-copilot-connection-verdict" });
  setting.addButton((button) =>
    button.setButtonText(text).onClick(async () => {
      button.setDisabled(true);
      out.empty();
      out.createDiv({ cls: "vault-copilot-verdict-pending", text: t("settings.testing") });
      try {
        showVerdict(out, await check());
      } finally {
        button.setDisabled(false);
      }
    }),
  );
}
