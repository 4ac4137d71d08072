import { obsidianPdfText } from "./obsidianPdfText";
import { unicodePdf } from "../../test/helpers/pdfFiles";

describe("the plugin's PDF port", () => {
  it("asks Obsidian for its pdf.js, and names a PDF it cannot read with the reason rather than giving empty text", async () => {
    // The Obsidian double has no pdf.js (test/obsidian/pdfjs.ts): its refusal must reach the reader.
    const result = await obsidianPdfText().extract(unicodePdf(["текст"]), { maxPages: 10, maxCharacters: 1_000 });
    expect(result).toEqual({ ok: false, problem: "could not be read", detail: "pdf.js is not available in the Obsidian test double" });
  });
});
