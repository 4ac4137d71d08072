import { ChatOpenAI, type ChatOpenAICallOptions } from "@langchain/openai";
import type { ProviderSettings } from "../settings/settingsSchema";
import { AnthropicChatModel } from "./anthropic/AnthropicChatModel";
import type { OpenAIToolDefinition } from "./chainRunner/agentTools";
import { GeminiChatModel } from "./gemini/GeminiChatModel";
import type { StreamingModel } from "./streamModelStep";
import type { SecretStore } from "../ports/SecretStore";
import type { FetchLike } from "../ports/FetchLike";
import { modelQuirks, type ModelQuirks } from "./modelAdapter";
import { ModelError, type ModelErrorContext } from "../net/modelErrors";
import { NO_API_KEY, PROVIDER_PROFILES } from "./providerProfiles";
import { eventStreamFetch } from "./wire/unexpectedBody";

export interface ChatModelPorts {
  /** How requests go out (see FetchLike). */
  fetch: FetchLike;
  secrets: SecretStore;
}

/** A chat model the runners stream, alone or with tools bound (tool_choice "none": tools stay, calls are off). */
export interface ToolBindingModel extends StreamingModel {
  bindTools(tools: OpenAIToolDefinition[], kwargs?: { tool_choice?: "auto" | "none" }): StreamingModel;
}

/** A chat model ready to stream, with what the runners need to speak about it. */
export interface ChatModelHandle {
  chatModel: ToolBindingModel;
  modelName: string;
  quirks: ModelQuirks;
  /** For ModelError messages ("Ollama (http://127.0.0.1:11434/v1) has no model …"). */
  errorContext: Omit<ModelErrorContext, "receivedAnything">;
  /** The key in use, so the payload recorder can redact it (empty when none). */
  secretValues: string[];
}

/**
 * Makes the chat model for the provider settings, in the wire format its preset speaks: OpenAI's
 * chat completions (OpenAI, Ollama, LM Studio, OpenRouter, any compatible server), Anthropic's
 * Messages API or Gemini's generateContent. Clients never retry on their own: the runners retry,
 * with backoff, and only before any part of an answer has arrived (a half-streamed answer cannot
 * be asked for again unseen).
 * Throws a ModelError ("missing-api-key") when the provider needs a key and none is stored.
 */
export function createChatModel(provider: ProviderSettings, ports: ChatModelPorts): ChatModelHandle {
  const profile = PROVIDER_PROFILES[provider.preset];
  const storedKey = ports.secrets.get(provider.apiKeySecretId)?.trim() ?? "";
  if (!storedKey && profile.requiresApiKey) {
    throw new ModelError(
      "missing-api-key",
      `No API key for ${profile.name}: add one in the settings (the provider's API key field).`,
    );
  }
  const quirks = modelQuirks(provider.model);
  return {
    chatModel: makeClient(provider, storedKey, quirks, ports.fetch),
    modelName: provider.model,
    quirks,
    errorContext: {
      providerName: profile.name,
      baseUrl: provider.baseUrl,
      model: provider.model,
      unreachableHint: profile.unreachableHint,
    },
    secretValues: storedKey ? [storedKey] : [],
  };
}

function makeClient(provider: ProviderSettings, storedKey: string, quirks: ModelQuirks, fetch: FetchLike): ToolBindingModel {
  const profile = PROVIDER_PROFILES[provider.preset];
  const fields = { model: provider.model, maxTokens: provider.maxTokens, temperature: provider.temperature, baseUrl: provider.baseUrl, apiKey: storedKey, fetch };
  if (profile.wire === "anthropic") return new AnthropicChatModel(fields);
  if (profile.wire === "gemini") return new GeminiChatModel(fields);
  return new ChatOpenAI<ChatOpenAICallOptions>({
    model: provider.model,
    apiKey: storedKey || NO_API_KEY,
    ...(quirks.acceptsTemperature ? { temperature: provider.temperature } : {}),
    maxTokens: provider.maxTokens,
    streaming: true,
    streamUsage: true,
    maxRetries: 0,
    configuration: {
      baseURL: provider.baseUrl.replace(/\/+$/, ""),
      // The OpenAI client takes an HTML page or an empty body for an answer without text.
      fetch: eventStreamFetch(fetch),
      defaultHeaders: { ...profile.headers },
      // Obsidian is a browser realm; the key is the user's own and goes only to their provider.
      dangerouslyAllowBrowser: true,
    },
  });
}
