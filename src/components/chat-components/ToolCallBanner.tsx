import { useEffect, useState, type MouseEvent } from "react";
import type { ToolCallPartStatus } from "../../chat/chatTypes";
import type { ToolFailure } from "../../errorMessage";
import type { ToolWording } from "../../tools/SimpleTool";
import type { AppliedEditRef } from "../editCommands";
import { REJECTION_REASON_LEAD } from "./ApprovalCard";
import { argumentLines, failureTitle, shownToolError, toolResultSummary } from "./toolResultSummary";
import { t, uiLocale } from "../../i18n/t";

/** Longest argument or result text shown inside a banner (the model may have read more). */
export const MAX_BANNER_TEXT = 2_000;

export interface ToolCallBannerProps {
  toolName: string;
  /** The registry id, when the name was a bound tool's (it picks the result's summary). */
  toolId?: string;
  /** The tool's display name, or its model-facing name when it is not a registered tool. */
  displayName: string;
  wording: ToolWording;
  status: ToolCallPartStatus;
  /** The call waits for the user's approval (shown below the banner): it is not working yet. */
  awaitingApproval?: boolean;
  args: unknown;
  startedAt: number;
  durationMs?: number;
  resultText?: string;
  /** A failed call's kind, worded in the interface's language; the banner says the model's English sentence without it. */
  failure?: ToolFailure;
  output?: unknown;
  /** Set once the user undid the edit this call applied. */
  undone?: { path: string };
  /** Opens a note a hit or an edit names (modifier-click: in a new tab). */
  onOpenNote: (path: string, event: MouseEvent) => void;
  /** For an applied edit: takes it back; resolves with what happened, in words. */
  onUndoEdit?: (edit: AppliedEditRef) => Promise<string>;
}

interface SearchHit {
  path: string;
  title: string;
  heading?: string;
}

interface EditResult {
  status: "applied" | "rejected" | "unchanged";
  path: string;
  created: boolean;
  linesAdded: number;
  linesRemoved: number;
  reason?: string;
  appliedAt?: number;
  /** Set when the user applied only some of the changes proposed. */
  changes?: { applied: number; proposed: number };
}

/** How the folded line reads: the outcome first (never cut), then what it concerns. */
interface BannerLine {
  /** The banner's class: its colour and glyph. Only a call that did what it set out to do is "done" (a green ✓). */
  tone: "running" | "waiting" | "done" | "rejected" | "undone" | "unchanged" | Exclude<ToolCallPartStatus, "running" | "ok">;
  glyph: string;
  outcome: string;
  subject?: string;
  /** A short outcome kept on one line ("Edited +2 −1"); longer ones (a running tool's wording) wrap. */
  whole?: true;
}

/**
 * One tool call in an answer: a line that says how the call went, outcome first ("Rejected ·
 * Plan.md", "Edited +2 −1 · Plan.md", "Undone · Plan.md", "Searched your notes · 3 notes found"),
 * and, opened, what it found, the arguments as `key: value` lines and the text the model read
 * behind "Details". An applied edit offers Undo on the line itself.
 */
export function ToolCallBanner(props: ToolCallBannerProps) {
  const { status } = props;
  const running = status === "running" && !props.awaitingApproval;
  const elapsed = useElapsedSeconds(running ? props.startedAt : null);
  const [undo, setUndo] = useState<{ state: "idle" | "working" | "done"; message?: string }>({ state: "idle" });
  const edit = status === "ok" ? editOf(props.output) : undefined;
  const hits = hitsOf(props.output);
  const line = bannerLine(props, edit);
  const time = running ? t("banner.seconds", { count: elapsed }) : props.durationMs !== undefined ? formatDuration(props.durationMs) : "";
  const label = [line.outcome, line.subject].filter(Boolean).join(" · ");
  const errorSentence = status !== "ok" && status !== "running" ? shownToolError(props.resultText, props.failure) : undefined;
  const undoable = edit?.status === "applied" && !props.undone && props.onUndoEdit && undo.state !== "done";

  return (
    <div className={`vault-copilot-tool-banner is-${line.tone}`} data-tool-name={props.toolName}>
      <details>
        <summary aria-label={`${label}${time ? `, ${time}` : ""}`}>
          <span className="vault-copilot-tool-status" aria-hidden="true">
            {line.glyph}
          </span>
          <span className="vault-copilot-tool-title">
            <span className={`vault-copilot-tool-outcome${line.whole ? " is-whole" : ""}`}>{line.outcome}</span>
            {line.subject && (
              <>
                {" "}
                <span className="vault-copilot-tool-subject">· {line.subject}</span>
              </>
            )}
          </span>
          {time && <span className="vault-copilot-tool-time">{time}</span>}
        </summary>
        <div className="vault-copilot-tool-body">
          {errorSentence && <p className="vault-copilot-tool-error">{errorSentence}</p>}
          {hits && hits.length > 0 && (
            <ul className="vault-copilot-tool-hits">
              {hits.map((hit) => (
                <li key={`${hit.path}#${hit.heading ?? ""}`}>
                  <a className="internal-link" href={hit.path} data-href={hit.path} onClick={(event) => openNote(props, hit.path, event)}>
                    {hit.title}
                  </a>
                  {hit.heading && <span className="vault-copilot-tool-hit-heading"> › {hit.heading}</span>}
                </li>
              ))}
            </ul>
          )}
          {edit && (
            <div className="vault-copilot-tool-edit">
              <a className="internal-link" href={edit.path} data-href={edit.path} onClick={(event) => openNote(props, edit.path, event)}>
                {edit.path}
              </a>
              {edit.status === "rejected" && usersReason(edit.reason) && <span className="vault-copilot-tool-edit-reason">{t("banner.yourReason", { reason: usersReason(edit.reason)! })}</span>}
            </div>
          )}
          <div className="vault-copilot-tool-section-label">{t("banner.arguments")}</div>
          <pre className="vault-copilot-tool-args">{capped(argumentLines(props.args))}</pre>
          {props.resultText !== undefined && (
            <details className="vault-copilot-tool-details">
              <summary>{t("message.details")}</summary>
              <pre className="vault-copilot-tool-result">{capped(props.resultText)}</pre>
            </details>
          )}
        </div>
      </details>
      {undoable && (
        <button
          type="button"
          className="vault-copilot-tool-undo"
          disabled={undo.state === "working"}
          onClick={() => {
            setUndo({ state: "working" });
            void props.onUndoEdit!({ path: edit.path, ...(edit.appliedAt !== undefined ? { appliedAt: edit.appliedAt } : {}) }).then((message) => setUndo({ state: "done", message }));
          }}
        >
          {t("banner.undo")}
        </button>
      )}
      {undo.message && (
        <span className="vault-copilot-tool-undo-result" role="status">
          {undo.message}
        </span>
      )}
    </div>
  );
}

