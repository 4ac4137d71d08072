import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { errorMessage } from "../errorMessage";
import { clearTimer, setTimer } from "../ports/timers";
import type { ToolRegistry } from "../tools/ToolRegistry";
import type { McpTool, McpToolWrapperOptions } from "./createMcpToolWrapper";
import type { McpCallResult } from "./formatMcpResponse";
import type { McpServerConfig } from "./mcpConfig";
import { registerMcpServerTools, unregisterMcpServerTools } from "./mcpToolRegistration";

export type McpServerState = "connecting" | "connected" | "disconnected" | "failed";

export interface McpServerStatus {
  name: string;
  state: McpServerState;
  /** Registry ids of the tools this server has registered now. */
  toolIds: string[];
  /** Why the server failed or went away. */
  error?: string;
}

export interface McpHubOptions {
  registry: ToolRegistry;
  /** Makes the transport for a server (stdio exists only on desktop; see src/mcp/node/). */
  createTransport: (config: McpServerConfig) => Promise<Transport>;
  approval: McpToolWrapperOptions["approval"];
  isAutoApproved: (toolId: string) => boolean;
  /** Longest wait for a server to start and answer `initialize` and `tools/list`. */
  connectTimeoutMs?: number;
}

interface Connection {
  config: McpServerConfig;
  client: Client;
  status: McpServerStatus;
  closing: boolean;
}

/**
 * The MCP connections. Connecting a server registers its tools in the registry; a server that
 * leaves — disconnected by the user, or crashed — has its tools removed at once, and a call to
 * it fails with a message the model can act on. `tools/list_changed` re-registers the server's
 * tools. One hub serves the app; tests make their own.
 */
export class McpHub {
  private readonly connections = new Map<string, Connection>();
  private readonly failures = new Map<string, McpServerStatus>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly options: McpHubOptions) {}

  /** Connects (or reconnects) a server and registers its tools. Never throws: see the status. */
  async connect(config: McpServerConfig): Promise<McpServerStatus> {
    await this.disconnect(config.name);
    const client = new Client({ name: "vault-copilot", version: "0.1.0" });
    const connection: Connection = { config, client, closing: false, status: { name: config.name, state: "connecting", toolIds: [] } };
    this.connections.set(config.name, connection);
    this.failures.delete(config.name);
    this.emit();

    client.onclose = () => this.handleClosed(connection, "the server closed the connection");
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      await this.refreshTools(connection);
    });

    try {
      const transport = await this.options.createTransport(config);
      await withTimeout(client.connect(transport), this.options.connectTimeoutMs ?? 30_000, `MCP server "${config.name}" did not start in time`);
      await this.refreshTools(connection);
      connection.status = { ...connection.status, state: "connected" };
    } catch (error) {
      connection.closing = true;
      this.connections.delete(config.name);
      unregisterMcpServerTools(this.options.registry, config.name);
      await client.close().catch(() => undefined);
      const failed: McpServerStatus = { name: config.name, state: "failed", toolIds: [], error: errorMessage(error) };
      this.failures.set(config.name, failed);
      this.emit();
      return failed;
    }
    this.emit();
    return connection.status;
  }

  /** Disconnects a server and removes its tools. */
  async disconnect(name: string): Promise<void> {
    this.failures.delete(name);
    const connection = this.connections.get(name);
    if (!connection) return;
    connection.closing = true;
    this.connections.delete(name);
    unregisterMcpServerTools(this.options.registry, name);
    await connection.client.close().catch(() => undefined);
    this.emit();
  }

  /** Brings the connections in line with the configured servers: new ones connect, removed or disabled ones leave. */
  async sync(configs: readonly McpServerConfig[]): Promise<McpServerStatus[]> {
    const wanted = new Map(configs.filter((config) => config.enabled).map((config) => [config.name, config]));
    for (const name of [...this.connections.keys(), ...this.failures.keys()]) {
      if (!wanted.has(name)) await this.disconnect(name);
    }
    const results: McpServerStatus[] = [];
    for (const config of wanted.values()) {
      const current = this.connections.get(config.name);
      if (current && JSON.stringify(current.config) === JSON.stringify(config) && current.status.state === "connected") {
        results.push(current.status);
      } else {
        results.push(await this.connect(config));
      }
    }
    return results;
  }

  async callTool(serverName: string, toolName: string, args: unknown, signal: AbortSignal): Promise<McpCallResult> {
    const connection = this.connections.get(serverName);
    if (!connection || connection.status.state !== "connected") {
      const reason = this.failures.get(serverName)?.error;
      throw new Error(`the server is not connected${reason ? ` (${reason})` : ""}`);
    }
    const result = await connection.client.callTool(
      { name: toolName, arguments: (args ?? {}) as Record<string, unknown> },
      undefined,
      { signal },
    );
    return result as McpCallResult;
  }

  getStatuses(): McpServerStatus[] {
    return [...[...this.connections.values()].map((c) => c.status), ...this.failures.values()];
  }

  onStatusChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async closeAll(): Promise<void> {
    for (const name of [...this.connections.keys()]) await this.disconnect(name);
    this.failures.clear();
  }

  private async refreshTools(connection: Connection): Promise<void> {
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await connection.client.listTools(cursor ? { cursor } : undefined);
      tools.push(...(page.tools as McpTool[]));
      cursor = page.nextCursor;
    } while (cursor);
    if (connection.closing) return;
    const toolIds = registerMcpServerTools(this.options.registry, connection.config.name, tools, {
      caller: this,
      approval: this.options.approval,
      isAutoApproved: this.options.isAutoApproved,
    });
    connection.status = { ...connection.status, toolIds };
    this.emit();
  }

  private handleClosed(connection: Connection, reason: string): void {
    if (connection.closing) return;
    connection.closing = true;
    this.connections.delete(connection.config.name);
    unregisterMcpServerTools(this.options.registry, connection.config.name);
    this.failures.set(connection.config.name, { name: connection.config.name, state: "disconnected", toolIds: [], error: reason });
    this.emit();
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: number | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimer(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimer(timer));
}

