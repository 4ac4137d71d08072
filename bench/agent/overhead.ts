import { Worker } from "node:worker_threads";
import { ContextManager } from "../../src/context/ContextManager";
import { AutonomousAgentChainRunner } from "../../src/LLMProviders/chainRunner/AutonomousAgentChainRunner";
import { createChatModel } from "../../src/LLMProviders/chatModelFactory";
import { DEFAULT_SETTINGS } from "../../src/constants";
import { MapSecretStore } from "../../src/ports/SecretStore";
import { ToolRegistry } from "../../src/tools/ToolRegistry";
import { benchTools } from "./benchTools";

/** What the server thread reports for each request: when it arrived and when its answer ended. */
export interface RequestTiming {
  arrivedAt: number;
  answeredAt: number;
  bytes: number;
}

export interface OverheadFigures {
  runs: number;
  toolSteps: number;
  /** Milliseconds from the end of one answer to the arrival of the next request, every gap of every run. */
  medianMs: number;
  p90Ms: number;
  firstStepMedianMs: number;
  lastStepMedianMs: number;
  /** The request body of the last step, in bytes (the payload grows each step). */
  lastRequestBytes: number;
}

const TOOL_STEPS = 10;

/**
 * Agent overhead per iteration: everything but the model's time. The model is a scripted
 * server in its own thread that answers at once; it notes when each request arrives and when its
 * answer has been sent. The gap between the end of one answer and the next request is what the
 * agent spends: reading the stream's end, assembling the tool call, running the tool, building and
 * converting the payload, serializing and sending it.
 */
export async function measureOverhead(serverScript: string, runs = 30, warmups = 5): Promise<OverheadFigures> {
  const worker = new Worker(serverScript, { workerData: { role: "overhead-server", toolSteps: TOOL_STEPS } });
  const baseUrl = await new Promise<string>((resolve) => worker.once("message", (message: { baseUrl: string }) => resolve(message.baseUrl)));
  const timings = (): Promise<RequestTiming[]> =>
    new Promise((resolve) => {
      worker.once("message", (message: { timings: RequestTiming[] }) => resolve(message.timings));
      worker.postMessage("timings");
    });

  const registry = new ToolRegistry();
  const tools = benchTools();
  registry.registerAll(tools);
  const settings = {
    ...structuredClone(DEFAULT_SETTINGS),
    autonomousAgentEnabledToolIds: tools.map((definition) => definition.metadata.id),
    autonomousAgentMaxIterations: TOOL_STEPS + 1,
    provider: { ...DEFAULT_SETTINGS.provider, preset: "custom" as const, baseUrl, model: "bench-model", apiKeySecretId: "" },
  };
  const secrets = new MapSecretStore();
  const runner = new AutonomousAgentChainRunner({
    getSettings: () => settings,
    createModel: () => createChatModel(settings.provider, { fetch: globalThis.fetch, secrets }),
    registry,
    vaultAvailable: () => true,
  });

  const gaps: number[][] = [];
  let lastRequestBytes = 0;
  for (let run = 0; run < warmups + runs; run++) {
    const result = await runner.run({ userMessage: "Check every kind of record for me.", conversation: new ContextManager(), signal: new AbortController().signal });
    if (result.status !== "completed" || result.toolCalls.length !== TOOL_STEPS) throw new Error(`bench run failed: ${JSON.stringify(result.error ?? result.toolCalls.length)}`);
    const requests = await timings();
    if (run < warmups) continue;
    gaps.push(requests.slice(1).map((request, index) => request.arrivedAt - (requests[index]?.answeredAt ?? 0)));
    lastRequestBytes = requests.at(-1)?.bytes ?? 0;
  }
  await worker.terminate();

  const all = gaps.flat();
  return {
    runs,
    toolSteps: TOOL_STEPS,
    medianMs: quantile(all, 0.5),
    p90Ms: quantile(all, 0.9),
    firstStepMedianMs: quantile(gaps.map((run) => run[0] ?? 0), 0.5),
    lastStepMedianMs: quantile(gaps.map((run) => run.at(-1) ?? 0), 0.5),
    lastRequestBytes,
  };
}

export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return (sorted[low] ?? 0) + ((sorted[high] ?? 0) - (sorted[low] ?? 0)) * (position - low);
}
