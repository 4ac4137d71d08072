import { callTool, makeToolDependencies } from "../../../test/helpers/toolHarness";
import { makeTempVault, type TempVault } from "../../../test/helpers/tempVault";
import { standardFontPdf, unicodePdf } from "../../../test/helpers/pdfFiles";
import { DocumentReader } from "../../documents/DocumentReader";
import { nodePdfText } from "../../documents/node/nodePdfText";
import { FsVault } from "../../vault/FsVault";
import type { ToolDependencies } from "../toolDependencies";
import { READ_NOTE_CHUNK_CHARS, readNoteTool, type ReadNoteResult } from "./readNote";

const pdfText = nodePdfText();
afterAll(() => pdfText.dispose());

let folder: TempVault;
let dependencies: ToolDependencies;

/** 40 pages of about 1,000 characters each: several chunks of whole pages. */
const bookPages = Array.from({ length: 40 }, (_, page) => `Page ${page + 1} of the book. ` + `Sentence number ${page + 1} about tides and harbours. `.repeat(18));

beforeAll(async () => {
  folder = makeTempVault({
    "Boards/План.canvas": JSON.stringify({
      nodes: [
        { id: "g", type: "group", label: "Этап 1", x: 0, y: 0, width: 500, height: 500 },
        { id: "t", type: "text", text: "Собрать данные 收集数据", x: 10, y: 10, width: 100, height: 50 },
        { id: "f", type: "file", file: "Notes/Idea.md", x: 10, y: 200, width: 100, height: 50 },
      ],
      edges: [{ id: "e", fromNode: "t", toNode: "f", label: "затем" }],
    }),
    "Boards/Broken.canvas": "{ nodes: oops",
  });
  const write = (path: string, bytes: Uint8Array) => folder.write(path, bytes);
  write("Papers/Book.pdf", await standardFontPdf(bookPages));
  write("Papers/Сканы/Receipt.pdf", await standardFontPdf(["", "", ""]));
  write("Papers/Locked.pdf", unicodePdf(["secret"], { userPassword: "pw" }));
  write("Papers/Short.pdf", unicodePdf(["Первая страница", "", "第三页"]));
  const vault = new FsVault(folder.root);
  dependencies = makeToolDependencies({ vault, documents: new DocumentReader({ vault, pdf: pdfText }) });
});
afterAll(() => folder.remove());

async function read(args: unknown): Promise<{ output: ReadNoteResult; text: string }> {
  const result = await callTool(readNoteTool, dependencies, args);
  expect(result.status).toBe("ok");
  return { output: result.output as ReadNoteResult, text: result.text };
}

describe("readNote on PDFs and canvases", () => {
  it("reads a PDF by pages: each page under its [page N] line, an empty page said to be empty", async () => {
    const { output, text } = await read({ notePath: "Papers/Short.pdf" });
    expect(output.content).toBe("[page 1]\nПервая страница\n\n[page 2]\n(no text on this page)\n\n[page 3]\n第三页");
    expect(output.pages).toEqual({ first: 1, last: 3, total: 3 });
    expect(text).toContain('pages="1-3 of 3"');
  });

  it("cuts a long PDF into chunks of whole pages that keep their numbers, and starts at the page #page=N names", async () => {
    const first = (await read({ notePath: "Papers/Book.pdf" })).output;
    expect(first.totalChunks).toBeGreaterThan(3);
    expect(first.content.length).toBeLessThanOrEqual(READ_NOTE_CHUNK_CHARS);
    expect(first.content.startsWith("[page 1]\nPage 1 of the book.")).toBe(true);
    const pagesInFirst = first.pages?.last ?? 0;
    expect(first.content).toContain(`[page ${pagesInFirst}]\nPage ${pagesInFirst} of the book.`);
    expect(first.content).not.toContain(`[page ${pagesInFirst + 1}]`);

    const second = (await read({ notePath: "Papers/Book.pdf", chunkIndex: 1 })).output;
    expect(second.pages?.first).toBe(pagesInFirst + 1);
    expect(second.content.startsWith(`[page ${pagesInFirst + 1}]\nPage ${pagesInFirst + 1} of the book.`)).toBe(true);

    const atPage = (await read({ notePath: "[[Papers/Book.pdf#page=30]]" })).output;
    expect(atPage.pages!.first).toBeLessThanOrEqual(30);
    expect(atPage.pages!.last).toBeGreaterThanOrEqual(30);
    expect(atPage.content).toContain("[page 30]\nPage 30 of the book.");
  });

  it("reads a canvas as its outline, in any script", async () => {
    const { output } = await read({ notePath: "Boards/План.canvas" });
    expect(output.content).toBe('## Этап 1\n\n- Собрать данные 收集数据\n- File: [[Notes/Idea.md]]\n\n## Connections\n\n- "Собрать данные 收集数据" → [[Notes/Idea.md]] (затем)\n');
  });

  it.each([
    ["Papers/Сканы/Receipt.pdf", /"Papers\/Сканы\/Receipt\.pdf" has no text layer: none of its 3 pages has text/],
    ["Papers/Locked.pdf", /"Papers\/Locked\.pdf" is encrypted \(it is protected by a password\)/],
    ["Boards/Broken.canvas", /"Boards\/Broken\.canvas" could not be read: it is not a canvas Obsidian can open/],
  ])("names %s's problem to the model instead of an empty note", async (notePath, message) => {
    const result = await callTool(readNoteTool, dependencies, { notePath });
    expect(result.status).toBe("error");
    expect(result.text).toMatch(message);
  });

  it("says which caps left pages out", async () => {
    const vault = new FsVault(folder.root);
    const capped = makeToolDependencies({ vault, documents: new DocumentReader({ vault, pdf: pdfText, limits: { maxPdfPages: 5, maxPdfCharacters: 1_000_000 } }) });
    const result = await callTool(readNoteTool, capped, { notePath: "Papers/Book.pdf" });
    expect(result.text).toContain("Only the first 5 of this PDF's 40 pages were read: the cap on a PDF's pages.");
    expect((result.output as ReadNoteResult).pages).toEqual({ first: 1, last: 5, total: 40 });
  });
});
