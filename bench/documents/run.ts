// PDFs (`npm run bench -- documents`): figures, not pass/fail.
// 1. A 300-page PDF (SciFact abstracts set in Helvetica by pdf-lib, about 2,400 characters a page):
//    extraction pages/s through the CLI's port (pdfjs-dist in a worker thread), the note index's
//    first start over a vault holding it (extraction included) and its second start (the text kept
//    in document-text.json), the longest hold of the thread, and memory (RSS sampled every 20 ms).
// 2. A question set answerable only from PDFs: SciFact's 300 test claims (questions and judgments
//    written by others: Wadden et al., EMNLP 2020; claims CC BY 4.0, abstracts ODC-By 1.0) over
//    1,000 abstracts (the 339 judged ones and the first others by id) set one abstract per page
//    into 50 PDFs of 20 pages. A hit counts when its PDF and page are a judged abstract's;
//    recall@5 beside the same claims over the same abstracts as 1,000 notes.
// The SciFact files come from ../shared/bench/scifact (see its README), read at run time.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createSearchServices, type SearchServices } from "../../src/app/createSearchServices";
import { DEFAULT_SETTINGS } from "../../src/constants";
import { nodePdfText } from "../../src/documents/node/nodePdfText";
import type { PdfTextPort } from "../../src/documents/PdfTextPort";
import { MapSecretStore } from "../../src/ports/SecretStore";
import type { CopilotSettings } from "../../src/settings/settingsSchema";
import { FsDataStore, pluginDataFolder } from "../../src/vault/fsDataStore";
import { FsVault } from "../../src/vault/FsVault";
import { standardFontPdf } from "../../test/helpers/pdfFiles";

const repo = process.cwd();
const data = join(repo, ".bench-data", "documents");
const scifact = join(repo, "..", "shared", "bench", "scifact");

interface Abstract {
  id: string;
  title: string;
  text: string;
}

/** Helvetica's WinAnsi set holds Latin-1 and a few more: anything else is spelt without accents or left out. */
function winAnsi(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[‐-―]/g, "-")
    .replace(/[^\x20-\x7E\u00A0-\u00FF]/g, " ");
}

function readAbstracts(): Abstract[] {
  return readFileSync(join(scifact, "corpus.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { _id: string; title: string; text: string })
    .map((record) => ({ id: record._id, title: winAnsi(record.title), text: winAnsi(record.text) }));
}

function memorySampler(): { stop(): number } {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage().rss);
    },
  };
}

const print = (line: string) => process.stdout.write(`${line}\n`);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

function openServices(root: string, pdfText: PdfTextPort, storeFolder: string): SearchServices {
  const settings: CopilotSettings = structuredClone(DEFAULT_SETTINGS);
  return createSearchServices({
    vault: new FsVault(root),
    dataStore: new FsDataStore(storeFolder),
    secrets: new MapSecretStore(),
    settings: { get: () => settings, subscribe: () => () => undefined, update: async () => undefined },
    fetch: () => Promise.reject(new Error("no network in this benchmark")),
    pdfText,
    onProblem: (message) => process.stderr.write(`problem: ${message}\n`),
    yieldNow: () => new Promise((resolve) => setImmediate(resolve)),
  });
}

async function bigPdf(abstracts: Abstract[]): Promise<void> {
  const pages: string[] = [];
  let page = "";
  for (const abstract of abstracts) {
    page += `${abstract.title}. ${abstract.text} `;
    if (page.length >= 2_400) {
      pages.push(page);
      page = "";
      if (pages.length === 300) break;
    }
  }
  const bytes = await standardFontPdf(pages);
  const root = join(data, "big-vault");
  rmSync(root, { recursive: true, force: true });
  mkdirSync(join(root, "Papers"), { recursive: true });
  writeFileSync(join(root, "Papers", "SciFact 300 pages.pdf"), bytes);
  const characters = pages.reduce((sum, text) => sum + text.length, 0);
  print(`A 300-page PDF: ${(bytes.length / 1024 / 1024).toFixed(1)} MB, ${characters.toLocaleString("en-US")} characters of text`);

  const port = nodePdfText();
  await port.extract(await standardFontPdf(["warm-up"]), { maxPages: 10, maxCharacters: 1_000 });
  const before = process.memoryUsage().rss;
  const sampler = memorySampler();
  const began = performance.now();
  const extraction = await port.extract(bytes, { maxPages: 2_000, maxCharacters: 3_000_000, yieldNow: () => new Promise((resolve) => setImmediate(resolve)) });
  const seconds = (performance.now() - began) / 1000;
  const peak = sampler.stop();
  if (!extraction.ok) throw new Error(`the PDF gave no text: ${extraction.problem}`);
  print(`extraction (pdfjs-dist in a worker thread): ${seconds.toFixed(2)} s, ${(300 / seconds).toFixed(0)} pages/s; RSS ${mb(before)} before, peak ${mb(peak)}`);

  const storeFolder = pluginDataFolder(root);
  rmSync(storeFolder, { recursive: true, force: true });
  const runs = [
    ["first start (extraction and index)", "start"],
    ["rebuild (every note read again; the PDF's text from document-text.json)", "rebuild"],
    ["start from the stored index", "start"],
  ] as const;
  for (const [label, how] of runs) {
    const services = openServices(root, port, storeFolder);
    const sampled = memorySampler();
    const report = how === "start" ? await services.noteIndex.start() : await services.noteIndex.rebuild();
    const queryBegan = performance.now();
    const top = await services.noteSearch.search("diffusion tensor white matter newborn", { limit: 1 });
    const firstQueryMs = performance.now() - queryBegan;
    const againBegan = performance.now();
    await services.noteSearch.search("vitamin supplementation mortality", { limit: 5 });
    const nextQueryMs = performance.now() - againBegan;
    await services.noteIndex.save();
    await services.documents.flush();
    print(
      `index, ${label}: ${(report.durationMs / 1000).toFixed(2)} s, longest hold of the thread ${report.longestSliceMs.toFixed(0)} ms, peak RSS ${mb(sampled.stop())}; ` +
        `top hit ${top[0]?.path ?? "none"} page ${top[0]?.page ?? "-"}; first query ${firstQueryMs.toFixed(0)} ms (the pages' terms made), next ${nextQueryMs.toFixed(0)} ms`,
    );
    await services.noteIndex.dispose();
    await services.documents.dispose();
  }
  await port.dispose();
}

