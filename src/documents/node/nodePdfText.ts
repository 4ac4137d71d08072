import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { PdfTextPort } from "../PdfTextPort";
import { pdfJsOpener, pdfTextPort, type PdfJsModule } from "../pdfText";

/**
 * The CLI's and the tests' PDF port: `pdfjs-dist` (the library Obsidian ships, in its legacy build
 * for Node) in a worker thread. pdfjs-dist is an ES module: a worker imports it natively, where
 * the CLI's CommonJS bundle and jest's module system cannot; and the parsing runs off the main
 * thread. The worker answers a few calls of pdf.js's own API, so the extraction itself is the
 * plugin's (`pdfJsOpener`, `pdfTextPort`). The worker keeps the process alive only while a call is
 * open, and `dispose` ends it.
 */
export function nodePdfText(): PdfTextPort & { dispose(): Promise<void> } {
  const remote = new RemotePdfJs();
  return { ...pdfTextPort(pdfJsOpener(remote)), dispose: () => remote.dispose() };
}

interface Reply {
  id: number;
  error?: { name: string; message: string };
  [key: string]: unknown;
}

/** pdf.js's getDocument / getPage / getTextContent / destroy, answered by a worker thread. */
class RemotePdfJs implements PdfJsModule {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void }>();

  getDocument(source: Record<string, unknown>): ReturnType<PdfJsModule["getDocument"]> {
    const documentId = this.nextId++;
    const { data, ...options } = source;
    const bytes = data as Uint8Array;
    const opened = this.call({ type: "open", document: documentId, bytes, options }, [bytes.buffer as ArrayBuffer]).then((reply) => ({
      numPages: reply.pageCount as number,
      getPage: (pageNumber: number) =>
        Promise.resolve({
          getTextContent: async () => ({ items: (await this.call({ type: "page", document: documentId, page: pageNumber })).items as unknown[] }),
          cleanup: () => undefined,
        }),
      destroy: async () => {
        await this.call({ type: "close", document: documentId });
      },
    }));
    return { promise: opened, destroy: async () => void (await this.call({ type: "close", document: documentId })) };
  }

  async dispose(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    for (const { reject } of this.waiting.values()) reject(new Error("The PDF reader was closed."));
    this.waiting.clear();
    if (worker) await worker.terminate();
  }

  private call(message: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<Reply> {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise<Reply>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ ...message, id }, transfer);
    });
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const pdfjsUrl = pathToFileURL(require.resolve("pdfjs-dist/legacy/build/pdf.mjs")).href;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { pdfjsUrl } });
    worker.on("message", (reply: Reply) => {
      const pending = this.waiting.get(reply.id);
      if (!pending) return;
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) worker.unref();
      if (reply.error) pending.reject(Object.assign(new Error(reply.error.message), { name: reply.error.name }));
      else pending.resolve(reply);
    });
    const fail = (error: Error) => {
      for (const { reject } of this.waiting.values()) reject(new Error(`The PDF reader stopped: ${error.message}`));
      this.waiting.clear();
      if (this.worker === worker) this.worker = undefined;
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`its worker exited (${code})`)));
    this.worker = worker;
    return worker;
  }
}

/** The worker: pdf.js's calls by message, one open document per id. Plain JavaScript, run as it is. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const loading = import(workerData.pdfjsUrl);
const documents = new Map();
parentPort.on("message", async (message) => {
  const reply = (body) => parentPort.postMessage({ id: message.id, ...body });
  try {
    const pdfjs = await loading;
    if (message.type === "open") {
      const task = pdfjs.getDocument({ ...message.options, data: message.bytes });
      documents.set(message.document, task);
      const document = await task.promise;
      reply({ pageCount: document.numPages });
    } else if (message.type === "page") {
      const task = documents.get(message.document);
      if (!task) throw new Error("that PDF is closed");
      const page = await (await task.promise).getPage(message.page);
      try {
        const content = await page.getTextContent();
        reply({ items: content.items.filter((item) => typeof item.str === "string").map((item) => ({ str: item.str, hasEOL: item.hasEOL === true })) });
      } finally {
        page.cleanup();
      }
    } else if (message.type === "close") {
      const task = documents.get(message.document);
      documents.delete(message.document);
      if (task) await task.destroy();
      reply({});
    }
  } catch (error) {
    reply({ error: { name: String((error && error.name) || "Error"), message: String((error && error.message) || error) } });
  }
});
`;
