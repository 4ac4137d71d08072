import { describeLeftOutTools } from "../../mcp/mcpToolLimits";
import { approveAllToolCalls } from "../../ports/approval";
import { ToolRegistry } from "../../tools/ToolRegistry";
import { parseArgs, stringFlag, UsageError } from "../args";
import { McpHub } from "../../mcp/McpHub";
import { cliMcpTransports, connectMcpFromConfigFile } from "../cliMcp";
import type { CliCommand } from "../io";

/**
 * `vault-copilot mcp list --config FILE.json`: connects every enabled server, prints the tool ids
 * it registered (one per line), then a status line per server on stderr, with the tools left out
 * by the MCP tool limits and why. Exit 1 if any failed.
 */
export const mcpCommand: CliCommand = async (argv, io) => {
  const [subcommand, ...rest] = argv;
  if (subcommand !== "list") throw new UsageError(subcommand ? `unknown mcp command "${subcommand}"` : "mcp needs a command: list");
  const args = parseArgs(rest, { values: ["config"], booleans: ["json"] });
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
  const configPath = stringFlag(args, "config", true);

  const registry = new ToolRegistry();
  const transports = cliMcpTransports(io.signal);
  // Listing calls no tool, so nothing needs approving.
  const hub = new McpHub({ registry, createTransport: transports.create, approval: approveAllToolCalls, isAutoApproved: () => false });
  try {
    const statuses = await connectMcpFromConfigFile(configPath, hub, transports, { signal: io.signal, onSecretValue: io.addSecret });
    if (args.flags.has("json")) {
      io.stdout(`${JSON.stringify({ servers: statuses, tools: registry.getAllTools().map((d) => d.metadata.id) })}\n`);
    } else {
      for (const definition of registry.getAllTools()) io.stdout(`${definition.metadata.id}\n`);
    }
    for (const status of statuses) {
      io.stderr(`${status.name}: ${status.state}${status.error ? ` (${status.error})` : ""}, ${status.toolIds.length} tools\n`);
      for (const line of describeLeftOutTools(status.leftOut ?? [])) io.stderr(`${status.name}: ${line}\n`);
    }
    return statuses.every((status) => status.state === "connected") ? 0 : 1;
  } finally {
    try {
      await hub.closeAll();
    } finally {
      transports.close();
    }
  }
};
