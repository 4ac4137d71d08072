import { diffWordsWithSpace } from "diff";
import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { APPROVAL_ARMING_MS, type ApprovalDecision, type EditProposal, type ToolCallProposal } from "../../ports/approval";
import { hunkSpot, type HunkSpot } from "../../tools/edit/chosenHunks";
import { buildDiffHunks, countChangedLines, type DiffHunk, type DiffLine } from "../../tools/edit/editDiff";
import { t } from "../../i18n/t";

/**
 * Beyond this many diff lines the card shows the rest of the changes by their place only (each
 * still with its choice), and how many lines it does not show.
 */
const MAX_SHOWN_LINES = 400;
/** Lines longer than this are marked whole instead of word by word. */
const MAX_WORD_DIFF_CHARS = 2_000;
/** How the reason the user typed when rejecting reaches the model: "the user said: <their words>". */
export const REJECTION_REASON_LEAD = "the user said: ";

/** What an approval asks: an edit of a note, or the call of a tool that may change something. */
export type ApprovalAsked = { kind: "edit"; proposal: EditProposal } | { kind: "tool-call"; proposal: ToolCallProposal };

/** The question an approval asks, as its heading: "Edit Notes/x.md?", "Create …?", "Run write_file from fs?". */
export function approvalHeading(asked: ApprovalAsked): string {
  if (asked.kind === "tool-call") return t("approval.run", { tool: asked.proposal.toolName, source: asked.proposal.source });
  return t(asked.proposal.before === null ? "approval.create" : "approval.edit", { path: asked.proposal.path });
}

/**
 * A change the agent asks to make, shown in the conversation where it was asked (and in the
 * dialog a run without a chat asks in): the diff of a note (removed and added lines marked, words
 * within changed lines, a choice per change), or the call of a tool with its arguments, and
 * "Accept" / "Reject". The card never takes the keyboard focus (the chat announces it instead,
 * and it scrolls into view): keys typed in the message box stay there. Accept answers a click,
 * or Mod+Enter inside the card, and nothing in its first moments.
 */
export function ApprovalCard({ approval, onAnswer, headingShown = true }: { approval: ApprovalAsked; onAnswer: (decision: ApprovalDecision) => void; headingShown?: boolean }) {
  const card = useRef<HTMLElement>(null);
  const [reason, setReason] = useState("");
  const armed = useArmed(APPROVAL_ARMING_MS);
  const edit = approval.kind === "edit" ? approval.proposal : null;
  const hunks = useMemo(() => (edit ? buildDiffHunks(edit.before, edit.after) : []), [edit]);
  // The hunks left out (an edit of several changes can be accepted change by change); none at first.
  const [leftOut, setLeftOut] = useState<ReadonlySet<number>>(() => new Set());
  const nothingChosen = hunks.length > 0 && leftOut.size === hunks.length;
  useEffect(() => {
    // A block body: newer browsers return a promise from scrollIntoView, which React would take for a cleanup.
    card.current?.scrollIntoView?.({ block: "nearest" });
  }, []);
  const reject = () => onAnswer({ approved: false, reason: reason.trim() ? `${REJECTION_REASON_LEAD}${reason.trim()}` : "the user rejected it" });
  const accept = () => {
    if (!armed || nothingChosen) return;
    if (leftOut.size === 0) onAnswer({ approved: true });
    else onAnswer({ approved: true, hunks: hunks.map((_, index) => index).filter((index) => !leftOut.has(index)) });
  };
  const choose = (index: number, chosen: boolean) =>
    setLeftOut((current) => {
      const next = new Set(current);
      if (chosen) next.delete(index);
      else next.add(index);
      return next;
    });

  const heading = approvalHeading(approval);
  let body: ReactNode;
  if (approval.kind === "edit") {
    body = <EditDiff hunks={hunks} leftOut={leftOut} onChoose={approval.proposal.before === null ? undefined : choose} />;
  } else {
    body = (
      <>
        <div className="vault-copilot-approval-summary">{t("approval.notReadOnly")}</div>
        <pre className="vault-copilot-approval-args">{JSON.stringify(approval.proposal.arguments, null, 2)}</pre>
      </>
    );
  }
  return (
    <section
      ref={card}
      className="vault-copilot-approval"
      aria-label={heading}
      onKeyDown={(event) => {
        if (event.key === "Enter" && (event.metaKey || event.ctrlKey)) {
          event.preventDefault();
          accept();
        }
      }}
    >
      {headingShown && <div className="vault-copilot-approval-heading">{heading}</div>}
      {body}
      <input
        type="text"
        className="vault-copilot-approval-reason"
        aria-label={t("approval.reason")}
        placeholder={t("approval.reasonPlaceholder")}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        onKeyDown={(event) => {
          // Enter rejects with the reason typed; Mod+Enter is left to the card (Accept).
          if (event.key === "Enter" && !event.metaKey && !event.ctrlKey) {
            event.preventDefault();
            reject();
          }
        }}
      />
      {nothingChosen && <div className="vault-copilot-approval-hint">{t("approval.chooseOne")}</div>}
      <div className="vault-copilot-approval-buttons">
        <button type="button" onClick={reject}>
          {t("approval.reject")}
        </button>
        <button type="button" className="mod-cta" aria-disabled={!armed || nothingChosen} onClick={accept}>
          {t("approval.accept")}
        </button>
      </div>
    </section>
  );
}

/** False for `ms` after the component appears, then true. */
function useArmed(ms: number): boolean {
  const [armed, setArmed] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setArmed(true), ms);
    return () => window.clearTimeout(timer);
  }, [ms]);
  return armed;
}

