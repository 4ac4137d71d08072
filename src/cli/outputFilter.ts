import { basename, isAbsolute, resolve } from "node:path";
import { redactSecrets } from "../settings/secrets";

/**
 * Everything the CLI prints passes through here, because what it prints is partly other people's
 * text: a model server's error may echo the API key, a note or an answer may carry terminal escape
 * sequences (which can retitle the window, clear the screen or forge output), and an error may
 * name files of the machine the user never meant to show.
 *
 * - Secrets (the value of `--api-key-env`'s variable, and those added later with `addSecret`) and
 *   base-URL passwords become "[redacted]",
 *   on both streams.
 * - Control characters other than newline and tab (C0, C1, whole ESC sequences) are removed from
 *   stderr and from plain stdout. `--json` output is left as is: JSON escapes control characters
 *   itself, and the events must keep the model's exact text.
 * - Absolute paths outside the vault become "…/name" on stderr and in JSON output (the messages);
 *   the vault's own paths and the paths the user typed stay. A plain answer on stdout is the
 *   model's text and is not rewritten.
 * Text arrives in pieces (streamed deltas), so an escape sequence cut between two pieces is held
 * back until it is complete, and so is the end of a plain answer's piece that may be the start of
 * a secret (never past a line break, so a finished line is always printed). In `--json` output
 * each event is redacted on its own: a secret cut between two `text-delta` events is not caught.
 */
export interface CliOutputFilter {
  stdout(text: string): string;
  stderr(text: string): string;
  /** A value learnt later (an MCP config file's env and headers) to redact from then on. */
  addSecret(value: string): void;
}

const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/:@]*:)[^\s/@]+@/gi;
const CONTROL =
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  /\x1b\[[0-?]*[ -/]*[@-~]|\x1b[\]PX^_][\s\S]*?(?:\x07|\x1b\\)|\x1b[ -~]?|\x9b[0-?]*[ -/]*[@-~]|[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
/** An escape sequence that may still be completed by the next piece (a string sequence is waited for up to 256 characters, so an unterminated one cannot swallow the answer). */
// eslint-disable-next-line no-control-regex -- see CONTROL
const INCOMPLETE_TAIL = /(?:\x1b(?:\[[0-?]*[ -/]*|[\]PX^_][^\x07]{0,256})?|\x9b[0-?]*[ -/]*)$/;
const ABSOLUTE_PATH = /(?<![\w.~:/\\-])(?:\/|[A-Za-z]:\\)[^\s'"`<>|;,()[\]{}]+/g;

export function cliOutputFilter(argv: readonly string[], env: Record<string, string | undefined>): CliOutputFilter {
  const values = flagValues(argv);
  const keyVariable = values.get("api-key-env");
  const key = keyVariable ? env[keyVariable] : undefined;
  const secrets: string[] = key ? [key] : [];
  const vault = values.get("vault");
  const vaultRoots = vault ? [vault, resolve(vault)].map((root) => root.replace(/[/\\]+$/, "")) : [];
  const typedPaths = new Set(argv.flatMap((argument) => [argument, argument.slice(argument.indexOf("=") + 1)]).filter((text) => isAbsolute(text)));
  const json = argv.includes("--json") || values.has("queries");

  const isShown = (path: string) =>
    typedPaths.has(path) || vaultRoots.some((root) => path === root || path.startsWith(`${root}/`) || path.startsWith(`${root}\\`));
  const scrubPaths = (text: string) =>
    text.replace(ABSOLUTE_PATH, (match) => {
      // "… /tmp/x.json: ENOENT": a sentence's punctuation is not part of the path.
      const path = match.replace(/[.:!?]+$/, "");
      const rest = match.slice(path.length);
      return `${isShown(path) ? path : `…/${basename(path)}`}${rest}`;
    });
  const redact = (text: string) => redactSecrets(text, secrets).replace(URL_PASSWORD, "$1[redacted]@");
  const plainStdout = controlStripper();
  const plainAnswer = secretHolder(secrets);
  const plainStderr = controlStripper();

  return {
    stdout: (text) => (json ? scrubPaths(redact(text)) : plainStdout(redact(plainAnswer(text)))),
    stderr: (text) => plainStderr(scrubPaths(redact(text))),
    addSecret: (value) => {
      if (!secrets.includes(value)) secrets.push(value);
    },
  };
}

/**
 * Holds back the end of a streamed piece while it may be the start of a secret, so the whole
 * secret reaches the redaction in one piece. A held tail never spans a line break.
 */
function secretHolder(secrets: readonly string[]): (text: string) => string {
  let pending = "";
  return (text) => {
    const whole = pending + text;
    let held = 0;
    for (const secret of secrets) {
      for (let length = Math.min(secret.length - 1, whole.length); length > held; length--) {
        if (whole.endsWith(secret.slice(0, length))) {
          held = length;
          break;
        }
      }
    }
    pending = whole.slice(whole.length - held);
    if (pending.includes("\n")) pending = "";
    return whole.slice(0, whole.length - pending.length);
  };
}

/** Removes control characters, holding back an escape sequence cut at the end of a piece. */
function controlStripper(): (text: string) => string {
  let pending = "";
  return (text) => {
    const whole = pending + text;
    const tail = INCOMPLETE_TAIL.exec(whole)?.[0] ?? "";
    pending = tail;
    return whole.slice(0, whole.length - tail.length).replace(CONTROL, "");
  };
}

/** `--name value` and `--name=value` pairs (a value never starts with "--"). */
function flagValues(argv: readonly string[]): Map<string, string> {
  const values = new Map<string, string>();
  argv.forEach((argument, index) => {
    if (!argument.startsWith("--")) return;
    const equals = argument.indexOf("=");
    if (equals !== -1) values.set(argument.slice(2, equals), argument.slice(equals + 1));
    else {
      const next = argv[index + 1];
      if (next !== undefined && !next.startsWith("--")) values.set(argument.slice(2), next);
    }
  });
  return values;
}
