import { makeTempVault, type TempVault } from "../../test/helpers/tempVault";
import { standardFontPdf, unicodePdf } from "../../test/helpers/pdfFiles";
import { DocumentReader } from "../documents/DocumentReader";
import { nodePdfText } from "../documents/node/nodePdfText";
import { FsVault } from "../vault/FsVault";
import { folderChip, MAX_NOTE_CHARS, noteChip, readChipArtifacts } from "./chipArtifacts";
import { ContextSuggester, mentionText } from "./contextSuggestions";

const pdfText = nodePdfText();
afterAll(() => pdfText.dispose());

let folder: TempVault;
let vault: FsVault;
let documents: DocumentReader;

beforeAll(async () => {
  folder = makeTempVault({
    "Boards/Карта.canvas": JSON.stringify({ nodes: [{ id: "a", type: "text", text: "Идея 想法", x: 0, y: 0, width: 10, height: 10 }], edges: [] }),
    "Notes/Plan.md": "The plan.",
  });
  const write = (path: string, bytes: Uint8Array) => folder.write(path, bytes);
  write("Papers/Отчёт.pdf", unicodePdf(["Итоги года", "", "Выводы 结论"]));
  // About 120 pages of 1,000 characters: past what one attachment holds.
  write("Papers/Big.pdf", await standardFontPdf(Array.from({ length: 120 }, (_, page) => `Page ${page + 1}. ` + "Words about the sea and its tides. ".repeat(28))));
  write("Papers/Locked.pdf", unicodePdf(["x"], { userPassword: "pw" }));
  vault = new FsVault(folder.root);
  documents = new DocumentReader({ vault, pdf: pdfText });
});
afterAll(() => folder.remove());

describe("PDFs and canvases as attachments", () => {
  it("attaches a PDF's pages under their [page N] lines and a canvas as its outline", async () => {
    const { artifacts, problems } = await readChipArtifacts(vault, [noteChip("Papers/Отчёт.pdf"), noteChip("Boards/Карта.canvas")], undefined, { documents });
    expect(problems).toEqual([]);
    expect(artifacts.map((artifact) => [artifact.source, artifact.title, artifact.content])).toEqual([
      ["Papers/Отчёт.pdf", "Отчёт.pdf", "[page 1]\nИтоги года\n\n[page 2]\n(no text on this page)\n\n[page 3]\nВыводы 结论"],
      ["Boards/Карта.canvas", "Карта.canvas", "- Идея 想法\n"],
    ]);
  });

  it("cuts a PDF past the attachment's cap at a page and says which pages were left out", async () => {
    const { artifacts } = await readChipArtifacts(vault, [noteChip("Papers/Big.pdf")], undefined, { documents });
    const content = artifacts[0]?.content ?? "";
    expect(content.length).toBeLessThan(MAX_NOTE_CHARS + 400);
    const lastPage = [...content.matchAll(/^\[page (\d+)\]$/gm)].at(-1)?.[1];
    expect(content).toMatch(new RegExp(`\\[… the PDF goes on: pages ${Number(lastPage) + 1}–120 \\(\\d+ characters\\) were not attached, as an attachment holds at most ${MAX_NOTE_CHARS} characters; readNote reads them\\]$`));
  });

  it("reports a PDF that gives no text as a problem, and attaches the rest of a folder", async () => {
    const { artifacts, problems } = await readChipArtifacts(vault, [folderChip("Papers")], undefined, { documents });
    expect(problems.map((problem) => problem.text)).toEqual(['Papers/Locked.pdf: "Papers/Locked.pdf" is encrypted (it is protected by a password), so its text cannot be read.']);
    expect(problems[0]?.case).toMatchObject({ code: "unreadable", path: "Papers/Locked.pdf", failure: { kind: "document-encrypted", values: { path: "Papers/Locked.pdf" } } });
    expect(artifacts.map((artifact) => artifact.source)).toEqual(["Papers/Big.pdf", "Papers/Отчёт.pdf"]);
  });

  it("offers PDFs and canvases after @, as links", async () => {
    const suggestions = await new ContextSuggester(vault).suggest("карт");
    expect(suggestions[0]).toEqual({ kind: "note", value: "Boards/Карта.canvas", label: "Boards/Карта.canvas" });
    expect(mentionText(suggestions[0]!)).toBe("[[Boards/Карта.canvas]]");
    expect((await new ContextSuggester(vault).suggest("отчёт")).map((item) => item.value)).toContain("Papers/Отчёт.pdf");
  });
});