/**
 * The diff, hunk by hunk. With more than one hunk each has a checkbox, "Apply change 2 of 3
 * (lines 12–14)": a hunk left out is dimmed and Accept writes the others only.
 */
function EditDiff({ hunks, leftOut, onChoose }: { hunks: readonly DiffHunk[]; leftOut: ReadonlySet<number>; onChoose: ((index: number, chosen: boolean) => void) | undefined }) {
  const { added, removed } = countChangedLines(hunks);
  const rows = useMemo(() => diffRows(hunks), [hunks]);
  const choosable = onChoose !== undefined && hunks.length > 1;
  return (
    <>
      <div className="vault-copilot-approval-summary">
        {t("approval.linesChanged", { count: added, removed })}
        {choosable && t("approval.chosen", { count: hunks.length, chosen: hunks.length - leftOut.size })}
      </div>
      <div className="vault-copilot-diff" role="table" aria-label={t("approval.proposedChange")}>
        {rows.shown.map((row, index) => {
          const out = leftOut.has(row.hunk);
          if (row.kind === "hunk" && choosable) {
            const label = t("approval.applyChange", { index: row.hunk + 1, count: hunks.length, place: spotText(hunkSpot(hunks[row.hunk]!)) });
            return (
              <div key={index} role="row" className={`vault-copilot-diff-line vault-copilot-diff-hunk vault-copilot-diff-choice${out ? " is-left-out" : ""}`}>
                <span role="cell" className="vault-copilot-diff-marker">
                  <input type="checkbox" aria-label={label} checked={!out} onChange={(event) => onChoose(row.hunk, event.currentTarget.checked)} />
                </span>
                <span role="cell" className="vault-copilot-diff-text">
                  {t("approval.change", { index: row.hunk + 1, count: hunks.length, place: spotText(hunkSpot(hunks[row.hunk]!)) })}
                  {row.linesHidden ? t("approval.linesNotShown", { count: row.linesHidden }) : ""}
                </span>
              </div>
            );
          }
          return (
            <div key={index} role="row" className={`vault-copilot-diff-line vault-copilot-diff-${row.kind}${out ? " is-left-out" : ""}`}>
              <span role="cell" className="vault-copilot-diff-marker" aria-label={t(`approval.marker.${row.kind}`)}>
                {MARKERS[row.kind]}
              </span>
              <span role="cell" className="vault-copilot-diff-text">
                {row.content}
              </span>
            </div>
          );
        })}
        {hunks.length === 0 && <div className="vault-copilot-diff-empty">{t("approval.noChanges")}</div>}
        {rows.hidden > 0 && <div className="vault-copilot-diff-more">{t("approval.moreLines", { count: rows.hidden })}</div>}
      </div>
    </>
  );
}

/** Where a change is, in words: "lines 12–14", "line 3", "after line 7", "at the start" (line numbers unbroken). */
function spotText(spot: HunkSpot): string {
  if (spot.kind === "start") return t("approval.place.start");
  if (spot.kind === "after") return t("approval.place.after", { line: String(spot.line) });
  if (spot.first === spot.last) return t("approval.place.line", { line: String(spot.first) });
  return t("approval.place.lines", { first: String(spot.first), last: String(spot.last) });
}

type RowKind = DiffLine["kind"] | "hunk";
const MARKERS: Record<RowKind, string> = { added: "+", removed: "−", context: " ", note: "\\", hunk: "⋯" };

interface Row {
  kind: RowKind;
  content: ReactNode;
  /** The hunk the row belongs to. */
  hunk: number;
  /** On a hunk's heading: how many of its lines are past the limit and not shown. */
  linesHidden?: number;
}

/** The rows to show: each hunk's lines, a removed line paired with the added line after it marked word by word. */
function diffRows(hunks: readonly DiffHunk[]): { shown: Row[]; hidden: number } {
  const shown: Row[] = [];
  let hidden = 0;
  hunks.forEach((hunk, hunkIndex) => {
    // A change past the limit keeps its heading (and so its choice); its lines are counted instead.
    const heading: Row = { kind: "hunk", content: hunk.header, hunk: hunkIndex, linesHidden: 0 };
    shown.push(heading);
    const removed = hunk.lines.filter((line) => line.kind === "removed");
    const added = hunk.lines.filter((line) => line.kind === "added");
    for (const line of hunk.lines) {
      if (shown.length >= MAX_SHOWN_LINES) {
        hidden++;
        heading.linesHidden = (heading.linesHidden ?? 0) + 1;
        continue;
      }
      // Pair the n-th removed line of a hunk with its n-th added line (a line that was changed).
      const partner = line.kind === "removed" ? added[removed.indexOf(line)] : line.kind === "added" ? removed[added.indexOf(line)] : undefined;
      shown.push({ kind: line.kind, content: partner ? wordMarks(line, partner) : line.text, hunk: hunkIndex });
    }
  });
  return { shown, hidden };
}

function wordMarks(line: DiffLine, partner: DiffLine): ReactNode {
  if (line.text.length + partner.text.length > MAX_WORD_DIFF_CHARS) return line.text;
  const [oldText, newText] = line.kind === "removed" ? [line.text, partner.text] : [partner.text, line.text];
  return diffWordsWithSpace(oldText, newText).map((change, index) => {
    if (line.kind === "removed" && change.added) return null;
    if (line.kind === "added" && change.removed) return null;
    if (change.added || change.removed) {
      return (
        <mark key={index} className={change.added ? "vault-copilot-word-added" : "vault-copilot-word-removed"}>
          {change.value}
        </mark>
      );
    }
    return <span key={index}>{change.value}</span>;
  });
}
