import { errorMessage } from "../errorMessage";
import { promises as fs } from "node:fs";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { createHttpTransport } from "../mcp/httpTransport";
import { parseMcpConfigFile, type McpServerConfig } from "../mcp/mcpConfig";
import type { McpHub, McpServerStatus } from "../mcp/McpHub";
import { createStdioTransport } from "../mcp/node/stdioTransport";
import { abortReason } from "../ports/timers";
import { MapSecretStore } from "../ports/SecretStore";

/**
 * How the CLI starts MCP servers: stdio servers as child processes, HTTP ones over fetch, with the
 * values a config file gives (env, headers) held in memory only. Servers the CLI starts never
 * outlive it: the signal ends them at once, and so does the process exiting any other way while
 * they run (a guard on Node's `exit`, which allows only synchronous work).
 */
export interface CliMcpTransports {
  create: (config: McpServerConfig) => Promise<Transport>;
  /** Drops the exit guard (after the hub closed its servers). */
  close: () => void;
  readonly secrets: MapSecretStore;
}

export function cliMcpTransports(signal: AbortSignal): CliMcpTransports {
  const secrets = new MapSecretStore();
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
  let guarded = false;
  return {
    secrets,
    create: (config) => {
      if (config.transport === "http") return Promise.resolve(createHttpTransport(config, secrets));
      if (!guarded) {
        guarded = true;
        process.on("exit", endStarted);
        signal.addEventListener("abort", endStarted, { once: true });
      }
      const transport = createStdioTransport(config, secrets) as Transport & { pid: number | null };
      started.add(transport);
      return Promise.resolve(transport);
    },
    close: () => {
      process.off("exit", endStarted);
      signal.removeEventListener("abort", endStarted);
    },
  };
}

/**
 * Connects the servers of an MCP config file (the CLI's `--mcp-config` / `--config`) through `hub`,
 * which registers their tools in its registry. Each plain value the file gives is handed to
 * `onSecretValue` (so the CLI never prints it). A signal that fires while connecting ends them.
 */
export async function connectMcpFromConfigFile(
  path: string,
  hub: McpHub,
  transports: CliMcpTransports,
  options: { signal: AbortSignal; onSecretValue?: (value: string) => void },
): Promise<McpServerStatus[]> {
  let text: string;
  try {
    text = await fs.readFile(path, "utf8");
  } catch (error) {
    throw new Error(`cannot read MCP config ${path}: ${(error as NodeJS.ErrnoException).code ?? errorMessage(error)}`);
  }
  const { servers, values } = parseMcpConfigFile(text);
  for (const [id, value] of values) {
    transports.secrets.set(id, value);
    options.onSecretValue?.(value);
  }
  const statuses = await hub.sync(servers, options.signal);
  if (options.signal.aborted) {
    await hub.closeAll();
    throw abortReason(options.signal);
  }
  return statuses;
}
