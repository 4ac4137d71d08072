import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { errorMessage } from "../errorMessage";
import { abortReason, clearTimer, setTimer } from "../ports/timers";
import { anySignal, untilAborted } from "../ports/abort";
import type { ToolRegistry } from "../tools/ToolRegistry";
import { McpServerNotConnectedError, type McpTool, type McpToolWrapperOptions } from "./createMcpToolWrapper";
import type { McpCallResult } from "./formatMcpResponse";
import type { McpServerConfig } from "./mcpConfig";
import { registerMcpServerTools, unregisterMcpServerTools } from "./mcpToolRegistration";
import { NO_MCP_TOOLS, selectMcpTools, type LeftOutMcpTool, type McpToolUsage } from "./mcpToolLimits";
import { closedFailureOf, connectFailureOf, exitCodeOf, McpConnectTimeoutError, type McpServerFailure } from "./mcpFailure";

/** The most `tools/list` pages read from one server: a server that pages forever is given up. */
export const MAX_TOOL_LIST_PAGES = 50;

/** The default for `connectTimeoutMs`. */
const CONNECT_TIMEOUT_MS = 30_000;

export type McpServerState = "connecting" | "connected" | "disconnected" | "failed";

export interface McpServerStatus {
  name: string;
  state: McpServerState;
  /** Registry ids of the tools this server has registered now. */
  toolIds: string[];
  /** Why the server failed or went away, in the server's or the SDK's own words. */
  error?: string;
  /** The same by case, where it is a common one, for a view that says it in its own language. */
  failure?: McpServerFailure;
  /** Tools the server lists that were not registered, each with the limit it passed (see mcpToolLimits). */
  leftOut?: LeftOutMcpTool[];
}

export interface McpHubOptions {
  registry: ToolRegistry;
  /** Makes the transport for a server (stdio exists only on desktop; see src/mcp/node/). */
  createTransport: (config: McpServerConfig) => Promise<Transport>;
  approval: McpToolWrapperOptions["approval"];
  isAutoApproved: (toolId: string) => boolean;
  /** Longest wait for a server to start and answer `initialize` and every page of `tools/list` (30 s by default). */
  connectTimeoutMs?: number;
}

interface Connection {
  config: McpServerConfig;
  client: Client;
  status: McpServerStatus;
  closing: boolean;
  /** What this server's registered tools take of the MCP tool limits. */
  usage: McpToolUsage;
  /** The transport once made: a process's exit code is read from it when the server goes away. */
  transport?: Transport;
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

