// Stands in for langsmith's tracing `Client` (langsmith/lib/client.mjs) in main.js. LangChain
// constructs one for every RunTree it makes (with tracing off) and awaits its pending batches, but
// only sends anything when LANGSMITH_TRACING / LANGCHAIN_TRACING_V2 is set in the environment, which
// the plugin never sets. The real client (about 190 KB with its REST resources, OpenTelemetry
// translator and workers) is therefore dead weight; should tracing be switched on from the
// environment anyway, each send fails with this message rather than reaching the network.
const NOT_INCLUDED =
  "LangSmith tracing is not included in Vault Copilot (a tracing variable such as LANGSMITH_TRACING is set in the environment); nothing was sent.";

export class Client {
  constructor(config = {}) {
    this.config = config;
  }

  async createRun() {
    throw new Error(NOT_INCLUDED);
  }

  async updateRun() {
    throw new Error(NOT_INCLUDED);
  }

  async batchIngestRuns() {
    throw new Error(NOT_INCLUDED);
  }

  async multipartIngestRuns() {
    throw new Error(NOT_INCLUDED);
  }

  /** Nothing is ever queued, so there is never anything to wait for. */
  async awaitPendingTraceBatches() {}
}
