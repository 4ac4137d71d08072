import { basename, isAbsolute, resolve } from "node:path";
import { secretRedactor, type SecretRedactor } from "../settings/secretRedactor";

/**
 * Everything the CLI prints passes through here, because what it prints is partly other people's
 * text: a model server's error may echo the API key, a note or an answer may carry terminal escape
 * sequences (which can retitle the window, clear the screen or forge output), and an error may
 * name files of the machine the user never meant to show.
 *
 * - Secrets (the value of `--api-key-env`'s variable, and those added later with `addSecret`) and
 *   base-URL passwords become "[redacted]", on both streams: every run of 12 or more of a
 *   secret's characters in any letter case, and of its base64, base64url and percent-encoded
 *   forms (see settings/secretRedactor.ts).
 * - Control characters other than newline and tab (C0, C1, whole escape sequences: CSI, and the
 *   OSC, DCS, SOS, PM and APC strings up to their BEL or ST) are removed from stderr and from
 *   plain stdout. `--json` output is left as is: JSON escapes control characters itself, and the
 *   events must keep the model's exact text.
 * - Absolute paths outside the vault become "…/name" on stderr and in JSON output (the messages);
 *   the vault's own paths and the paths the user typed stay. A plain answer on stdout is the
 *   model's text and is not rewritten. A vault path is never taken for one, whatever script its
 *   names are in (see ABSOLUTE_PATH).
 * Text arrives in pieces (streamed deltas), so an escape sequence cut between two pieces is held
 * back until it is complete, and so is the end of a plain answer's piece that may be the start of
 * a secret's run (never past a line break, so a finished line is always printed). In `--json`
 * output each event is redacted on its own (the event printer keeps words whole in one event).
 */
export interface CliOutputFilter {
  stdout(text: string): string;
  stderr(text: string): string;
  /** A value learnt later (an MCP config file's env and headers) to redact from then on. */
  addSecret(value: string): void;
}

const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/:@]*:)[^\s/@]+@/gi;
/** The strings that run to a terminator: OSC, DCS, SOS, PM, APC (ESC ] P X ^ _, or their C1 forms). */
const STRING_START = String.raw`(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])`;
/** A string's body: anything but its terminators (BEL, ST as ESC \ or C1) and another ESC, which ends it too. */
const STRING_BODY = String.raw`[^\x07\x1b\x9c]`;
const CONTROL = new RegExp(
  [
    String.raw`\x1b\[[0-?]*[ -/]*[@-~]`, // CSI
    String.raw`${STRING_START}${STRING_BODY}*(?:\x07|\x9c|\x1b\\)`, // a terminated string, whole
    String.raw`\x1b[ -/]*[0-~]?`, // any other escape (an unterminated string loses its opener only)
    String.raw`\x9b[0-?]*[ -/]*[@-~]`, // CSI as C1
    String.raw`[\x00-\x08\x0b-\x1f\x7f-\x9f]`,
  ].join("|"),
  "g",
);
/**
 * An escape sequence that the next piece may still complete. A string is waited for up to 256
 * characters and never past a line break, so an unterminated one cannot hold back the answer.
 */
const INCOMPLETE_TAIL = new RegExp(String.raw`(?:\x1b(?:\[[0-?]*[ -/]*|[ -/]+)?|${STRING_START}[^\x07\x1b\x9c\n]{0,256}\x1b?|\x9b[0-?]*[ -/]*)$`);
/**
 * What may come right before an absolute path: the start, a space, an opening bracket or "=", or
 * a quote (escaped or not) that itself follows one of those or ":" / "," (JSON's `"key":"/x"`).
 * A "/" after a letter of any script, a digit, a mark, an emoji or a closing bracket or quote is
 * inside a vault path ("ru/Плагины/Поиск.md", "emoji 🦓/x.md", "notes (old)/x.md"), not the start
 * of an absolute one; after "<" it closes a tag ("</note>" in a tool result).
 */
const BEFORE_PATH = String.raw`[\s(\[{=\p{Ps}]`;
const ABSOLUTE_PATH = new RegExp(String.raw`(?<=^|${BEFORE_PATH}|(?:^|${BEFORE_PATH}|[:,])\\?["'\x60])(?:\/|[A-Za-z]:\\)[^\s'"\x60<>|;,()[\]{}]+`, "gu");

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
  let redactor = secretRedactor(secrets);
  const redact = (text: string) => redactor.redact(text).replace(URL_PASSWORD, "$1[redacted]@");
  const plainStdout = controlStripper();
  const plainAnswer = secretHolder(() => redactor);
  const plainStderr = controlStripper();

  return {
    stdout: (text) => (json ? scrubPaths(redact(text)) : plainStdout(redact(plainAnswer(text)))),
    stderr: (text) => plainStderr(scrubPaths(redact(text))),
    addSecret: (value) => {
      if (secrets.includes(value)) return;
      secrets.push(value);
      redactor = secretRedactor(secrets);
    },
  };
}

/**
 * Holds back the end of a streamed piece while it may be the start of a secret's run (see
 * SecretRedactor.heldTailLength), so the whole run reaches the redaction in one piece. A held
 * tail never spans a line break.
 */
function secretHolder(redactor: () => SecretRedactor): (text: string) => string {
  let pending = "";
  return (text) => {
    const whole = pending + text;
    pending = whole.slice(whole.length - redactor().heldTailLength(whole));
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