  /**
   * Connects (or reconnects) a server and registers its tools. Never throws: see the status. The
   * start and the whole tool listing share one deadline; `signal` (Ctrl-C in the CLI, unload in
   * the plugin) stops both at once, and a server that did not connect is closed (its process ended).
   */
  async connect(config: McpServerConfig, signal?: AbortSignal): Promise<McpServerStatus> {
    await this.disconnect(config.name);
    const client = new Client({ name: "vault-copilot", version: "0.1.0" });
    const connection: Connection = { config, client, closing: false, usage: NO_MCP_TOOLS, status: { name: config.name, state: "connecting", toolIds: [] } };
    this.connections.set(config.name, connection);
    this.failures.delete(config.name);
    this.emit();

    client.onclose = () => this.handleClosed(connection, "the server closed the connection");
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      const listing = abortAfter(this.options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS, new Error(`MCP server "${config.name}" did not list its changed tools in time.`));
      try {
        await this.refreshTools(connection, listing.signal);
      } catch (error) {
        // The tools registered before stay; the status says why the new list is missing.
        connection.status = { ...connection.status, error: errorMessage(error) };
        this.emit();
      } finally {
        listing.dispose();
      }
    });

    const timeoutMs = this.options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
    const starting = abortAfter(timeoutMs, new McpConnectTimeoutError(config.name, Number((timeoutMs / 1000).toFixed(1))), signal);
    try {
      const transport = await this.options.createTransport(config);
      connection.transport = transport;
      await untilAborted(client.connect(transport, { signal: starting.signal }), starting.signal);
      await this.refreshTools(connection, starting.signal);
      connection.status = { ...connection.status, state: "connected" };
    } catch (error) {
      connection.closing = true;
      this.connections.delete(config.name);
      unregisterMcpServerTools(this.options.registry, config.name);
      await client.close().catch(() => undefined);
      const failure = connectFailureOf(error, config.transport === "stdio" ? config.command : undefined, exitCodeOf(connection.transport));
      const failed: McpServerStatus = { name: config.name, state: "failed", toolIds: [], error: errorMessage(error), ...(failure ? { failure } : {}) };
      this.failures.set(config.name, failed);
      this.emit();
      return failed;
    } finally {
      starting.dispose();
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

  /**
   * Follows the configured servers: connects them now, and whenever they change (added, changed,
   * switched off, removed) connects or lets go of the ones that changed. `onSettingsChange` registers
   * a listener for any change of the plugin's settings; the returned function stops following.
   */
  follow(servers: () => readonly McpServerConfig[], onSettingsChange: (listener: () => void) => () => void): () => void {
    let seen = JSON.stringify(servers());
    void this.sync(servers());
    return onSettingsChange(() => {
      const next = JSON.stringify(servers());
      if (next === seen) return;
      seen = next;
      void this.sync(servers());
    });
  }

  /** Brings the connections in line with the configured servers: new ones connect, removed or disabled ones leave. */
  async sync(configs: readonly McpServerConfig[], signal?: AbortSignal): Promise<McpServerStatus[]> {
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
        results.push(await this.connect(config, signal));
      }
    }
    return results;
  }

  async callTool(serverName: string, toolName: string, args: unknown, signal: AbortSignal): Promise<McpCallResult> {
    const connection = this.connections.get(serverName);
    if (!connection || connection.status.state !== "connected") {
      const reason = this.failures.get(serverName)?.error;
      throw new McpServerNotConnectedError(`the server is not connected${reason ? ` (${reason})` : ""}`);
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

  /**
   * Reads every page of `tools/list` (at most MAX_TOOL_LIST_PAGES) and registers the tools that
   * fit the MCP tool limits beside the other servers' tools; the status names the rest.
   */
  private async refreshTools(connection: Connection, signal: AbortSignal): Promise<void> {
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      if (++pages > MAX_TOOL_LIST_PAGES) {
        throw new Error(`MCP server "${connection.config.name}" listed its tools over more than ${MAX_TOOL_LIST_PAGES} pages without an end; it was given up.`);
      }
      // Each page's request gets its own signal, linked to the connect's: the SDK's request leaves
      // its abort listener on the signal it is given, and a server that pages on and on must not
      // pile them on one signal.
      const page = await untilAborted(connection.client.listTools(cursor ? { cursor } : undefined, { signal: anySignal([signal]) }), signal);
      tools.push(...(page.tools as McpTool[]));
      cursor = page.nextCursor;
    } while (cursor);
    if (connection.closing) return;
    const { kept, leftOut, usage } = selectMcpTools(tools, this.usageBeside(connection));
    const toolIds = registerMcpServerTools(this.options.registry, connection.config.name, kept, {
      caller: this,
      approval: this.options.approval,
      isAutoApproved: this.options.isAutoApproved,
    });
    connection.usage = usage;
    const { leftOut: _earlier, ...status } = connection.status;
    connection.status = { ...status, toolIds, ...(leftOut.length > 0 ? { leftOut } : {}) };
    this.emit();
  }

  /** What the other connected servers' tools take of the limits. */
  private usageBeside(connection: Connection): McpToolUsage {
    let tools = 0;
    let bytes = 0;
    for (const other of this.connections.values()) {
      if (other === connection) continue;
      tools += other.usage.tools;
      bytes += other.usage.bytes;
    }
    return { tools, bytes };
  }

  private handleClosed(connection: Connection, reason: string): void {
    if (connection.closing) return;
    connection.closing = true;
    this.connections.delete(connection.config.name);
    unregisterMcpServerTools(this.options.registry, connection.config.name);
    const failure = closedFailureOf(exitCodeOf(connection.transport));
    this.failures.set(connection.config.name, { name: connection.config.name, state: "disconnected", toolIds: [], error: reason, failure });
    this.emit();
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}

/** A signal that fires after `ms` with `reason`, or when `parent` fires; `dispose` stops the timer. */
function abortAfter(ms: number, reason: Error, parent?: AbortSignal): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const timer = setTimer(() => controller.abort(reason), ms);
  const forward = () => controller.abort(abortReason(parent));
  if (parent?.aborted) forward();
  else parent?.addEventListener("abort", forward, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimer(timer);
      parent?.removeEventListener("abort", forward);
    },
  };
}

