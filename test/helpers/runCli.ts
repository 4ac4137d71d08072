import { CLI_COMMANDS } from "../../src/cli/commands";
import { main } from "../../src/cli/index";

/** Runs the CLI in-process, as `vault-copilot ARGV` would, and collects what it printed. */
export async function runCli(
  argv: string[],
  env: Record<string, string> = {},
  signal: AbortSignal = new AbortController().signal,
): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const io = { stdout: (text: string) => (stdout += text), stderr: (text: string) => (stderr += text), env, signal };
  const status = await main(argv, io, CLI_COMMANDS);
  return { status, stdout, stderr };
}