async function questionSet(abstracts: Abstract[]): Promise<void> {
  const queries = readFileSync(join(scifact, "queries.test.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { _id: string; text: string });
  const judged = new Map<string, Set<string>>();
  for (const line of readFileSync(join(scifact, "qrels.test.tsv"), "utf8").trim().split("\n").slice(1)) {
    const [query, document] = line.split("\t");
    judged.set(query!, new Set([...(judged.get(query!) ?? []), document!]));
  }
  const judgedIds = new Set([...judged.values()].flatMap((ids) => [...ids]));
  const byId = new Map(abstracts.map((abstract) => [abstract.id, abstract]));
  const chosen = [...judgedIds].map((id) => byId.get(id)!).filter(Boolean);
  for (const abstract of [...abstracts].sort((a, b) => Number(a.id) - Number(b.id))) {
    if (chosen.length >= 1_000) break;
    if (!judgedIds.has(abstract.id)) chosen.push(abstract);
  }
  // A fixed shuffle, so judged abstracts are spread over the PDFs and pages.
  chosen.sort((a, b) => hash(a.id) - hash(b.id));

  const pdfRoot = join(data, "question-pdfs");
  const noteRoot = join(data, "question-notes");
  for (const root of [pdfRoot, noteRoot]) rmSync(root, { recursive: true, force: true });
  mkdirSync(join(pdfRoot, "Papers"), { recursive: true });
  mkdirSync(join(noteRoot, "Abstracts"), { recursive: true });
  const where = new Map<string, string>();
  for (let file = 0; file < 50; file++) {
    const group = chosen.slice(file * 20, file * 20 + 20);
    const path = `Papers/Volume ${String(file + 1).padStart(2, "0")}.pdf`;
    writeFileSync(join(pdfRoot, path), await standardFontPdf(group.map((abstract) => `${abstract.title}\n${abstract.text}`)));
    group.forEach((abstract, page) => where.set(abstract.id, `${path}#page=${page + 1}`));
  }
  for (const abstract of chosen) {
    const path = `Abstracts/${abstract.id}.md`;
    writeFileSync(join(noteRoot, path), `# ${abstract.title}\n\n${abstract.text}\n`);
    where.set(`note:${abstract.id}`, path);
  }

  const port = nodePdfText();
  const recall = async (root: string, locate: (id: string) => string, link: (hit: { path: string; page?: number }) => string) => {
    const services = openServices(root, port, join(data, `${root.endsWith("pdfs") ? "pdf" : "note"}-store`));
    rmSync(join(data, `${root.endsWith("pdfs") ? "pdf" : "note"}-store`), { recursive: true, force: true });
    const began = performance.now();
    await services.noteIndex.start();
    const indexSeconds = (performance.now() - began) / 1000;
    let sum = 0;
    let fileSum = 0;
    let counted = 0;
    for (const query of queries) {
      const relevant = judged.get(query._id);
      if (!relevant) continue;
      const found = await services.noteSearch.search(query.text, { limit: 5 });
      const hits = new Set(found.map(link));
      const files = new Set(found.map((hit) => hit.path));
      sum += [...relevant].filter((id) => hits.has(locate(id))).length / relevant.size;
      fileSum += [...relevant].filter((id) => files.has(locate(id).split("#")[0] ?? "")).length / relevant.size;
      counted++;
    }
    await services.noteIndex.dispose();
    await services.documents.dispose();
    return { recall: sum / counted, fileRecall: fileSum / counted, queries: counted, indexSeconds };
  };
  const pdfs = await recall(pdfRoot, (id) => where.get(id) ?? "", (hit) => `${hit.path}#page=${hit.page ?? 0}`);
  const notes = await recall(noteRoot, (id) => where.get(`note:${id}`) ?? "", (hit) => hit.path);
  await port.dispose();
  print(`SciFact claims over 1,000 abstracts (${pdfs.queries} claims with judgments):`);
  print(`  as 50 PDFs of 20 pages (a hit is the right PDF and page): recall@5 ${pdfs.recall.toFixed(3)} (the right PDF alone: ${pdfs.fileRecall.toFixed(3)}); index built in ${pdfs.indexSeconds.toFixed(1)} s`);
  print(`  as 1,000 notes:                                        recall@5 ${notes.recall.toFixed(3)}; index built in ${notes.indexSeconds.toFixed(1)} s`);
}

function hash(text: string): number {
  let value = 2166136261;
  for (const character of text) value = Math.imul(value ^ character.charCodeAt(0), 16777619) >>> 0;
  return value;
}

async function main(): Promise<void> {
  mkdirSync(data, { recursive: true });
  const abstracts = readAbstracts();
  await bigPdf(abstracts);
  await questionSet(abstracts);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
