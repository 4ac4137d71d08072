import { z } from "zod";
import { ContextManager } from "../../src/context/ContextManager";
import { PromptPayloadRecorder } from "../../src/context/promptPayloadRecorder";
import type { ProjectPrompt } from "../../src/context/systemPrompt";
import { AutonomousAgentChainRunner } from "../../src/LLMProviders/chainRunner/AutonomousAgentChainRunner";
import type { ChainRunInput } from "../../src/LLMProviders/chainRunner/ChainEvents";
import type { CopilotSettings, ProviderSettings } from "../../src/settings/settingsSchema";
import { initializeBuiltinTools } from "../../src/tools/builtinTools";
import type { ToolDefinition } from "../../src/tools/SimpleTool";
import type { ToolDependencies } from "../../src/tools/toolDependencies";
import { ToolRegistry } from "../../src/tools/ToolRegistry";
import { FsVault } from "../../src/vault/FsVault";
import type { OpenAIServer } from "./openAIServer";
import { FAST_RETRIES, modelFactory, settingsFor, TEST_API_KEY } from "./runnerHarness";
import { makeTempVault, type TempVault } from "./tempVault";
import { makeToolDependencies } from "./toolHarness";

export interface AgentSetup {
  runner: AutonomousAgentChainRunner;
  registry: ToolRegistry;
  settings: CopilotSettings;
  recorder: PromptPayloadRecorder;
  conversation: ContextManager;
  vault: TempVault;
  run: (userMessage: string, extra?: Partial<ChainRunInput>) => ReturnType<AutonomousAgentChainRunner["run"]>;
}

/**
 * An agent over real parts: the built-in tools on a temporary folder of notes, a fresh registry
 * (plus any `extraTools`), the test server as the model, fast retries.
 */
export function makeAgent(
  server: Pick<OpenAIServer, "baseUrl">,
  options: {
    notes?: Record<string, string>;
    settings?: Partial<CopilotSettings>;
    extraTools?: ToolDefinition[];
    provider?: Partial<ProviderSettings>;
    /** What the built-in tools are built with besides the folder and the settings. */
    tools?: Partial<ToolDependencies>;
    /** The project the chat is in (its part of the system prompt). */
    project?: ProjectPrompt;
  } = {},
): AgentSetup {
  const vault = makeTempVault(options.notes ?? {});
  const settings = settingsFor(server, options.settings, options.provider);
  const registry = new ToolRegistry();
  initializeBuiltinTools(registry, makeToolDependencies({ vault: new FsVault(vault.root), settings, ...options.tools }));
  if (options.extraTools) registry.registerAll(options.extraTools);
  const recorder = new PromptPayloadRecorder(() => [TEST_API_KEY]);
  const runner = new AutonomousAgentChainRunner({
    getSettings: () => settings,
    createModel: modelFactory(() => settings),
    recorder,
    retryPolicy: FAST_RETRIES,
    registry,
    vaultAvailable: () => true,
    ...(options.project ? { project: options.project } : {}),
  });
  const conversation = new ContextManager();
  return {
    runner,
    registry,
    settings,
    recorder,
    conversation,
    vault,
    run: (userMessage, extra = {}) => runner.run({ userMessage, conversation, signal: new AbortController().signal, ...extra }),
  };
}

/** A real tool defined by the test: `func` decides what it does. */
export function testTool(
  name: string,
  func: (args: { value: string }, context: { signal: AbortSignal }) => Promise<string>,
  options: { isReadOnly?: boolean; customPromptInstructions?: string } = {},
): ToolDefinition {
  return {
    tool: {
      name,
      description: `Test tool ${name}.`,
      schema: z.object({ value: z.string() }),
      func: (args, context) => func(args as { value: string }, context),
      isReadOnly: options.isReadOnly ?? true,
    },
    metadata: {
      id: name,
      displayName: name,
      description: `Test tool ${name}.`,
      category: "custom",
      customPromptInstructions: options.customPromptInstructions,
    },
  };
}

/**
 * One agent over one scripted server per test, both let go after it: `setUp` starts the server
 * (`start`) and the agent pointed at it with `provider`; `server()` is the current one.
 */
export function agentOverServer<Script, Server extends { baseUrl: string; close(): Promise<void> }, Extra>(
  start: (script: Script, extra: Extra | undefined) => Promise<Server>,
  provider: Partial<ProviderSettings>,
  notes: Record<string, string>,
) {
  let server: Server | undefined;
  let agent: AgentSetup | undefined;
  const release = async () => {
    agent?.vault.remove();
    agent = undefined;
    await server?.close();
    server = undefined;
  };
  afterEach(release);
  return {
    setUp: async (script: Script, options: Parameters<typeof makeAgent>[1] = {}, extra?: Extra): Promise<AgentSetup> => {
      await release();
      server = await start(script, extra);
      agent = makeAgent(server, { notes, provider, ...options });
      return agent;
    },
    server: (): Server => {
      if (!server) throw new Error("no server");
      return server;
    },
  };
}
