import { describeLeftOutTools } from "../../mcp/mcpToolLimits";
import { approveEverything, refuseEverything } from "../../ports/approval";
import type { ToolRegistry } from "../../tools/ToolRegistry";
import { integerFlag, parseArgs, stringFlag, UsageError } from "../args";
import { connectMcpFromConfigFile } from "../cliMcp";
import { applyEmbeddingFlags, embedNotes, EMBEDDING_FLAGS } from "../cliIndex";
import { MODEL_FLAGS, openCliServices, openCliSession, promptOf } from "../cliRuntime";
import type { CliCommand, CliIo } from "../io";
import { openProjectFlag } from "../projectFlag";
import { applyContextTokensFlag, CHAT_NOTE_FLAGS, openChatNote, runChatTurn } from "../runChatTurn";
import { errorMessage } from "../../errorMessage";
import { applyImageFlags, ATTACH_FLAGS, attachedChips } from "../attachFlag";

/** The CLI cannot ask, so without --yes every edit and every MCP call that needs approval is refused. */
export const CLI_REFUSAL_REASON = "The command line cannot ask for approval, so this change was refused. Run again with --yes to approve changes.";

/** The most steps `--max-iterations` accepts (the setting's own limit). */
const MAX_ITERATIONS = 50;

/**
 * `agent --vault DIR --base-url URL --model NAME [--api-key-env VAR] [--tools id,id,...]
 * [--max-iterations N] [--yes] [--json] [--mcp-config FILE.json] [--save] [--continue NOTE]
 * PROMPT`: the plugin's agent —
 * the same runner, registry, tools and settings (the vault's data.json, flags over it) — over a
 * folder. `--tools` lists the enabled tool ids (the vault's enabled tools otherwise, plus every
 * tool of the MCP servers given); the always-enabled tools are bound in any case.
 */
export const agentCommand: CliCommand = async (argv, io) => {
  const args = parseArgs(argv, {
    values: [...MODEL_FLAGS, "tools", "max-iterations", "mcp-config", ...EMBEDDING_FLAGS, ...CHAT_NOTE_FLAGS.values],
    lists: ATTACH_FLAGS.lists,
    booleans: ["yes", "json", ...CHAT_NOTE_FLAGS.booleans, ...ATTACH_FLAGS.booleans],
  });
  const prompt = promptOf(args, "agent");
  const maxIterations = integerFlag(args, "max-iterations", 0);
  if (maxIterations > MAX_ITERATIONS) throw new UsageError(`--max-iterations takes at most ${MAX_ITERATIONS}`);
  const toolIds = listFlag(args.flags.get("tools"));
  const session = await openCliSession(args, io);
  if (maxIterations > 0) session.settings.autonomousAgentMaxIterations = maxIterations;
  applyContextTokensFlag(args, session);
  applyEmbeddingFlags(args, session, io);
  const attachments = await attachedChips(args, session.vault);
  // The command line cannot ask: --yes approves every change and MCP call, else each is refused.
  const services = openCliServices(session, io, args.flags.has("yes") ? approveEverything : refuseEverything(CLI_REFUSAL_REASON));
  try {
    const project = await openProjectFlag(args, services, session);
    // After the project: its note may name the model.
    applyImageFlags(args, session);
    const note = await openChatNote(args, services, io);
    // The index is built only when localSearch may run (it reads every note the first time).
    if ((toolIds ?? session.settings.autonomousAgentEnabledToolIds).includes("localSearch")) {
      await embedNotes(services, session, io);
      await services.noteIndex.start(io.signal);
    }
    const mcpConfig = stringFlag(args, "mcp-config");
    let mcpToolIds: string[] = [];
    if (mcpConfig) {
      const statuses = await connectMcpFromConfigFile(mcpConfig, services.mcpHub, services.mcpTransports, { signal: io.signal, onSecretValue: io.addSecret });
      for (const status of statuses) {
        if (status.state !== "connected") io.stderr(`vault-copilot: MCP server ${status.name}: ${status.state}${status.error ? ` (${status.error})` : ""}\n`);
        for (const line of describeLeftOutTools(status.leftOut ?? [])) io.stderr(`vault-copilot: MCP server ${status.name}: ${line}\n`);
      }
      mcpToolIds = statuses.flatMap((status) => status.toolIds);
    }
    session.settings.autonomousAgentEnabledToolIds = toolIds ?? [...session.settings.autonomousAgentEnabledToolIds, ...mcpToolIds];
    requireKnownTools(services.registry, toolIds);
    return await runChatTurn({ services, session, mode: "agent", send: prompt, io, json: args.flags.has("json"), note, project, attachments, noImages: args.flags.has("no-images") });
  } finally {
    await closeQuietly(services, io);
  }
};

function listFlag(value: string | true | undefined): string[] | undefined {
  if (value === undefined || value === true) return undefined;
  return value
    .split(",")
    .map((id) => id.trim())
    .filter(Boolean);
}

/** `--tools` with an id no tool has is a typo the user should hear about, not an ignored entry. */
function requireKnownTools(registry: ToolRegistry, toolIds: string[] | undefined): void {
  const unknown = (toolIds ?? []).filter((id) => !registry.getToolMetadata(id));
  if (unknown.length === 0) return;
  const known = registry.getConfigurableTools().map((definition) => definition.metadata.id);
  throw new UsageError(`--tools: no tool with id ${unknown.map((id) => `"${id}"`).join(", ")} (known: ${known.join(", ")})`);
}

/** Closes the MCP connections and the index; a failure to close is reported, not thrown over the run's result. */
async function closeQuietly(services: { dispose(): Promise<void> }, io: CliIo): Promise<void> {
  try {
    await services.dispose();
  } catch (error) {
    io.stderr(`vault-copilot: while closing: ${errorMessage(error)}\n`);
  }
}
