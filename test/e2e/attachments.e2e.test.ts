/**
 * Images and web pages attached in the browser demo, in headless Chromium: images pasted into the
 * message box are scaled down by the browser's own decoder and canvas before they are sent (the
 * plugin's canvasImageScaler, for real), and an address typed after "@" attaches its page, read
 * through the demo's desktop fetch and the window's DOMParser. The scripted model server (which
 * also serves the page, behind the demo's proxy to the base URL) checks each image as OpenAI does.
 * A PDF found after "@" is a chip too; the demo's Obsidian double has no pdf.js (its loadPdfJs
 * refuses, see test/obsidian/pdfjs.ts), so sent, the PDF is named "could not be read" with that
 * reason and the question goes without it (the CLI and jsdom tests read PDFs with pdfjs-dist).
 */
import type { Page } from "playwright-core";
import { readImageHeader } from "../../src/chat/images/imageHeader";
import { WEB_PAGE_FIXTURES } from "../fixtures/webPages";
import { jpegImage, pngImage } from "../helpers/imageFiles";
import { openAIImages } from "../helpers/imageWireChecks";
import { unicodePdf } from "../helpers/pdfFiles";
import { startOpenAIServer } from "../helpers/openAIServer";
import { lastAnswer, sendMessage, waitUntilIdle } from "./chatPage";
import { useDemo } from "./scriptedDemo";

jest.setTimeout(120_000);

const ARTICLE = WEB_PAGE_FIXTURES.find((page) => page.path === "/news/2026/tidal-lagoon.html")!;
/** A PDF of the demo vault, its name in Cyrillic, its pages in Russian and Chinese. */
const PDF_PATH = "Статьи/Отчёт 2026.pdf";
const PDF_PAGES = ["Приливы и отливы", "潮汐 结论"];

const suite = useDemo(
  { "Welcome.md": "# Welcome\n", [PDF_PATH]: unicodePdf(PDF_PAGES) },
  async () => {
    const server = await startOpenAIServer(() => ({ text: "Понятно." }), {
      pages: (path) => (path === `/pages${ARTICLE.path}` ? { contentType: "text/html; charset=utf-8", body: ARTICLE.html } : undefined),
    });
    // The base URL is the server's origin, so the demo's proxy forwards both the model's requests and the page's.
    return { ...server, baseUrl: server.origin };
  },
  { modelName: "vision-model", modelTakesImages: true },
);
let page: Page;
let consoleErrors: string[];

beforeAll(async () => {
  ({ page, consoleErrors } = await suite.openPage({ width: 360 }));
});

const messageBox = () => page.getByRole("textbox", { name: "Message" });
const chips = () => page.getByRole("list", { name: "Context for the next message" }).getByRole("listitem");
/** The chips' texts, the open note's own chip left out. */
const addedChips = async () => (await chips().allInnerTexts()).map((text) => text.replace(/\s+/g, " ").trim()).filter((text) => !text.includes("(current note)"));

/** Pastes files into Message as the system clipboard would (a screenshot, a copied photo). */
async function paste(files: Array<{ name: string; type: string; bytes: Buffer }>): Promise<void> {
  await messageBox().evaluate(
    (box, pasted) => {
      const transfer = new DataTransfer();
      for (const file of pasted) transfer.items.add(new File([Uint8Array.from(atob(file.base64), (character) => character.charCodeAt(0))], file.name, { type: file.type }));
      box.dispatchEvent(new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }));
    },
    files.map((file) => ({ name: file.name, type: file.type, base64: file.bytes.toString("base64") })),
  );
}

