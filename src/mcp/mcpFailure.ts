import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

/**
 * Why an MCP server failed or went away, by case and values, beside the status's English `error`
 * (the server's or the SDK's own words), for a view that says it in its own language.
 */
export type McpServerFailure =
  | { kind: "could-not-start"; command: string }
  | { kind: "exited"; code: number }
  | { kind: "timeout"; seconds: number }
  | { kind: "closed" }
  | { kind: "http-status"; status: number };

/** The connect deadline passed: the sentence names the server and the seconds waited. */
export class McpConnectTimeoutError extends Error {
  constructor(
    serverName: string,
    readonly seconds: number,
  ) {
    super(`MCP server "${serverName}" did not start and list its tools within ${seconds} s.`);
    this.name = "McpConnectTimeoutError";
  }
}

/** A transport that runs its server as a process says how the process ended (the stdio transport does). */
export interface ProcessExit {
  /** The process's exit code once it has exited by itself; null while it runs or when a signal ended it. */
  readonly exitCode: number | null;
}

/** The exit code of the process behind `transport`, when it has one and the process has exited. */
export function exitCodeOf(transport: Transport | undefined): number | null {
  const code = (transport as Partial<ProcessExit> | undefined)?.exitCode;
  return typeof code === "number" ? code : null;
}

/** The case of a failed connect: what `error` (and the process's exit, if any) says happened; undefined when it is none of the common ones. */
export function connectFailureOf(error: unknown, command: string | undefined, exitCode: number | null): McpServerFailure | undefined {
  if (error instanceof McpConnectTimeoutError) return { kind: "timeout", seconds: error.seconds };
  if (error instanceof StreamableHTTPError && error.code !== undefined && error.code >= 400) return { kind: "http-status", status: error.code };
  const { code, syscall } = (error ?? {}) as { code?: unknown; syscall?: unknown };
  if (command !== undefined && typeof syscall === "string" && syscall.startsWith("spawn") && typeof code === "string") return { kind: "could-not-start", command };
  if (exitCode !== null) return { kind: "exited", code: exitCode };
  if (error instanceof McpError && error.code === Number(ErrorCode.ConnectionClosed)) return { kind: "closed" };
  return undefined;
}

/** The case of a server that went away after connecting. */
export function closedFailureOf(exitCode: number | null): McpServerFailure {
  return exitCode === null ? { kind: "closed" } : { kind: "exited", code: exitCode };
}
