import { useEffect, useState, type MouseEvent } from "react";
import type { ToolCallPartStatus } from "../../chat/chatTypes";
import type { ToolWording } from "../../tools/SimpleTool";

/** Longest argument or result text shown inside a banner (the model may have read more). */
export const MAX_BANNER_TEXT = 2_000;

export interface ToolCallBannerProps {
  toolName: string;
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
  output?: unknown;
  /** Opens a note a hit or an edit names (modifier-click: in a new tab). */
  onOpenNote: (path: string, event: MouseEvent) => void;
  /** For an applied edit: takes it back; resolves with what happened, in words. */
  onUndoEdit?: (path: string) => Promise<string>;
}

interface SearchHit {
  path: string;
  title: string;
  heading?: string;
}

interface AppliedEdit {
  status: "applied" | "rejected" | "unchanged";
  path: string;
  created: boolean;
  linesAdded: number;
  linesRemoved: number;
  reason?: string;
}

/**
 * One tool call in an answer: a line that says what the tool is doing or did, in the tool's own
 * wording, with the arguments and the (capped) result inside when opened. Search hits show as
 * links; an applied edit says what changed and offers Undo.
 */
export function ToolCallBanner(props: ToolCallBannerProps) {
  const { status } = props;
  const running = status === "running" && !props.awaitingApproval;
  const elapsed = useElapsedSeconds(running ? props.startedAt : null);
  const edit = editOf(props.output);
  const hits = hitsOf(props.output);

  const title = bannerTitle(props, edit);
  const time = running ? `${elapsed} s` : props.durationMs !== undefined ? formatDuration(props.durationMs) : "";

  return (
    <details className={`vault-copilot-tool-banner is-${status === "ok" ? "done" : status}`} data-tool-name={props.toolName}>
      <summary aria-label={`${title}${time ? `, ${time}` : ""}`}>
        <span className="vault-copilot-tool-status" aria-hidden="true">
          {running ? "⋯" : status === "ok" ? "✓" : "!"}
        </span>
        <span className="vault-copilot-tool-title">{title}</span>
        {time && <span className="vault-copilot-tool-time">{time}</span>}
      </summary>
      <div className="vault-copilot-tool-body">
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
        {edit && edit.status === "applied" && <EditResult edit={edit} {...props} />}
        <div className="vault-copilot-tool-section-label">Arguments</div>
        <pre className="vault-copilot-tool-args">{capped(formatArgs(props.args))}</pre>
        {props.resultText !== undefined && (
          <>
            <div className="vault-copilot-tool-section-label">Result</div>
            <pre className="vault-copilot-tool-result">{capped(props.resultText)}</pre>
          </>
        )}
      </div>
    </details>
  );
}

function EditResult({ edit, onOpenNote, onUndoEdit }: ToolCallBannerProps & { edit: AppliedEdit }) {
  const [undo, setUndo] = useState<{ state: "idle" | "working" | "done"; message?: string }>({ state: "idle" });
  return (
    <div className="vault-copilot-tool-edit">
      <a className="internal-link" href={edit.path} data-href={edit.path} onClick={(event) => onOpenNote(edit.path, event)}>
        {edit.path}
      </a>
      {onUndoEdit && undo.state !== "done" && (
        <button
          type="button"
          disabled={undo.state === "working"}
          onClick={() => {
            setUndo({ state: "working" });
            void onUndoEdit(edit.path).then((message) => setUndo({ state: "done", message }));
          }}
        >
          Undo
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

function bannerTitle({ status, wording, displayName, awaitingApproval }: ToolCallBannerProps, edit: AppliedEdit | undefined): string {
  if (status === "running") return awaitingApproval ? `${wording.pending} (waiting for your answer)` : `${wording.running}…`;
  if (status === "ok") return edit ? editTitle(edit) : wording.done;
  return `${displayName}: ${STATUS_WORDS[status]}`;
}

const STATUS_WORDS: Record<Exclude<ToolCallPartStatus, "running" | "ok">, string> = {
  "invalid-arguments": "the model sent arguments the tool cannot use",
  error: "failed",
  timeout: "took too long and was stopped",
  aborted: "stopped",
  "unknown-tool": "no such tool is switched on",
};

function editTitle(edit: AppliedEdit): string {
  if (edit.status === "rejected") return `Edit of ${edit.path} rejected`;
  if (edit.status === "unchanged") return `${edit.path} left unchanged`;
  const verb = edit.created ? "Created" : "Edited";
  return `${verb} ${edit.path}: +${edit.linesAdded} −${edit.linesRemoved}`;
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
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function formatArgs(args: unknown): string {
  if (typeof args === "string") return args;
  try {
    return JSON.stringify(args, null, 2) ?? "";
  } catch {
    return String(args);
  }
}

function capped(text: string): string {
  return text.length > MAX_BANNER_TEXT ? `${text.slice(0, MAX_BANNER_TEXT)}\n… ${text.length - MAX_BANNER_TEXT} more characters` : text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function hitsOf(output: unknown): SearchHit[] | undefined {
  if (!isRecord(output) || !Array.isArray(output.hits)) return undefined;
  return output.hits.filter((hit): hit is SearchHit => isRecord(hit) && typeof hit.path === "string" && typeof hit.title === "string");
}

function editOf(output: unknown): AppliedEdit | undefined {
  if (!isRecord(output) || typeof output.path !== "string" || typeof output.linesAdded !== "number") return undefined;
  if (output.status !== "applied" && output.status !== "rejected" && output.status !== "unchanged") return undefined;
  return output as unknown as AppliedEdit;
}

