import { startEmbeddingServer, type EmbeddingServer } from "../../../test/helpers/embeddingServer";
import { HttpStatusError } from "../../net/httpStatusError";
import { classifyModelError } from "../../net/modelErrors";
import { createEmbeddingClient, EmbeddingResponseError, UnusableVectorsError } from "./embeddingClient";
import { startLocalServer } from "../../../test/helpers/localServer";
import { FakeScheduler } from "../../../test/helpers/fakeScheduler";
import { ModelError } from "../../net/modelErrors";
import { MODEL_IDLE_TIMEOUT_MS } from "../../net/silenceWatch";

/** Node's own fetch: the tests run in Node, where the CLI uses it too. */
const hostFetch = globalThis.fetch.bind(globalThis);

let server: EmbeddingServer;
beforeAll(async () => {
  server = await startEmbeddingServer({ dimensions: 16, synonyms: { automobile: "car" } });
});
afterAll(() => server.close());
afterEach(() => server.reset());

const length = (vector: Float32Array) => Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));

describe("createEmbeddingClient", () => {
  it("posts the model and texts, sends the key, and returns unit vectors in the texts' order", async () => {
    const client = createEmbeddingClient({ fetch: hostFetch, baseUrl: `${server.baseUrl}/`, model: "embed-small", apiKey: "sk-test" });
    const vectors = await client.embed(["red car car", "blue sky", "automobile"]);
    const request = server.requests[server.requests.length - 1];
    expect(request?.model).toBe("embed-small");
    expect(request?.input).toEqual(["red car car", "blue sky", "automobile"]);
    expect(request?.headers.authorization).toBe("Bearer sk-test");
    expect(vectors).toHaveLength(3);
    for (const vector of vectors) expect(length(vector)).toBeCloseTo(1, 5);
    // The server lists its answers in reverse: each vector is still its own text's.
    const expected = server.vectorOf("red car car");
    const norm = Math.sqrt(expected.reduce((sum, value) => sum + value * value, 0));
    expect(Array.from(vectors[0] ?? [])).toEqual(expected.map((value) => expect.closeTo(value / norm, 5) as unknown as number));
  });

  it("sends no authorization header without a key and makes no request for no texts", async () => {
    const client = createEmbeddingClient({ fetch: hostFetch, baseUrl: server.baseUrl, model: "m" });
    const before = server.requests.length;
    expect(await client.embed([])).toEqual([]);
    expect(server.requests).toHaveLength(before);
    await client.embed(["x"]);
    expect(server.requests[before]?.headers.authorization).toBeUndefined();
  });

  it("throws HttpStatusError on a non-2xx answer, with Retry-After for the retry policy", async () => {
    const client = createEmbeddingClient({ fetch: hostFetch, baseUrl: server.baseUrl, model: "m" });
    server.failNext({ status: 429, retryAfter: "2", message: "slow down" });
    const error: unknown = await client.embed(["x"]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpStatusError);
    const classified = classifyModelError(error, { providerName: "Embeddings", baseUrl: server.baseUrl, model: "m", unreachableHint: "", receivedAnything: false });
    expect(classified.kind).toBe("rate-limited");
    expect(classified.details.retryAfterMs).toBe(2000);
    expect(classified.message).toContain("slow down");
  });

  it("refuses an answer with the wrong number of vectors", async () => {
    const odd = await startLocalServer(() => ({ body: JSON.stringify({ data: [{ index: 0, embedding: [1, 0] }] }) }));
    try {
      const client = createEmbeddingClient({ fetch: hostFetch, baseUrl: odd.url, model: "m" });
      await expect(client.embed(["a", "b"])).rejects.toBeInstanceOf(EmbeddingResponseError);
    } finally {
      await odd.close();
    }
  });

  it("gives up on a server that accepts and never answers after the idle limit (as model requests), with a timeout error", async () => {
    const time = new FakeScheduler();
    server.stall();
    const client = createEmbeddingClient({ fetch: hostFetch, baseUrl: server.baseUrl, model: "m", scheduler: time });
    const outcome = client.embed(["Свёкла"]).catch((caught: unknown) => caught);
    await server.arrived(1);
    time.advance(MODEL_IDLE_TIMEOUT_MS - 1);
    expect(time.pending).toBe(1);
    time.advance(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ kind: "timeout", retryable: false, message: `The embeddings server (${server.baseUrl}) did not answer for 120 s.` });
  });

  it("stops a stalled request at once when its signal fires, with the signal's reason", async () => {
    server.stall();
    const client = createEmbeddingClient({ fetch: hostFetch, baseUrl: server.baseUrl, model: "m", idleTimeoutMs: 3_600_000 });
    const stop = new AbortController();
    const outcome = client.embed(["x"], stop.signal).catch((caught: unknown) => caught);
    await server.arrived(1);
    stop.abort(new Error("terminated"));
    expect(await outcome).toMatchObject({ message: "terminated" });
  });

  it("refuses vectors beyond float32 or all zero, text by text, and keeps the others as unit vectors", async () => {
    // The server's vectors have 16 dimensions.
    const padded = (...values: number[]) => [...values, ...new Array<number>(16 - values.length).fill(0)];
    server.answerVectors((text) => ({ "🦓 зебра": padded(3.5e38, 1), "صفر": padded(), "细小": padded(1e-46, 1e-46) })[text]);
    const client = createEmbeddingClient({ fetch: hostFetch, baseUrl: server.baseUrl, model: "m" });
    const error = await client.embed(["🦓 зебра", "обычный текст", "صفر", "细小"]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnusableVectorsError);
    const refused = error as UnusableVectorsError;
    expect([...refused.problems].sort(([a], [b]) => a - b)).toEqual([
      [0, "a value beyond the float32 range (3.5e+38)"],
      [2, "all its values are zero"],
    ]);
    expect(refused.vectors[0]).toBeUndefined();
    expect(refused.vectors[2]).toBeUndefined();
    // A vector of values too small for float32 still has a direction, computed before it is stored.
    expect(Array.from(refused.vectors[3] ?? []).slice(0, 3)).toEqual([expect.closeTo(Math.SQRT1_2, 6), expect.closeTo(Math.SQRT1_2, 6), 0]);
    expect(length(refused.vectors[1] ?? new Float32Array())).toBeCloseTo(1, 5);
  });
});
