import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createSearchServices, type SearchServices } from "../app/createSearchServices";
import { DEFAULT_SETTINGS } from "../constants";
import type { CopilotSettings } from "../settings/settingsSchema";
import { MapSecretStore } from "../ports/SecretStore";
import { FsDataStore, pluginDataFolder } from "../vault/fsDataStore";
import { FsVault } from "../vault/FsVault";
import type { VaultPort } from "../vault/VaultPort";
import { WatchedVault } from "../../test/helpers/WatchedVault";
import { makeTempVault, type TempVault } from "../../test/helpers/tempVault";
import { standardFontPdf, unicodePdf } from "../../test/helpers/pdfFiles";
import { nodePdfText } from "./node/nodePdfText";
import type { PdfTextPort } from "./PdfTextPort";
import { DOCUMENT_CACHE_FILE, DocumentReader } from "./DocumentReader";
import { searchableVault } from "./searchableVault";
import { NoteIndex } from "../search/NoteIndex";

/** The search services as the plugin builds them, over a folder, with a PDF port; problems collected. */
function openSearch(root: string, pdfText: PdfTextPort, vault: VaultPort = new FsVault(root)): { services: SearchServices; problems: string[] } {
  const problems: string[] = [];
  const settings: CopilotSettings = structuredClone(DEFAULT_SETTINGS);
  const services = createSearchServices({
    vault,
    dataStore: new FsDataStore(pluginDataFolder(root)),
    secrets: new MapSecretStore(),
    settings: { get: () => settings, subscribe: () => () => undefined, update: async () => undefined },
    fetch: () => Promise.reject(new Error("no network in this test")),
    pdfText,
    onProblem: (message) => problems.push(message),
    yieldNow: () => new Promise((resolve) => setImmediate(resolve)),
  });
  return { services, problems };
}

/** The real port, counting the PDFs it is asked to read (the cache is what is under test). */
function countingPdfText(): PdfTextPort & { extractions: number } {
  const inner = nodePdfText();
  const counted = {
    extractions: 0,
    extract: (bytes: Uint8Array, options: Parameters<PdfTextPort["extract"]>[1]) => {
      counted.extractions++;
      return inner.extract(bytes, options);
    },
    dispose: () => inner.dispose(),
  };
  return counted;
}

const LIGHTHOUSE_PAGES = [
  "Chapter one. The harbour town wakes early; fishermen mend their nets on the quay.",
  "Chapter two. Prices at the market rose after the storm season.",
  "Chapter three. The lighthouse keeper trims the wick and polishes the great lens every dusk.",
];

