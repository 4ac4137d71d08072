/** What a CLI command may touch of the process: its output streams, environment and abort. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  /** Aborted on SIGINT and SIGTERM. */
  signal: AbortSignal;
  /** Adds a value never to be printed (e.g. one an MCP config file gives); set by `main`. */
  addSecret?: (value: string) => void;
  /** The values added with `addSecret` so far (kept out of what is written, as out of what is printed). */
  addedSecrets?: () => readonly string[];
}

/** A command: parses its own arguments (throwing UsageError) and returns the exit status. */
export type CliCommand = (argv: string[], io: CliIo) => Promise<number>;