describe("attachments in the browser demo", () => {
  it("images pasted into Message are chips; sent, each reaches the model scaled down to 1568 px on its longest side", async () => {
    const before = suite.model.requests.length;
    await paste([
      { name: "панорама.png", type: "image/png", bytes: pngImage(3000, 2000, [20, 110, 200]) },
      { name: "IMG_0042.jpg", type: "image/jpeg", bytes: jpegImage(4032, 3024) },
      { name: "мелкое.png", type: "image/png", bytes: pngImage(200, 100) },
    ]);
    await chips().nth(3).waitFor();
    expect(await addedChips()).toEqual(["панорама.png ×", "IMG_0042.jpg ×", "мелкое.png ×"]);
    await sendMessage(page, "Что на снимках?");
    await lastAnswer(page).getByText("Понятно.").waitFor();
    await waitUntilIdle(page);
    const images = openAIImages(suite.model.requests[before]!.body.messages);
    expect(images.map((image) => image.problem)).toEqual([null, null, null]);
    const headers = images.map((image) => readImageHeader(Buffer.from(image.data, "base64")));
    expect(headers).toEqual([
      { mimeType: "image/png", width: 1568, height: 1045 },
      { mimeType: "image/jpeg", width: 1568, height: 1176 },
      // Within the limits: sent as it was, byte for byte.
      { mimeType: "image/png", width: 200, height: 100 },
    ]);
    expect(images[2]!.data).toBe(pngImage(200, 100).toString("base64"));
    for (const image of images) expect(Buffer.from(image.data, "base64").byteLength).toBeLessThanOrEqual(1_500_000);
  });

  it("an address typed after @ becomes its page's chip; sent, the page's article reaches the model without its boilerplate", async () => {
    const before = suite.model.requests.length;
    const url = `${suite.model.origin}/pages${ARTICLE.path}`;
    await messageBox().fill("");
    await messageBox().pressSequentially(`О чём это? @${url}`);
    await page.getByRole("option", { name: `page ${url}` }).waitFor();
    await messageBox().press("Enter");
    await chips().nth(1).waitFor();
    // A long address is cut on the chip; the chip's title holds it whole.
    expect(await addedChips()).toEqual([`${new URL(suite.model.origin).host}/pages/news/2026/tidal-lagoon.ht… ×`]);
    expect(await chips().nth(1).getAttribute("title")).toBe(url);
    await page.getByRole("button", { name: "Send" }).click();
    await lastAnswer(page).getByText("Понятно.").waitFor();
    await waitUntilIdle(page);
    const body = suite.model.requests[before]!.rawBody;
    for (const phrase of ARTICLE.article) expect(body).toContain(phrase);
    // As Markdown (Obsidian's converter, the double's turndown here), not HTML.
    expect(body).toContain("## What changed in the turbine hall");
    expect(body).not.toMatch(/&lt;p&gt;|<p>/);
    for (const phrase of ARTICLE.boilerplate) expect(body).not.toContain(phrase);
    expect(consoleErrors).toEqual([]);
  });

  it("a PDF found after @ is a chip; sent, the demo (no pdf.js in its Obsidian double) names it could not be read, with the reason, and the question goes without it", async () => {
    const before = suite.model.requests.length;
    await messageBox().fill("");
    await messageBox().pressSequentially("Что в отчёте? @отчёт");
    await page.getByRole("option", { name: `note ${PDF_PATH}` }).waitFor();
    await messageBox().press("Enter");
    await chips().nth(1).waitFor();
    expect(await addedChips()).toEqual(["Отчёт 2026.pdf ×"]);
    expect(await chips().nth(1).getAttribute("title")).toBe(PDF_PATH);
    await page.getByRole("button", { name: "Send" }).click();
    await lastAnswer(page).getByText("Понятно.").waitFor();
    await waitUntilIdle(page);
    const notice = page.locator(".notice").filter({ hasText: PDF_PATH });
    expect(await notice.innerText()).toBe(`Vault Copilot: ${PDF_PATH}: "${PDF_PATH}" could not be read: pdf.js is not available in the Obsidian test double.`);
    const body = suite.model.requests[before]!.rawBody;
    expect(body).toContain("Что в отчёте?");
    for (const text of [...PDF_PAGES, "[page 1]"]) expect(body).not.toContain(text);
    expect(consoleErrors).toEqual([]);
  });
});