function bannerLine(props: ToolCallBannerProps, edit: EditResult | undefined): BannerLine {
  const { status, wording, displayName } = props;
  if (status === "running") {
    return props.awaitingApproval
      ? { tone: "waiting", glyph: "?", outcome: t("banner.waiting", { pending: wording.pending }) }
      : { tone: "running", glyph: "⋯", outcome: `${wording.running}…` };
  }
  if (status !== "ok") return { tone: status, glyph: "!", outcome: failureTitle(displayName, status) };
  // A chat loaded from its note knows the undo, though not the edit's counts.
  if (props.undone) return { tone: "undone", glyph: "↩", outcome: t("banner.undone"), subject: props.undone.path, whole: true };
  if (!edit) {
    const summary = toolResultSummary(props.toolId, props.output);
    return { tone: "done", glyph: "✓", outcome: wording.done, ...(summary ? { subject: summary } : {}) };
  }
  if (edit.status === "rejected") return { tone: "rejected", glyph: "✕", outcome: t("banner.rejected"), subject: edit.path, whole: true };
  if (edit.status === "unchanged") return { tone: "unchanged", glyph: "=", outcome: t("banner.unchanged"), subject: edit.path, whole: true };
  const counts = edit.created ? `+${edit.linesAdded}` : `+${edit.linesAdded} −${edit.linesRemoved}`;
  const some = edit.changes ? t("banner.someChanges", { applied: edit.changes.applied, count: edit.changes.proposed }) : "";
  return { tone: "done", glyph: "✓", outcome: t(edit.created ? "banner.created" : "banner.edited", { counts }), subject: `${edit.path}${some}`, whole: true };
}

/** The words the user typed when rejecting, without the lead the model reads them with (see ApprovalCard). */
function usersReason(reason: string | undefined): string | undefined {
  return reason?.startsWith(REJECTION_REASON_LEAD) ? reason.slice(REJECTION_REASON_LEAD.length) : undefined;
}

function openNote(props: ToolCallBannerProps, path: string, event: MouseEvent): void {
  event.preventDefault();
  props.onOpenNote(path, event);
}

function useElapsedSeconds(since: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (since === null) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [since]);
  return since === null ? 0 : Math.max(0, Math.floor((now - since) / 1000));
}

function formatDuration(ms: number): string {
  if (ms < 1000) return t("banner.milliseconds", { count: Math.round(ms) });
  return t("banner.seconds", { count: new Intl.NumberFormat(uiLocale(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(ms / 1000) });
}

function capped(text: string): string {
  return text.length > MAX_BANNER_TEXT ? `${text.slice(0, MAX_BANNER_TEXT)}\n${t("banner.moreCharacters", { count: text.length - MAX_BANNER_TEXT })}` : text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function hitsOf(output: unknown): SearchHit[] | undefined {
  if (!isRecord(output) || !Array.isArray(output.hits)) return undefined;
  return output.hits.filter((hit): hit is SearchHit => isRecord(hit) && typeof hit.path === "string" && typeof hit.title === "string");
}

function editOf(output: unknown): EditResult | undefined {
  if (!isRecord(output) || typeof output.path !== "string" || typeof output.linesAdded !== "number") return undefined;
  if (output.status !== "applied" && output.status !== "rejected" && output.status !== "unchanged") return undefined;
  return output as unknown as EditResult;
}
