import { HumanMessage } from "@langchain/core/messages";
import { DEFAULT_SETTINGS } from "../constants";
import type { ProviderSettings } from "../settings/settingsSchema";
import { MapSecretStore } from "../ports/SecretStore";
import { createChatModel } from "./chatModelFactory";
import type { FetchLike } from "../ports/FetchLike";
import { ModelError } from "../net/modelErrors";
import { modelQuirks } from "./modelAdapter";
import { NO_API_KEY } from "./providerProfiles";
import { startOpenAIServer, type OpenAIServer } from "../../test/helpers/openAIServer";

let server: OpenAIServer;
beforeAll(async () => {
  server = await startOpenAIServer(() => ({ text: "pong" }));
});
afterAll(() => server.close());

function provider(overrides: Partial<ProviderSettings>): ProviderSettings {
  return { ...DEFAULT_SETTINGS.provider, baseUrl: server.baseUrl, model: "test-model", apiKeySecretId: "key", ...overrides };
}

async function ask(settings: ProviderSettings, secrets = new MapSecretStore(), fetch: FetchLike = globalThis.fetch): Promise<string> {
  const { chatModel } = createChatModel(settings, { fetch, secrets });
  let text = "";
  for await (const chunk of await chatModel.stream([new HumanMessage("ping")], { signal: new AbortController().signal })) text += typeof chunk.content === "string" ? chunk.content : "";
  return text;
}

describe("createChatModel", () => {
  it("streams through the fetch it is given, with the stored key as bearer token", async () => {
    const secrets = new MapSecretStore();
    secrets.set("key", "sk-from-secret-store");
    const urls: string[] = [];
    const countingFetch: FetchLike = (input, init) => {
      urls.push(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
      return globalThis.fetch(input, init);
    };
    expect(await ask(provider({ preset: "openai" }), secrets, countingFetch)).toBe("pong");
    expect(urls).toEqual([`${server.baseUrl}/chat/completions`]);
    const request = server.requests.at(-1);
    expect(request?.headers.authorization).toBe("Bearer sk-from-secret-store");
    expect(request?.body).toMatchObject({ model: "test-model", stream: true, temperature: DEFAULT_SETTINGS.provider.temperature, max_tokens: 4096 });
    expect(request?.body.stream_options).toEqual({ include_usage: true });
  });

  it("refuses to start a provider that needs a key when none is stored", () => {
    for (const preset of ["openai", "openrouter"] as const) {
      expect(() => createChatModel(provider({ preset }), { fetch: globalThis.fetch, secrets: new MapSecretStore() })).toThrow(ModelError);
    }
    expect(() => createChatModel(provider({ preset: "openai" }), { fetch: globalThis.fetch, secrets: new MapSecretStore() })).toThrow(/No API key for OpenAI/);
  });

  it("talks to local servers without a key", async () => {
    for (const preset of ["ollama", "lmstudio", "custom"] as const) {
      expect(await ask(provider({ preset }))).toBe("pong");
      expect(server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${NO_API_KEY}`);
    }
  });

  it("sends OpenRouter's attribution headers", async () => {
    const secrets = new MapSecretStore();
    secrets.set("key", "sk-or-test");
    await ask(provider({ preset: "openrouter" }), secrets);
    expect(server.requests.at(-1)?.headers).toMatchObject({ "http-referer": "https://obsidian.md", "x-title": "Vault Copilot" });
  });

  it("leaves out the temperature for reasoning models", async () => {
    await ask(provider({ preset: "custom", model: "openai/o3-mini" }));
    expect(server.requests.at(-1)?.body.model).toBe("openai/o3-mini");
    expect(server.requests.at(-1)?.body).not.toHaveProperty("temperature");
  });

  it("accepts a base URL with a trailing slash", async () => {
    expect(await ask(provider({ preset: "custom", baseUrl: `${server.baseUrl}/` }))).toBe("pong");
    expect(server.requests.at(-1)?.url).toBe("/v1/chat/completions");
  });

  it("hands back the key for redaction and the words for error messages", () => {
    const secrets = new MapSecretStore();
    secrets.set("key", "sk-abc");
    const handle = createChatModel(provider({ preset: "ollama" }), { fetch: globalThis.fetch, secrets });
    expect(handle.secretValues).toEqual(["sk-abc"]);
    expect(handle.errorContext).toMatchObject({ providerName: "Ollama", baseUrl: server.baseUrl, model: "test-model" });
    expect(handle.errorContext.unreachableHint).toMatch(/ollama serve/);
  });
});

describe("modelQuirks", () => {
  it("knows which models take a temperature and a system message", () => {
    expect(modelQuirks("gpt-4.1-mini")).toEqual({ acceptsTemperature: true, acceptsSystemMessage: true });
    expect(modelQuirks("o3")).toEqual({ acceptsTemperature: false, acceptsSystemMessage: true });
    expect(modelQuirks("gpt-5-mini").acceptsTemperature).toBe(false);
    expect(modelQuirks("openai/o1-mini")).toEqual({ acceptsTemperature: false, acceptsSystemMessage: false });
    expect(modelQuirks("llama3.1:8b")).toEqual({ acceptsTemperature: true, acceptsSystemMessage: true });
    expect(modelQuirks("qwen3-o1-distill").acceptsTemperature).toBe(true);
  });
});
