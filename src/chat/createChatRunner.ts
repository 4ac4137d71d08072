import type { PromptPayloadRecorder } from "../context/promptPayloadRecorder";
import type { ProjectPrompt } from "../context/systemPrompt";
import type { ChatModelHandle } from "../LLMProviders/chatModelFactory";
import { AutonomousAgentChainRunner } from "../LLMProviders/chainRunner/AutonomousAgentChainRunner";
import { LLMChainRunner } from "../LLMProviders/chainRunner/LLMChainRunner";
import { VaultQAChainRunner } from "../LLMProviders/chainRunner/VaultQAChainRunner";
import type { RetryPolicy } from "../net/retryPolicy";
import type { NoteSearcher } from "../ports/NoteSearcher";
import type { ChatMode, CopilotSettings } from "../settings/settingsSchema";
import type { ToolSource } from "../tools/ToolRegistry";
import { budgetOf, fitHistoryToContext } from "./fitHistory";
import { modelSettingsFor } from "../LLMProviders/modelChoice";
import type { ChatRunner } from "./ChatController";

export interface ChatRunnerParts {
  getSettings: () => CopilotSettings;
  /** The chat model for a model name, with the provider settings of the moment. */
  createModel: (model: string) => ChatModelHandle;
  /** Where the agent's tools come from (a project hands its own view of the registry). */
  registry: ToolSource;
  getSearcher: () => NoteSearcher | null;
  recorder?: PromptPayloadRecorder;
  retryPolicy?: RetryPolicy;
  /** How long a model request may stay silent before it fails (the runners' default otherwise). */
  modelIdleTimeoutMs?: number;
  /** Told when an agent step of `model` called a tool: the model is then known to take tools. */
  onToolCallSeen?: (model: string) => void;
  /** Whether `model` is known to take images (its setting, else the server's list); images go only to such models. */
  takesImages?: (model: string) => boolean;
  /** The project the chat is in: its part of L1 (its scope is in `registry` and `getSearcher`). */
  project?: ProjectPrompt;
}

/** The runner of a chat mode, answering with `model`: Chat, Vault QA or the agent; a long chat's history is cut to the model's context window. */
export function createChatRunner(parts: ChatRunnerParts, mode: ChatMode, model: string): ChatRunner {
  return fitHistoryToContext(modeRunner(parts, mode, model), () => budgetOf(modelSettingsFor(parts.getSettings(), model)));
}

function modeRunner(parts: ChatRunnerParts, mode: ChatMode, model: string): ChatRunner {
  const common = {
    getSettings: parts.getSettings,
    createModel: () => parts.createModel(model),
    ...(parts.recorder ? { recorder: parts.recorder } : {}),
    ...(parts.retryPolicy ? { retryPolicy: parts.retryPolicy } : {}),
    ...(parts.modelIdleTimeoutMs !== undefined ? { modelIdleTimeoutMs: parts.modelIdleTimeoutMs } : {}),
    takesImages: () => parts.takesImages?.(model) ?? false,
    ...(parts.project ? { project: parts.project } : {}),
  };
  switch (mode) {
    case "chat":
      return new LLMChainRunner(common);
    case "vault-qa":
      return new VaultQAChainRunner({ ...common, getSearcher: parts.getSearcher });
    case "agent": {
      const agent = new AutonomousAgentChainRunner({ ...common, registry: parts.registry, vaultAvailable: () => true });
      const seen = parts.onToolCallSeen;
      if (!seen) return agent;
      return {
        run: (input) =>
          agent.run({
            ...input,
            onEvent: (event) => {
              if (event.type === "step-end" && event.toolCallCount > 0) seen(model);
              input.onEvent?.(event);
            },
          }),
      };
    }
  }
}
