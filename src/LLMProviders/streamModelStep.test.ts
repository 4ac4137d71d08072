import { ContextManager } from "../context/ContextManager";
import { LLMChainRunner } from "./chainRunner/LLMChainRunner";
import { startOpenAIServer, type OpenAIServer } from "../../test/helpers/openAIServer";
import { eventLog, FAST_RETRIES, modelFactory, settingsFor } from "../../test/helpers/runnerHarness";
import { MODEL_IDLE_TIMEOUT_MS } from "./streamModelStep";

let server: OpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A chat runner whose idle timeout is short, so a silent server fails the test quickly. */
function runnerFor(target: OpenAIServer, idleTimeoutMs: number): LLMChainRunner {
  const settings = settingsFor(target);
  return new LLMChainRunner({ getSettings: () => settings, createModel: modelFactory(() => settings), retryPolicy: FAST_RETRIES, modelIdleTimeoutMs: idleTimeoutMs });
}

describe("the model idle timeout", () => {
  it("is two minutes unless a runner is given another", () => {
    expect(MODEL_IDLE_TIMEOUT_MS).toBe(120_000);
  });

  it("fails with kind timeout when the server accepts the request and never answers", async () => {
    server = await startOpenAIServer(() => new Promise(() => undefined));
    const result = await runnerFor(server, 300).run({ userMessage: "Hello?", conversation: new ContextManager(), signal: new AbortController().signal });
    expect(result.status).toBe("failed");
    expect(result.error).toEqual({ kind: "timeout", message: "The model server did not answer for 0.3 s." });
    // The request was given up, not left open behind the run.
    await server.requests[0]?.closed;
  });

  it("fails with kind timeout, keeping the part that arrived, when the stream stops mid-answer", async () => {
    server = await startOpenAIServer([{ text: "The first half", holdOpen: true }]);
    const log = eventLog();
    const result = await runnerFor(server, 300).run({ userMessage: "Hello?", conversation: new ContextManager(), signal: new AbortController().signal, onEvent: log.onEvent });
    expect(result.status).toBe("failed");
    expect(result.error?.kind).toBe("timeout");
    expect(result.error?.message).toBe("The model server did not answer for 0.3 s; the part that arrived is kept.");
    expect(result.text).toBe("The first half");
    expect(server.requests).toHaveLength(1);
  });
});
