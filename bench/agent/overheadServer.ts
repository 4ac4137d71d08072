import { parentPort, workerData } from "node:worker_threads";
import { startOpenAIServer, type RecordedChatRequest } from "../../test/helpers/openAIServer";
import type { RequestTiming } from "./overhead";

const clock = () => performance.timeOrigin + performance.now();

/**
 * The model for the overhead benchmark, in a worker thread: for each request it calls the next of
 * the ten tools until `toolSteps` calls were made in this turn, then answers; it answers at once.
 */
export async function serveOverheadModel(): Promise<void> {
  const toolSteps = (workerData as { toolSteps: number }).toolSteps;
  let timings: RequestTiming[] = [];
  const server = await startOpenAIServer((request: RecordedChatRequest) => {
    const timing: RequestTiming = { arrivedAt: clock(), answeredAt: 0, bytes: request.rawBody.length };
    timings.push(timing);
    void request.closed.then(() => (timing.answeredAt = clock()));
    const stepsSoFar = request.body.messages.filter((message) => message.role === "assistant").length;
    if (stepsSoFar >= toolSteps) return { text: "All ten kinds are in order.", chunkSize: 8 };
    return { toolCalls: [{ name: `benchTool${stepsSoFar % 10}`, arguments: JSON.stringify({ value: "this week", limit: 5 }) }], argumentChunkSize: 6 };
  });
  parentPort?.on("message", () => {
    parentPort?.postMessage({ timings });
    timings = [];
  });
  parentPort?.postMessage({ baseUrl: server.baseUrl });
}
