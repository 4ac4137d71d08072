import type { ChildProcess } from "node:child_process";
import { getDefaultEnvironment, StdioClientTransport, type StdioServerParameters } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { ProcessExit } from "../mcpFailure";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { SecretStore } from "../../ports/SecretStore";
import type { StdioMcpServerConfig } from "../mcpConfig";

/**
 * The SDK's stdio transport, with a close that ends the server at once and settles only when it
 * has gone. The SDK's own close waits up to 2 s for the server to notice its closed input before
 * sending SIGTERM (that wait is what made Ctrl-C slow), and a second close while the first runs
 * returns at once: the client closes the transport itself when a request is aborted, so the
 * hub's own close would otherwise return with the server still running. It also keeps the
 * process's exit code, which the SDK drops, so a server that exits is reported with its code.
 */
class StoppingStdioTransport extends StdioClientTransport implements ProcessExit {
  private closing: Promise<void> | undefined;
  exitCode: number | null = null;

  constructor(parameters: StdioServerParameters) {
    super(parameters);
  }

  override async start(): Promise<void> {
    await super.start();
    // The SDK keeps the child in a private field and its "close" handler ignores the code;
    // "exit" comes before "close", so the code is here when the hub hears the connection close.
    const child = (this as unknown as { _process?: ChildProcess })._process;
    child?.once("exit", (code) => (this.exitCode = code));
  }

  override close(): Promise<void> {
    this.closing ??= this.stopServer();
    return this.closing;
  }

  private async stopServer(): Promise<void> {
    const pid = this.pid;
    if (pid !== null) {
      try {
        process.kill(pid, "SIGTERM");
      } catch {
        // It has exited already.
      }
    }
    await super.close();
  }
}

/**
 * The stdio transport: starts the server as a child process. Node only — in Obsidian it is loaded
 * on desktop alone (`Platform.isDesktop`), never on mobile. The child gets the SDK's safe default
 * environment plus the configured variables, whose values come from the SecretStore.
 */
export function createStdioTransport(config: StdioMcpServerConfig, secrets: SecretStore, cwd?: string): Transport {
  const env: Record<string, string> = { ...getDefaultEnvironment() };
  for (const [name, secretId] of Object.entries(config.env)) {
    const value = secrets.get(secretId);
    if (value === null) throw new Error(`MCP server "${config.name}": no secret "${secretId}" for ${name}`);
    env[name] = value;
  }
  return new StoppingStdioTransport({ command: config.command, args: config.args, env, stderr: "pipe", cwd });
}
