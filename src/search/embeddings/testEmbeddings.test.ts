/**
 * "Test" under the embeddings server in Settings: a real request to `{baseUrl}/embeddings`
 * through the index's own client, against servers on 127.0.0.1, said in one sentence.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { startEmbeddingServer, type EmbeddingServer } from "../../../test/helpers/embeddingServer";
import { startLocalServer } from "../../../test/helpers/localServer";
import { DEFAULT_SETTINGS } from "../../constants";
import { MapSecretStore } from "../../ports/SecretStore";
import { testEmbeddings } from "./testEmbeddings";

const settingsAt = (baseUrl: string, model = "nomic-embed-text", apiKeySecretId = "") => ({ ...DEFAULT_SETTINGS.embeddings, baseUrl, model, apiKeySecretId });

describe("testing the embeddings server", () => {
  let server: EmbeddingServer;
  beforeAll(async () => {
    server = await startEmbeddingServer({ dimensions: 48, knownModels: ["nomic-embed-text"] });
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  it("embeds one short text with the model and key set, and says how long the vectors are", async () => {
    const secrets = new MapSecretStore();
    secrets.set("embeddings-key", "sk-embeddings-test-key");
    const verdict = await testEmbeddings(settingsAt(server.baseUrl, "nomic-embed-text", "embeddings-key"), { fetch: globalThis.fetch, secrets });
    expect(verdict).toEqual({ ok: true, message: 'The server answered: "nomic-embed-text" gives vectors of 48 numbers.' });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ model: "nomic-embed-text", input: ["Vault Copilot checks the embeddings server."] });
    expect(server.requests[0]!.headers.authorization).toBe("Bearer sk-embeddings-test-key");
  });

  it.each([
    ["a model the server does not have", () => settingsAt(server.baseUrl, "модель-x"), `has no model "модель-x". Check the embeddings model's name.`],
    ["a refused key", () => (server.failNext({ status: 401, message: "bad key" }), settingsAt(server.baseUrl)), "refused the key. Check the embeddings API key."],
    ["a server error", () => (server.failNext({ status: 500, message: "服务器错误" }), settingsAt(server.baseUrl)), "failed to answer (HTTP 500: 服务器错误)."],
  ])("says so in a sentence for %s", async (_case, settings, sentence) => {
    const verdict = await testEmbeddings(settings(), { fetch: globalThis.fetch, secrets: new MapSecretStore() });
    expect(verdict.ok).toBe(false);
    expect(verdict.message).toMatch(/^The embeddings server \(http:\/\/127\.0\.0\.1:\d+\/v1\) /);
    expect(verdict.message.endsWith(sentence)).toBe(true);
  });

  it("says the address has no /embeddings endpoint when the server answers 404 without naming a model", async () => {
    const other = await startLocalServer(() => ({ status: 404, body: JSON.stringify({ error: "Not Found" }) }));
    try {
      const verdict = await testEmbeddings(settingsAt(`${other.url}/api`), { fetch: globalThis.fetch, secrets: new MapSecretStore() });
      expect(verdict).toEqual({ ok: false, message: `The embeddings server (${other.url}/api) has no /embeddings endpoint. Check the base URL: it usually ends in /v1.` });
      expect(other.requests[0]?.url).toBe("/api/embeddings");
    } finally {
      await other.close();
    }
  });

  it("says a server that cannot be reached cannot be reached, and what to check", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const verdict = await testEmbeddings(settingsAt(`http://127.0.0.1:${port}/v1`), { fetch: globalThis.fetch, secrets: new MapSecretStore() });
    expect(verdict).toEqual({ ok: false, message: `The embeddings server (http://127.0.0.1:${port}/v1) cannot be reached (connection refused). Check the address and that the server is running.` });
  });

  it("says what was wrong with an answer that holds no vectors", async () => {
    const other = await startLocalServer(() => ({ body: JSON.stringify({ data: [] }) }));
    try {
      const verdict = await testEmbeddings(settingsAt(`${other.url}/v1`), { fetch: globalThis.fetch, secrets: new MapSecretStore() });
      expect(verdict).toEqual({ ok: false, message: "The embeddings server sent an answer that cannot be used: 0 vectors for 1 texts." });
    } finally {
      await other.close();
    }
  });

  it.each([
    ["no vectors", { data: [] }, "The embeddings server sent an answer that cannot be used: 0 vectors for 1 texts."],
    ["an all-zero vector", { data: [{ index: 0, embedding: [0, 0, 0] }] }, /^The embeddings server sent 1 vector that cannot be used: /],
  ])("names an answer with %s as one that cannot be used, with the address and model, beside its sentence", async (_case, body, message) => {
    const other = await startLocalServer(() => ({ body: JSON.stringify(body) }));
    try {
      const verdict = await testEmbeddings(settingsAt(`${other.url}/v1`, "векторы-向量"), { fetch: globalThis.fetch, secrets: new MapSecretStore() }, undefined, { cases: true });
      expect(verdict).toEqual({ ok: false, message: expect.stringMatching(message), said: { code: "unusable-answer", baseUrl: `${other.url}/v1`, model: "векторы-向量" } });
    } finally {
      await other.close();
    }
  });
});
