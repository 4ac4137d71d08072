// The embeddings benchmark (`npm run bench -- embeddings`).
// 1. Vector search: a VectorStore of BENCH_EMB_SECTIONS sections (default 50,000: 10,000 notes
//    of 5 sections) of 384 random unit vectors, int8 with a scale each. Query p50/p95 (flat scan,
//    best section per note, top 10), similarToNote, memory, serialized size, write and read times.
// 2. Embedding throughput: the Embedder over a real folder of notes against the scripted
//    embeddings server in this process answering at once, so what is timed is our side (reading,
//    cutting, hashing, requests, quantising, saving) plus the server's own small work. The
//    longest stall of the event loop during the run is what typing would feel.
// Bundled and run by bench/run.mjs.
import { performance } from "node:perf_hooks";
import { startEmbeddingServer } from "../../test/helpers/embeddingServer";
import { makeTempVault } from "../../test/helpers/tempVault";
import { createEmbeddingClient } from "../../src/search/embeddings/embeddingClient";
import { Embedder, type EmbedderSettings } from "../../src/search/embeddings/Embedder";
import { VectorStore } from "../../src/search/embeddings/vectorStore";
import { TimeSlicer } from "../../src/search/TimeSlicer";
import { FsDataStore, pluginDataFolder } from "../../src/vault/fsDataStore";
import { FsVault } from "../../src/vault/FsVault";

const SECTIONS = Number(process.env.BENCH_EMB_SECTIONS ?? 50_000);
const DIMS = 384;
const PER_NOTE = 5;
const QUERIES = 200;
const NOTES_TO_EMBED = Number(process.env.BENCH_EMB_NOTES ?? 2000);

const print = (line: string) => process.stdout.write(`${line}\n`);
const ms = (value: number) => `${value.toFixed(value >= 100 ? 0 : 2)} ms`;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const percentile = (values: number[], share: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * share))] ?? NaN;

