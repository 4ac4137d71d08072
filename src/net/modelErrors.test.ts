import { classifyModelError, ModelError, retryAfterMs } from "./modelErrors";
import { retryDelayMs, type RetryPolicy } from "./retryPolicy";
import { ToolCallAssembler } from "../LLMProviders/toolCallAssembler";

const context = { providerName: "Ollama", baseUrl: "http://127.0.0.1:11434/v1", model: "llama3", unreachableHint: "Is Ollama running?", receivedAnything: false };

describe("classifyModelError", () => {
  it("tells a missing model from a wrong base URL on 404", () => {
    const missingModel = classifyModelError({ status: 404, error: { message: "model 'llama3' not found" } }, context);
    expect(missingModel.kind).toBe("model-not-found");
    expect(missingModel.message).toBe(`Ollama (http://127.0.0.1:11434/v1) has no model "llama3" (HTTP 404: model 'llama3' not found). Check the model name.`);
    const wrongPath = classifyModelError({ status: 404, message: "404 page not found" }, context);
    expect(wrongPath.kind).toBe("endpoint-not-found");
    expect(wrongPath.message).toMatch(/it usually ends in \/v1/);
  });

  it("treats a 400 that says the model does not exist as an unknown model", () => {
    expect(classifyModelError({ status: 400, error: { message: "Model does not exist: foo" } }, context).kind).toBe("model-not-found");
    expect(classifyModelError({ status: 400, error: { message: "messages must not be empty" } }, context).kind).toBe("bad-request");
  });

  it("marks rate limits and server errors retryable, with the server's Retry-After", () => {
    const limited = classifyModelError({ status: 429, headers: new Headers({ "retry-after": "3" }) }, context);
    expect(limited).toMatchObject({ kind: "rate-limited", retryable: true, status: 429 });
    expect(limited.details.retryAfterMs).toBe(3000);
    expect(classifyModelError({ status: 503 }, context).retryable).toBe(true);
    expect(classifyModelError({ status: 401 }, context)).toMatchObject({ kind: "authentication", retryable: false });
  });

  it("names the network problem found along the cause chain", () => {
    const refused = { message: "Connection error.", cause: { message: "fetch failed", cause: { code: "ECONNREFUSED" } } };
    const error = classifyModelError(refused, context);
    expect(error).toMatchObject({ kind: "unreachable", retryable: false });
    expect(error.message).toBe("Cannot reach Ollama (http://127.0.0.1:11434/v1) (connection refused). Is Ollama running?");
    expect(classifyModelError({ message: "Connection error.", cause: { code: "ECONNRESET" } }, context).retryable).toBe(true);
  });

  it("calls a failure after part of the answer an interruption", () => {
    const cut = classifyModelError({ name: "TypeError", message: "terminated" }, { ...context, receivedAnything: true });
    expect(cut.kind).toBe("interrupted");
    expect(cut.message).toMatch(/the part that arrived is kept/);
  });

  it("reports a stop as aborted, and passes ModelErrors through", () => {
    const controller = new AbortController();
    controller.abort();
    expect(classifyModelError(new Error("anything"), context, controller.signal).kind).toBe("aborted");
    expect(classifyModelError(Object.assign(new Error("x"), { name: "AbortError" }), context).kind).toBe("aborted");
    const original = new ModelError("missing-api-key", "no key");
    expect(classifyModelError(original, context)).toBe(original);
  });

  it("drops LangChain's troubleshooting link from the server's words", () => {
    const error = classifyModelError({ status: 418, message: "418 I'm a teapot\n\nTroubleshooting URL: https://example/x\n" }, context);
    expect(error.message).toBe("Ollama (http://127.0.0.1:11434/v1) rejected the request (HTTP 418: I'm a teapot).");
  });
});

describe("retryAfterMs", () => {
  it("reads seconds and HTTP dates, from Headers or a record", () => {
    expect(retryAfterMs(new Headers({ "retry-after": "0" }))).toBe(0);
    expect(retryAfterMs({ "retry-after": "1.5" })).toBe(1500);
    const now = Date.parse("2026-12-02T10:00:00Z");
    expect(retryAfterMs({ "retry-after": "Wed, 02 Dec 2026 10:00:07 GMT" }, now)).toBe(7000);
    expect(retryAfterMs({ "retry-after": "soon" })).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});

describe("retryDelayMs", () => {
  const policy: RetryPolicy = { maxAttempts: 4, baseDelayMs: 1000, maxDelayMs: 5000, random: () => 1 };
  const server = new ModelError("server", "500", { retryable: true });

  it("doubles the wait after each failure, up to the cap, and stops after the last try", () => {
    expect([1, 2, 3].map((failures) => retryDelayMs(policy, failures, server))).toEqual([1000, 2000, 4000]);
    expect(retryDelayMs({ ...policy, maxAttempts: 10 }, 5, server)).toBe(5000);
    expect(retryDelayMs(policy, 4, server)).toBeNull();
  });

  it("jitters the backoff down to half", () => {
    expect(retryDelayMs({ ...policy, random: () => 0 }, 2, server)).toBe(1000);
  });

  it("waits as long as the server asks, unless that is longer than the cap", () => {
    expect(retryDelayMs(policy, 1, new ModelError("rate-limited", "429", { retryable: true, retryAfterMs: 2500 }))).toBe(2500);
    expect(retryDelayMs(policy, 1, new ModelError("rate-limited", "429", { retryable: true, retryAfterMs: 60_000 }))).toBeNull();
  });

  it("never retries what a retry cannot cure", () => {
    expect(retryDelayMs(policy, 1, new ModelError("authentication", "401"))).toBeNull();
  });
});

describe("ToolCallAssembler", () => {
  it("joins argument pieces by index, keeping the first id and name", () => {
    const assembler = new ToolCallAssembler((position) => `fallback_${position}`);
    assembler.add({ index: 1, id: "b", name: "second", args: "" });
    assembler.add({ index: 0, id: "a", name: "first", args: '{"x"' });
    assembler.add({ index: 1, args: '{"y":2}' });
    assembler.add({ index: 0, id: "a", args: ":1}" });
    expect(assembler.result()).toEqual([
      { id: "a", name: "first", argumentsText: '{"x":1}' },
      { id: "b", name: "second", argumentsText: '{"y":2}' },
    ]);
  });

  it("copes with servers that leave out the index or the id", () => {
    const assembler = new ToolCallAssembler((position) => `fallback_${position}`);
    assembler.add({ id: "one", name: "first", args: "{}" });
    assembler.add({ id: "two", name: "second", args: '{"a"' });
    assembler.add({ args: ":1}" });
    assembler.add({ index: 2, name: "third", args: "{}" });
    expect(assembler.result()).toEqual([
      { id: "one", name: "first", argumentsText: "{}" },
      { id: "two", name: "second", argumentsText: '{"a":1}' },
      { id: "fallback_2", name: "third", argumentsText: "{}" },
    ]);
  });

  it("keeps broken JSON as it came", () => {
    const assembler = new ToolCallAssembler(() => "x");
    assembler.add({ index: 0, id: "a", name: "n", args: '{"path": "Al' });
    expect(assembler.result()[0]?.argumentsText).toBe('{"path": "Al');
  });
});