describe("PDFs and canvases in the note index", () => {
  let folder: TempVault;
  const opened: SearchServices[] = [];

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((services) => services.dispose()));
    folder?.remove();
  });

  async function vaultWith(files: Record<string, string | Uint8Array>): Promise<void> {
    folder = makeTempVault({}, "vault-copilot-documents-");
    for (const [path, content] of Object.entries(files)) folder.write(path, content);
  }

  function open(pdfText: PdfTextPort = nodePdfText(), vault?: VaultPort): { services: SearchServices; problems: string[] } {
    const opening = openSearch(folder.root, pdfText, vault);
    opened.push(opening.services);
    return opening;
  }

  it("finds a PDF by the words of its third page, and names that page", async () => {
    await vaultWith({ "Papers/Harbour.pdf": await standardFontPdf(LIGHTHOUSE_PAGES), "Notes/Groceries.md": "Buy bread and milk." });
    const { services } = open();
    const hits = await services.noteSearch.search("lighthouse keeper lens", { limit: 5 });
    expect(hits[0]).toMatchObject({ path: "Papers/Harbour.pdf", page: 3, title: "Harbour.pdf" });
    expect(hits[0]?.content).toContain("trims the wick");
    expect((await services.noteSearch.search("market prices storm", { limit: 5 }))[0]).toMatchObject({ path: "Papers/Harbour.pdf", page: 2 });
    // A note's hit carries no page.
    expect((await services.noteSearch.search("bread milk", { limit: 5 }))[0]).not.toHaveProperty("page");
  });

  it("finds text in any script in a PDF and in a canvas's cards", async () => {
    const board = { nodes: [{ id: "a", type: "text", text: "Маяк 灯塔 на мысе", x: 0, y: 0, width: 100, height: 50 }], edges: [] };
    await vaultWith({ "Документы/Маяк.pdf": unicodePdf(["Введение", "Смотритель маяка 灯塔看守人 зажигает огонь"]), "Boards/Идеи.canvas": JSON.stringify(board) });
    const { services } = open();
    const hits = await services.noteSearch.search("смотритель", { limit: 5 });
    expect(hits[0]).toMatchObject({ path: "Документы/Маяк.pdf", page: 2 });
    expect((await services.noteSearch.search("мысе", { limit: 5 })).map((hit) => hit.path)).toEqual(["Boards/Идеи.canvas"]);
  });

  it("names a scanned, an encrypted, a broken PDF and a broken canvas, and indexes everything else", async () => {
    await vaultWith({
      "Scans/Receipt.pdf": await standardFontPdf(["", ""]),
      "Private/Bank.pdf": unicodePdf(["account 12345"], { userPassword: "s3cret" }),
      "Broken/Cut.pdf": (await standardFontPdf(LIGHTHOUSE_PAGES)).slice(0, 400),
      "Boards/Bad.canvas": '{"nodes": [',
      "Papers/Harbour.pdf": await standardFontPdf(LIGHTHOUSE_PAGES),
      "Notes/Keeper.md": "The keeper's log.",
    });
    const { services, problems } = open();
    const report = await services.noteIndex.start();
    expect(report.indexed).toBe(2);
    const joined = problems.join("\n");
    expect(joined).toMatch(/"Scans\/Receipt\.pdf" has no text layer: none of its 2 pages has text/);
    expect(joined).toMatch(/"Private\/Bank\.pdf" is encrypted \(it is protected by a password\), so its text cannot be read/);
    expect(joined).toMatch(/"Broken\/Cut\.pdf" could not be read: /);
    expect(joined).toMatch(/"Boards\/Bad\.canvas" could not be read: it is not a canvas Obsidian can open \(its JSON is broken/);
    expect((await services.noteSearch.search("keeper", { limit: 5 })).map((hit) => hit.path).sort()).toEqual(["Notes/Keeper.md", "Papers/Harbour.pdf"]);
  });

  it("reads a PDF once: a second start takes its text from document-text.json, a changed PDF is read again", async () => {
    await vaultWith({ "Papers/Harbour.pdf": await standardFontPdf(LIGHTHOUSE_PAGES) });
    const first = countingPdfText();
    const { services } = open(first);
    await services.noteIndex.rebuild();
    expect(first.extractions).toBe(1);
    await services.dispose();
    opened.splice(0);
    expect(JSON.parse((await new FsDataStore(pluginDataFolder(folder.root)).read(DOCUMENT_CACHE_FILE)) ?? "{}")).toMatchObject({ documents: { "Papers/Harbour.pdf": { extraction: { ok: true } } } });

    // A rebuild reads every note again; the PDF's text comes from the cache.
    const second = countingPdfText();
    const reopened = open(second).services;
    await reopened.noteIndex.rebuild();
    expect(second.extractions).toBe(0);
    expect((await reopened.noteSearch.search("lighthouse", { limit: 1 }))[0]).toMatchObject({ path: "Papers/Harbour.pdf", page: 3 });

    // New text at the same path: size and mtime differ, so it is read again.
    writeFileSync(join(folder.root, "Papers/Harbour.pdf"), await standardFontPdf(["Only one page now, about tides and moorings."]));
    utimesSync(join(folder.root, "Papers/Harbour.pdf"), new Date(), new Date(Date.now() + 5_000));
    await reopened.noteIndex.rebuild();
    expect(second.extractions).toBe(1);
    expect(await reopened.noteSearch.search("lighthouse", { limit: 5 })).toEqual([]);
    expect((await reopened.noteSearch.search("moorings", { limit: 1 }))[0]).toMatchObject({ path: "Papers/Harbour.pdf", page: 1 });
  });

  it("reads a PDF again when the vault says it changed, and forgets it when it is deleted", async () => {
    await vaultWith({ "Papers/Harbour.pdf": await standardFontPdf(LIGHTHOUSE_PAGES) });
    const port = countingPdfText();
    const vault = new WatchedVault(folder.root);
    const { services } = open(port, vault);
    expect((await services.noteSearch.search("lighthouse", { limit: 1 }))[0]).toMatchObject({ path: "Papers/Harbour.pdf", page: 3 });
    folder.write("Papers/Harbour.pdf", await standardFontPdf(["Nothing but moorings and tides here, on a longer first page."]));
    vault.emit({ type: "modify", path: "Papers/Harbour.pdf" });
    expect((await services.noteSearch.search("moorings", { limit: 1 }))[0]).toMatchObject({ path: "Papers/Harbour.pdf", page: 1 });
    expect(await services.noteSearch.search("lighthouse", { limit: 1 })).toEqual([]);
    expect(port.extractions).toBe(2);
    vault.emit({ type: "delete", path: "Papers/Harbour.pdf" });
    expect(await services.noteSearch.search("moorings", { limit: 1 })).toEqual([]);
  });

  it("relates a note to the PDF on its subject", async () => {
    await vaultWith({
      "Papers/Harbour.pdf": await standardFontPdf(LIGHTHOUSE_PAGES),
      "Notes/Lighthouses.md": "The lighthouse keeper polishes the lens and trims the wick at dusk.",
      "Notes/Baking.md": "Knead the dough and let it rise overnight.",
    });
    const { services } = open();
    const related = await services.related.similar("Notes/Lighthouses.md", new AbortController().signal);
    expect(related[0]?.path).toBe("Papers/Harbour.pdf");
  });
});