/** A deterministic generator, so every run measures the same vectors. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function randomUnit(random: () => number): Float32Array {
  const vector = new Float32Array(DIMS);
  let sum = 0;
  for (let index = 0; index < DIMS; index++) {
    // Roughly normal (sum of uniforms), so directions are spread evenly.
    const value = random() + random() + random() - 1.5;
    vector[index] = value;
    sum += value * value;
  }
  const inverse = 1 / Math.sqrt(sum);
  for (let index = 0; index < DIMS; index++) vector[index] = (vector[index] ?? 0) * inverse;
  return vector;
}

function memory(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

async function vectorSearch(): Promise<void> {
  const random = seeded(20261204);
  const before = memory();
  const buildStart = performance.now();
  const store = new VectorStore("bench-384");
  const notes = Math.ceil(SECTIONS / PER_NOTE);
  for (let note = 0; note < notes; note++) {
    const path = `Folder ${note % 50}/Note ${note}.md`;
    const count = Math.min(PER_NOTE, SECTIONS - note * PER_NOTE);
    store.set(path, Array.from({ length: count }, (_, index) => ({ key: `${path}#${index}`, hash: "0123456789abcdef", vector: randomUnit(random) })));
  }
  const buildMs = performance.now() - buildStart;
  const held = memory() - before;

  const queries = Array.from({ length: QUERIES }, () => randomUnit(random));
  for (const query of queries.slice(0, 10)) store.search(query, 10);
  const times = queries.map((query) => {
    const start = performance.now();
    store.search(query, 10);
    return performance.now() - start;
  });
  const similarTimes = Array.from({ length: 50 }, (_, index) => {
    const start = performance.now();
    const note = index * 7;
    store.similarToNote(`Folder ${note % 50}/Note ${note}.md`, 10);
    return performance.now() - start;
  });

  // What the Embedder does: the same work cut into slices of ~12 ms, the thread handed back between.
  const writeSlicer = new TimeSlicer();
  const slicedStart = performance.now();
  const slicedText = await store.serializeSliced(() => writeSlicer.checkpoint());
  const slicedWriteMs = performance.now() - slicedStart;
  const longestWriteSlice = writeSlicer.longestSliceMs;
  const readSlicer = new TimeSlicer();
  const slicedReadStart = performance.now();
  await VectorStore.deserializeSliced(slicedText, () => readSlicer.checkpoint());
  const slicedReadMs = performance.now() - slicedReadStart;
  const longestReadSlice = readSlicer.longestSliceMs;
  const writeStart = performance.now();
  const text = store.serialize();
  const writeMs = performance.now() - writeStart;
  const readStart = performance.now();
  const back = VectorStore.deserialize(text);
  const readMs = performance.now() - readStart;
  if (back.sectionCount !== store.sectionCount || text !== slicedText) throw new Error("the store did not read back");

  print(`vector search: ${store.sectionCount} sections x ${DIMS} dims in ${store.noteCount} notes (int8 + scale, flat scan)`);
  print(`  query (top 10 notes): p50 ${ms(percentile(times, 0.5))}, p95 ${ms(percentile(times, 0.95))} over ${QUERIES} queries`);
  print(`  similarToNote: p50 ${ms(percentile(similarTimes, 0.5))}, p95 ${ms(percentile(similarTimes, 0.95))}`);
  print(`  memory held (heap + array buffers): ${mib(held)}; vectors alone ${mib(store.byteSize)}`);
  print(`  serialized: ${mib(text.length)} (${(text.length / store.sectionCount).toFixed(0)} chars a section); write ${ms(writeMs)}, read ${ms(readMs)}; built in ${ms(buildMs)}`);
  print(`  in slices (as the Embedder saves and loads): write ${ms(slicedWriteMs)} with the longest slice ${ms(longestWriteSlice)}, read ${ms(slicedReadMs)} with the longest slice ${ms(longestReadSlice)}`);
}

function noteText(index: number, random: () => number): string {
  const words = ["river", "garden", "engine", "budget", "meeting", "recipe", "travel", "design", "history", "music", "planet", "market"];
  const sentence = () => Array.from({ length: 12 }, () => words[Math.floor(random() * words.length)]).join(" ") + ".";
  const paragraph = () => Array.from({ length: 5 }, sentence).join(" ");
  return `---\ntags: [bench]\n---\n# Note ${index}\n${paragraph()}\n\n## Details\n${paragraph()}\n${paragraph()}\n\n## Links\n${paragraph()}\n`;
}

async function throughput(batchSize: number): Promise<void> {
  const random = seeded(7);
  const files: Record<string, string> = {};
  for (let index = 0; index < NOTES_TO_EMBED; index++) files[`Notes ${index % 20}/Note ${index}.md`] = noteText(index, random);
  const temp = makeTempVault(files, "vault-copilot-bench-emb-");
  const server = await startEmbeddingServer({ dimensions: DIMS });
  try {
    const settings: EmbedderSettings = { enabled: true, model: "bench", includeFolders: [], excludedFolders: [], excludedPatterns: [], batchSize };
    const make = () =>
      new Embedder({
        vault: new FsVault(temp.root),
        store: new FsDataStore(pluginDataFolder(temp.root)),
        createClient: (current) => createEmbeddingClient({ fetch: globalThis.fetch.bind(globalThis), baseUrl: server.baseUrl, model: current.model }),
        getSettings: () => settings,
      });

    // The event loop's longest stall while the run goes on: a 5 ms ticker's worst lateness.
    let worstLag = 0;
    let expected = performance.now() + 5;
    const ticker = setInterval(() => {
      const now = performance.now();
      worstLag = Math.max(worstLag, now - expected);
      expected = now + 5;
    }, 5);
    const embedder = make();
    const start = performance.now();
    await embedder.start();
    const seconds = (performance.now() - start) / 1000;
    clearInterval(ticker);
    const status = embedder.status();
    await embedder.dispose();

    const requestsBefore = server.requests.length;
    const again = make();
    const againStart = performance.now();
    await again.start();
    const againMs = performance.now() - againStart;
    const resent = server.requests.length - requestsBefore;
    await again.dispose();

    print(`embedding throughput, batch ${batchSize}: ${status.sections} sections of ${status.embeddedNotes} notes in ${seconds.toFixed(2)} s = ${(status.sections / seconds).toFixed(0)} sections/s (${requestsBefore} requests)`);
    print(`  longest event-loop stall during the run: ${ms(worstLag)}; stored file ${mib(status.bytes)}`);
    print(`  second run, nothing changed: ${ms(againMs)} (every note read and hashed), requests sent: ${resent}`);
  } finally {
    await server.close();
    temp.remove();
  }
}

async function main(): Promise<void> {
  await vectorSearch();
  for (const batchSize of [16, 64]) await throughput(batchSize);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
