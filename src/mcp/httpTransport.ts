import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { FetchLike } from "../ports/FetchLike";
import type { SecretStore } from "../ports/SecretStore";
import type { HttpMcpServerConfig } from "./mcpConfig";

/**
 * The Streamable HTTP transport (desktop and mobile). `headers` entries become request headers, their
 * values read from the SecretStore (e.g. `Authorization` -> a secret holding "Bearer …").
 * `fetchImpl` lets Obsidian pass a fetch without CORS limits.
 */
export function createHttpTransport(config: HttpMcpServerConfig, secrets: SecretStore, fetchImpl?: FetchLike): Transport {
  const headers: Record<string, string> = {};
  for (const [name, secretId] of Object.entries(config.headers)) {
    const value = secrets.get(secretId);
    if (value === null) throw new Error(`MCP server "${config.name}": no secret "${secretId}" for header ${name}`);
    headers[name] = value;
  }
  return new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers }, fetch: fetchImpl });
}
