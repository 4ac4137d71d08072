import { nodePdfText } from "./node/nodePdfText";
import { standardFontPdf, unicodePdf } from "../../test/helpers/pdfFiles";

const port = nodePdfText();
afterAll(() => port.dispose());

const LIMITS = { maxPages: 100, maxCharacters: 1_000_000 };

describe("a PDF's text layer (pdfjs-dist, the extraction the plugin shares)", () => {
  it("gives each page's text in its own script, page by page, in reading order", async () => {
    // One Arabic word per line: of a line of several, pdf.js gives each word in reading order but
    // the words in the order they are drawn (designdocs/SEARCH.md, "Documents").
    const pages = ["Привет, мир\n第二行 汉字与词", "مرحبا\nبالعالم", "ภาษาไทย 😀 e\u0301te\u0301"];
    const result = await port.extract(unicodePdf(pages), LIMITS);
    expect(result).toEqual({ ok: true, pages, pageCount: 3 });
  });

  it("reads a multi-page PDF written with a standard font, accents included, and keeps a page without text as an empty page", async () => {
    const bytes = await standardFontPdf(["Première page: café, Größe, niño.", "", "Third page about lighthouses."]);
    const result = await port.extract(bytes, LIMITS);
    expect(result).toEqual({ ok: true, pages: ["Première page: café, Größe, niño.", "", "Third page about lighthouses."], pageCount: 3 });
  });

  it('names a PDF whose pages hold no text "no text layer", with its page count', async () => {
    const result = await port.extract(await standardFontPdf(["", ""]), LIMITS);
    expect(result).toMatchObject({ ok: false, problem: "no text layer", pageCount: 2 });
    expect(result.ok ? "" : result.detail).toContain("none of its 2 pages has text");
  });

  it('names a PDF that wants a password "encrypted", and reads one encrypted with an empty user password', async () => {
    const pages = ["Зашифрованный текст", "加密的文字"];
    expect(await port.extract(unicodePdf(pages, { userPassword: "s3cret" }), LIMITS)).toMatchObject({ ok: false, problem: "encrypted" });
    // The same writer with an empty user password: pdf.js decrypts it, so the encryption is real.
    expect(await port.extract(unicodePdf(pages, { userPassword: "" }), LIMITS)).toEqual({ ok: true, pages, pageCount: 2 });
  });

  it('names a cut-short file, and one that is no PDF at all, "could not be read"', async () => {
    const whole = await standardFontPdf(["Some text that will be cut away."]);
    for (const bytes of [whole.slice(0, 300), new TextEncoder().encode("<html>not a pdf</html>"), new Uint8Array()]) {
      expect(await port.extract(bytes, LIMITS)).toMatchObject({ ok: false, problem: "could not be read" });
    }
  });

  it("stops at the page cap and at the character cap, and says which one it reached", async () => {
    const bytes = unicodePdf(["one", "two", "three", "four"]);
    expect(await port.extract(bytes, { maxPages: 2, maxCharacters: 1000 })).toEqual({ ok: true, pages: ["one", "two"], pageCount: 4, capped: { pages: true, characters: false } });
    expect(await port.extract(bytes, { maxPages: 10, maxCharacters: 8 })).toEqual({ ok: true, pages: ["one", "two", "th"], pageCount: 4, capped: { pages: false, characters: true } });
  });

  it("hands the thread back after every page, and stops when aborted", async () => {
    const bytes = unicodePdf(["a", "b", "c", "d", "e"]);
    let handBacks = 0;
    await port.extract(bytes, { ...LIMITS, yieldNow: async () => void handBacks++ });
    expect(handBacks).toBe(5);
    const controller = new AbortController();
    const stopped = port.extract(bytes, { ...LIMITS, signal: controller.signal, yieldNow: async () => controller.abort(new Error("stopped by the test")) });
    await expect(stopped).rejects.toThrow("stopped by the test");
  });

  it("leaves the bytes it was given as they were (pdf.js takes over the buffer it reads)", async () => {
    const bytes = unicodePdf(["kept"]);
    const before = Buffer.from(bytes).toString("hex");
    await port.extract(bytes, LIMITS);
    expect(Buffer.from(bytes).toString("hex")).toBe(before);
  });
});
