import { DEFAULT_SETTINGS } from "../../constants";
import { MapSecretStore } from "../../ports/SecretStore";
import type { ProviderSettings } from "../../settings/settingsSchema";
import { startAnthropicServer } from "../../../test/helpers/anthropicServer";
import { startGeminiServer } from "../../../test/helpers/geminiServer";
import { startOpenAIServer } from "../../../test/helpers/openAIServer";
import { startRecordingServer } from "../../../test/helpers/recordingServer";
import { detectLocalServers } from "./detectLocalServers";
import { listProviderModels } from "./listProviderModels";
import { testConnection } from "./testConnection";

const secrets = new MapSecretStore();
secrets.set("key", "sk-connection-test");
const ports = { fetch: globalThis.fetch, secrets };

function provider(overrides: Partial<ProviderSettings>): ProviderSettings {
  return { ...DEFAULT_SETTINGS.provider, preset: "custom", model: "test-model", apiKeySecretId: "key", ...overrides };
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function ollamaLike(models: string[]) {
  const server = await startRecordingServer<unknown>({
    post: () => undefined,
    get: (path) => (path === "/api/tags" ? { status: 200, body: { models: models.map((name) => ({ name, model: name })) } } : undefined),
  });
  closers.push(() => server.close());
  return server;
}

describe("listProviderModels", () => {
  it("reads each provider's own list", async () => {
    const openai = await startOpenAIServer([], { knownModels: ["b-model", "a-model"] });
    const anthropic = await startAnthropicServer([], { knownModels: ["claude-b", "claude-a"] });
    const gemini = await startGeminiServer([], { knownModels: ["gemini-x"] });
    const ollama = await ollamaLike(["llama3:8b", "qwen3:4b"]);
    closers.push(() => openai.close(), () => anthropic.close(), () => gemini.close());
    expect(await listProviderModels(provider({ baseUrl: openai.baseUrl }), ports)).toEqual({ ok: true, models: ["a-model", "b-model"], imageInput: {} });
    expect(await listProviderModels(provider({ preset: "anthropic", baseUrl: anthropic.baseUrl }), ports)).toEqual({ ok: true, models: ["claude-a", "claude-b"], imageInput: {} });
    expect(await listProviderModels(provider({ preset: "gemini", baseUrl: gemini.baseUrl }), ports)).toEqual({ ok: true, models: ["gemini-x"], imageInput: {} });
    expect(await listProviderModels(provider({ preset: "ollama", baseUrl: `${ollama.origin}/v1` }), ports)).toEqual({ ok: true, models: ["llama3:8b", "qwen3:4b"], imageInput: {} });
  });

  it("asks nothing of a provider that needs a key before one is stored", async () => {
    const asked: string[] = [];
    const server = await startRecordingServer<unknown>({ post: () => undefined, get: (path) => (asked.push(path), { status: 200, body: { data: [{ id: "a-model" }] } }) });
    closers.push(() => server.close());
    const listing = await listProviderModels(provider({ preset: "openai", baseUrl: `${server.origin}/v1`, apiKeySecretId: "not-stored" }), ports);
    expect(listing.ok ? "listed" : listing.error.kind).toBe("missing-api-key");
    expect(asked).toEqual([]);
    // With the key stored, the same list is asked for.
    expect(await listProviderModels(provider({ preset: "openai", baseUrl: `${server.origin}/v1` }), ports)).toEqual({ ok: true, models: ["a-model"], imageInput: {} });
    expect(asked).toEqual(["/v1/models"]);
  });

  it("reads which models take images where the list says (OpenRouter's architecture.input_modalities)", async () => {
    const body = {
      data: [
        { id: "vision/модель-👁", architecture: { modality: "text+image->text", input_modalities: ["text", "image"], output_modalities: ["text"] } },
        { id: "text/only", architecture: { modality: "text->text", input_modalities: ["text"], output_modalities: ["text"] } },
        { id: "silent/model" },
      ],
    };
    const server = await startRecordingServer<unknown>({ post: () => undefined, get: () => ({ status: 200, body }) });
    closers.push(() => server.close());
    const listing = await listProviderModels(provider({ preset: "openrouter", baseUrl: `${server.origin}/api/v1` }), ports);
    expect(listing).toEqual({ ok: true, models: ["silent/model", "text/only", "vision/модель-👁"], imageInput: { "vision/модель-👁": true, "text/only": false } });
  });

  it("returns the failure in words when the server cannot be reached", async () => {
    const listing = await listProviderModels(provider({ baseUrl: "http://127.0.0.1:1/v1" }), ports);
    expect(listing.ok).toBe(false);
    if (!listing.ok) expect(listing.error.kind).toBe("unreachable");
  });
});

describe("testConnection", () => {
  it("passes every check against a server that has the model and takes tools", async () => {
    const server = await startOpenAIServer([{ text: "ready" }], { knownModels: ["test-model"] });
    closers.push(() => server.close());
    const verdict = await testConnection(provider({ baseUrl: server.baseUrl }), ports);
    expect(verdict.ok).toBe(true);
    expect(verdict.checks.map((check) => [check.name, check.outcome])).toEqual([
      ["reachable", "yes"],
      ["key accepted", "yes"],
      ["model present", "yes"],
      ["tools supported", "yes"],
    ]);
    const body = server.requests[0]!.body;
    expect(body.tools?.[0]?.function.name).toBe("connection_check");
    expect(body.max_tokens ?? body.max_completion_tokens).toBe(16);
  });

  it("names the model that is missing and what the server has", async () => {
    const server = await startOpenAIServer([], { knownModels: ["other-model"] });
    closers.push(() => server.close());
    const verdict = await testConnection(provider({ baseUrl: server.baseUrl }), ports);
    expect(verdict.ok).toBe(false);
    const missing = verdict.checks.find((check) => check.name === "model present");
    expect(missing).toMatchObject({ outcome: "no" });
    expect(missing?.detail).toMatch(/no model "test-model".*It lists: other-model\./);
  });

  it("says when the key is refused, the server is down, or tools are not taken", async () => {
    const anthropic = await startAnthropicServer([{ status: 401, type: "authentication_error", message: "invalid x-api-key" }]);
    closers.push(() => anthropic.close());
    let verdict = await testConnection(provider({ preset: "anthropic", baseUrl: anthropic.baseUrl, model: "claude-x" }), ports);
    expect(verdict.checks.at(-1)).toMatchObject({ name: "key accepted", outcome: "no", detail: expect.stringMatching(/refused the API key/) as string });

    verdict = await testConnection(provider({ baseUrl: "http://127.0.0.1:1/v1" }), ports);
    expect(verdict.checks).toEqual([{ name: "reachable", outcome: "no", detail: expect.stringMatching(/Cannot reach/) as string }]);

    const noTools = await startOpenAIServer([{ status: 400, message: "This model does not support tools" }], { knownModels: ["test-model"] });
    closers.push(() => noTools.close());
    verdict = await testConnection(provider({ baseUrl: noTools.baseUrl }), ports);
    expect(verdict.checks.at(-1)).toMatchObject({ name: "tools supported", outcome: "no" });
    expect(verdict.ok).toBe(false);
  });
});

describe("detectLocalServers", () => {
  it("finds Ollama and LM Studio where they answer, with their models, and skips what does not", async () => {
    const ollama = await ollamaLike(["llama3:8b"]);
    const lmstudio = await startOpenAIServer([], { knownModels: ["qwen2.5-7b-instruct"] });
    closers.push(() => lmstudio.close());
    expect(await detectLocalServers(globalThis.fetch, { ollama: ollama.origin, lmstudio: lmstudio.origin })).toEqual([
      { preset: "ollama", baseUrl: `${ollama.origin}/v1`, models: ["llama3:8b"] },
      { preset: "lmstudio", baseUrl: `${lmstudio.origin}/v1`, models: ["qwen2.5-7b-instruct"] },
    ]);
    expect(await detectLocalServers(globalThis.fetch, { ollama: "http://127.0.0.1:1", lmstudio: lmstudio.origin })).toEqual([
      { preset: "lmstudio", baseUrl: `${lmstudio.origin}/v1`, models: ["qwen2.5-7b-instruct"] },
    ]);
  });
});
