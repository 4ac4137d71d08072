import type { Clock } from "../ports/Clock";
import type { PlainHttp } from "../net/plainHttp";
import type { CopilotSettings } from "../settings/settingsSchema";
import type { SecretStore } from "../ports/SecretStore";
import type { NoteSearcher } from "../ports/NoteSearcher";
import type { VaultPort } from "../vault/VaultPort";
import type { DocumentSource } from "../documents/DocumentReader";
import type { ApprovalPort } from "../ports/approval";
import type { EditHistory } from "./edit/EditHistory";
import type { PomodoroTimer } from "./pomodoro/PomodoroTimer";
import type { HtmlReader } from "./web/webPage";

/**
 * Everything the built-in tools may use, handed in at the wiring points (`main.ts`, the CLI,
 * tests). Tools close over what they need when they are created; they reach for nothing global.
 */
export interface ToolDependencies {
  /** Null where no vault is open (tools with `requiresVault` are then left out). */
  vault: VaultPort | null;
  clock: Clock;
  /** Plain requests over the fetch port (web search, transcripts, web pages). */
  http: PlainHttp;
  /** How web pages become documents and Markdown here (absent: readWebPage says it cannot read pages). */
  html?: HtmlReader;
  /**
   * The rule a URL the model chose must pass (the private-address rule, `refusedForModel`, when
   * absent). Tests, whose pages can only be served on 127.0.0.1, let their own server through.
   */
  modelUrlRule?: (url: string) => string | null;
  secrets: SecretStore;
  /** Asked before any write, unless the user switched approval off for that tool. */
  approval: ApprovalPort;
  /** The current settings (read at call time, so a change applies to the next call). */
  getSettings: () => CopilotSettings;
  /** The applied edits, shared with the "undo last edit" command; edit tools keep their own when absent. */
  editHistory?: EditHistory;
  /**
   * The pomodoro timer, owned by the wiring so it outlives tool re-creation and stops on unload
   * (Obsidian's shows itself in the status bar). The tool keeps a silent one when absent.
   */
  pomodoroTimer?: PomodoroTimer;
  /** Base URL of YouTube's web pages ("https://www.youtube.com"); tests point it at a local server. */
  youtubeBaseUrl?: string;
  /** The note index behind localSearch (absent until the index is set up; the tool then says so). */
  search?: NoteSearcher;
  /** PDFs and canvases as text, shared with the index (its extraction cache); absent: canvases still read, PDFs say they cannot be. */
  documents?: DocumentSource;
}
