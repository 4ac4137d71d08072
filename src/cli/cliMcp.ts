import { errorMessage } from "../errorMessage";
import { promises as fs } from "node:fs";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { createHttpTransport } from "../mcp/httpTransport";
import { parseMcpConfigFile, type McpServerConfig } from "../mcp/mcpConfig";
import { McpHub, type McpServerStatus } from "../mcp/McpHub";
import { createStdioTransport } from "../mcp/node/stdioTransport";
import { abortReason } from "../ports/timers";
import { MapSecretStore } from "../ports/SecretStore";
import type { ToolCallApprovalPort } from "../ports/approval";
import type { ToolRegistry } from "../tools/ToolRegistry";

export interface CliMcpOptions {
  approval: ToolCallApprovalPort;
  /** Tool ids the user auto-approved in the vault's settings. */
  isAutoApproved?: (toolId: string) => boolean;
  /** Ctrl-C / SIGTERM: stops connecting at once and ends every server started. */
  signal: AbortSignal;
  /** Told each plain value the file gives (env, headers), so the CLI never prints it. */
  onSecretValue?: (value: string) => void;
}

export interface CliMcpConnection {
  hub: McpHub;
  statuses: McpServerStatus[];
  /** Disconnects every server (ending the processes started) and drops the exit guard. */
  close(): Promise<void>;
}

/**
 * Connects the servers of an MCP config file (the CLI's `--mcp-config` / `--config`) and registers
 * their tools in `registry`. Values the file gives (env, headers) are held in memory only.
 * Servers the CLI starts never outlive it: the signal ends them at once, and so does the process
 * exiting any other way while they run (a guard on Node's `exit`, which allows only synchronous work).
 */
export async function connectMcpFromConfigFile(path: string, registry: ToolRegistry, options: CliMcpOptions): Promise<CliMcpConnection> {
  let text: string;
  try {
    text = await fs.readFile(path, "utf8");
  } catch (error) {
    throw new Error(`cannot read MCP config ${path}: ${(error as NodeJS.ErrnoException).code ?? errorMessage(error)}`);
  }
  const { servers, values } = parseMcpConfigFile(text);
  const secrets = new MapSecretStore();
  for (const [id, value] of values) {
    secrets.set(id, value);
    options.onSecretValue?.(value);
  }

  const started = new Set<Transport & { pid: number | null }>();
  const endStarted = () => {
    for (const transport of started) {
      if (transport.pid === null) continue;
      try {
        process.kill(transport.pid, "SIGTERM");
      } catch {
        // It has exited already.
      }
    }
  };
  process.on("exit", endStarted);
  options.signal.addEventListener("abort", endStarted, { once: true });

  const createTransport = (config: McpServerConfig): Promise<Transport> => {
    if (config.transport === "http") return Promise.resolve(createHttpTransport(config, secrets));
    const transport = createStdioTransport(config, secrets) as Transport & { pid: number | null };
    started.add(transport);
    return Promise.resolve(transport);
  };
  const hub = new McpHub({
    registry,
    createTransport,
    approval: options.approval,
    // --yes approves through the approval port itself; this is the settings' per-tool choice.
    isAutoApproved: options.isAutoApproved ?? (() => false),
  });
  const close = async () => {
    try {
      await hub.closeAll();
    } finally {
      process.off("exit", endStarted);
      options.signal.removeEventListener("abort", endStarted);
    }
  };
  const statuses = await hub.sync(servers, options.signal);
  if (options.signal.aborted) {
    await close();
    throw abortReason(options.signal);
  }
  return { hub, statuses, close };
}