describe("a PDF ranked by its best page", () => {
  let folder: TempVault;
  afterEach(() => folder?.remove());

  it("finds the one page of a long PDF on the subject above a short note that names it in passing", async () => {
    const filler = ["Bread", "Cheese", "Apples", "Rivers", "Mountains", "Trains", "Clocks", "Violins", "Bees", "Glass", "Salt", "Paper"].flatMap((subject) =>
      Array.from({ length: 3 }, (_, part) => `${subject}, part ${part + 1}. ` + `${subject} and more about ${subject.toLowerCase()} in every season. `.repeat(25)),
    );
    const pages = [...filler.slice(0, 20), "The lighthouse keeper climbs the lighthouse at dusk, trims the lighthouse lamp and polishes its lens; a lighthouse keeper's log records each night.", ...filler.slice(20)];
    folder = makeTempVault({
      "Notes/Holiday.md": "We walked past a lighthouse on the way to the keeper of the village shop, and ate bread.",
      ...Object.fromEntries(Array.from({ length: 8 }, (_, index) => [`Notes/Other ${index}.md`, `Plain words about rooms and tables, number ${index}.`])),
    });
    folder.write("Books/Almanac.pdf", await standardFontPdf(pages));
    const { services } = openSearch(folder.root, nodePdfText());
    try {
      const hits = await services.noteSearch.search("lighthouse keeper", { limit: 2 });
      expect(hits.map((hit) => [hit.path, hit.page])).toEqual([
        ["Books/Almanac.pdf", 21],
        ["Notes/Holiday.md", undefined],
      ]);
      expect(hits[0]?.content).toContain("trims the lighthouse lamp");
    } finally {
      await services.dispose();
    }
  });
});

describe("a big PDF in the background", () => {
  let folder: TempVault;
  afterEach(() => folder?.remove());

  it("hands the thread back between its pages while it is indexed and while a query ranks its pages", async () => {
    folder = makeTempVault({ "Notes/One.md": "A short note about harbours." });
    folder.write("Books/Long.pdf", await standardFontPdf(Array.from({ length: 40 }, (_, page) => `Page ${page + 1} about harbours and tides. `.repeat(20))));
    const vault = new FsVault(folder.root);
    const pdfText = nodePdfText();
    // The extraction hands back on its own; only the index's hand-backs are counted here.
    const documents = new DocumentReader({ vault, pdf: pdfText, yieldNow: () => new Promise((resolve) => setImmediate(resolve)) });
    let handBacks = 0;
    const index = new NoteIndex({
      vault: searchableVault(vault, documents),
      store: new FsDataStore(pluginDataFolder(folder.root)),
      getSettings: () => ({ excludedFolders: [], excludedPatterns: [] }),
      sliceBudgetMs: 0,
      yieldNow: () => new Promise((resolve) => setImmediate(() => resolve(void handBacks++))),
    });
    try {
      await index.start();
      expect(handBacks).toBeGreaterThanOrEqual(40);
      handBacks = 0;
      const hits = await index.search("harbours tides", { limit: 2 });
      expect(hits[0]?.path).toBe("Books/Long.pdf");
      expect(handBacks).toBeGreaterThanOrEqual(40);
    } finally {
      await index.dispose();
      await pdfText.dispose();
    }
  });
});
