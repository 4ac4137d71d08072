import { WEB_PAGE_FIXTURES } from "../../../test/fixtures/webPages";
import type { CannedResponse, LocalServer, RecordedRequest } from "../../../test/helpers/localServer";
import { startWebPageServer } from "../../../test/helpers/webPageServer";
import { nodeHtmlReader } from "../../cli/nodeHtmlReader";
import { plainHttp } from "../../net/plainHttp";
import { readWebPage, type ReadWebPageOptions } from "./webPage";

let server: LocalServer;
let extra: (request: RecordedRequest) => CannedResponse | undefined = () => undefined;

beforeAll(async () => {
  server = await startWebPageServer((request) => extra(request));
});
afterAll(() => server.close());
afterEach(() => {
  extra = () => undefined;
  server.requests.length = 0;
});

const options = (more: Partial<ReadWebPageOptions> = {}): ReadWebPageOptions => ({
  http: plainHttp(globalThis.fetch),
  html: nodeHtmlReader(),
  signal: new AbortController().signal,
  maxCharacters: 40_000,
  ...more,
});
const html = (body: string, title = "A page"): CannedResponse => ({ headers: { "Content-Type": "text/html; charset=utf-8" }, body: `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>` });
const paragraphs = (count: number, word: string) => Array.from({ length: count }, (_, index) => `<p>${index + 1}. ${`${word} `.repeat(30)}</p>`).join("\n");
/** What text comparison ignores: Unicode form, runs of space, turndown's escapes. */
const plain = (text: string) => text.normalize("NFC").replace(/\\([[\]\-.*_#`])/g, "$1").replace(/\s+/g, " ");

describe("readWebPage", () => {
  it.each(WEB_PAGE_FIXTURES.map((page) => [page.path, page] as const))("keeps the article of %s and leaves navigation, footers, scripts and styles out", async (_path, page) => {
    const read = await readWebPage(`${server.url}${page.path}`, options());
    expect(plain(read.title)).toContain(plain(page.titleWords));
    const text = plain(read.markdown);
    for (const phrase of page.article) expect(text).toContain(plain(phrase));
    for (const phrase of page.boilerplate) expect(text).not.toContain(plain(phrase));
    expect(read.markdown).not.toMatch(/<script|<style|function gtag|@context/);
    expect(read.url).toBe(`${server.url}${page.path}`);
    expect(read.truncated).toBe(false);
  });

  it("reads a page in windows-1251 that names its charset only in <meta>", async () => {
    const page = WEB_PAGE_FIXTURES.find((fixture) => fixture.charset === "windows-1251")!;
    expect(page.charsetInMeta).toBe(true);
    const read = await readWebPage(`${server.url}${page.path}`, options());
    expect(read.markdown).toContain("Ёжик в банке");
    expect(read.markdown).not.toContain("\ufffd");
  });

  it("writes tables as Markdown tables and does not repeat the title as a heading", async () => {
    const read = await readWebPage(`${server.url}/docs/zh/sync.html`, options());
    expect(read.markdown).toContain("| 保留副本天数 | 30 | 到期后副本移入回收站 |");
    expect(read.markdown).not.toMatch(/^#+ 处理同步冲突/m);
  });

  it("makes links absolute, drops links that would run code, and turns images into their description", async () => {
    extra = (request) =>
      request.url === "/links.html"
        ? html(
            `<article><h1>Links</h1>${paragraphs(3, "content")}<p>See <a href="../other/page.html">the other page</a>, <a href="javascript:alert(1)">a trap</a> and <img src="/cat.png" alt="a sleeping cat"> <img src="/pixel.gif"></p></article>`,
          )
        : undefined;
    const read = await readWebPage(`${server.url}/links.html`, options());
    expect(read.markdown).toContain(`[the other page](${server.url}/other/page.html)`);
    expect(read.markdown).not.toContain("javascript:");
    expect(read.markdown).toContain("(image: a sleeping cat)");
    expect(read.markdown).not.toMatch(/!\[|pixel\.gif|cat\.png/);
  });

  it("keeps a plain-text answer as it is", async () => {
    extra = (request) => (request.url === "/notes.txt" ? { headers: { "Content-Type": "text/plain; charset=utf-8" }, body: "Заметки · 笔记 · ملاحظات\nline two\n" } : undefined);
    const read = await readWebPage(`${server.url}/notes.txt`, options());
    expect(read).toMatchObject({ title: "notes.txt", markdown: "Заметки · 笔记 · ملاحظات\nline two" });
  });

  it("cuts a long page at a paragraph within the limit and says so", async () => {
    extra = (request) => (request.url === "/long.html" ? html(`<article><h1>Long</h1>${paragraphs(200, "слово")}</article>`) : undefined);
    const read = await readWebPage(`${server.url}/long.html`, options({ maxCharacters: 5_000 }));
    expect(read.truncated).toBe(true);
    expect(read.markdown.length).toBeLessThanOrEqual(5_000);
    expect(read.characters).toBeGreaterThan(30_000);
    expect(read.markdown.endsWith("слово")).toBe(true);
  });

  it.each([
    ["/missing.html", "HTTP 404: there is no page at that address"],
    ["/forbidden", "HTTP 403: the site refused to show the page (it may need a login)"],
    ["/broken", "HTTP 503: the site failed; try again later"],
    ["/paper.pdf", "is not a web page (it is application/pdf): save the PDF in the vault to attach it"],
    ["/picture.png", "is not a web page (it is image/png)"],
    ["/scripts-only", "has no readable text: it may be built by scripts in the browser"],
    ["/loop", "redirects more than 5 times"],
  ])("says why %s could not be read", async (path, reason) => {
    extra = (request) => {
      if (request.url === "/forbidden") return { status: 403, body: "no" };
      if (request.url === "/broken") return { status: 503, body: "down" };
      if (request.url === "/paper.pdf") return { headers: { "Content-Type": "application/pdf" }, body: "%PDF-1.7" };
      if (request.url === "/picture.png") return { headers: { "Content-Type": "image/png" }, body: "\u0089PNG" };
      if (request.url === "/scripts-only") return html('<div id="app"></div><script>render()</script>');
      if (request.url === "/loop") return { status: 302, headers: { Location: "/loop" }, body: "" };
      return undefined;
    };
    await expect(readWebPage(`${server.url}${path}`, options())).rejects.toThrow(reason);
  });

  it("says when the site cannot be reached", async () => {
    await expect(readWebPage("http://127.0.0.1:1/page", options())).rejects.toThrow("Could not reach 127.0.0.1:1");
  });

  it("refuses a URL its rule refuses before asking anything, and a redirect to one", async () => {
    const urlRule = (url: string) => (new URL(url).pathname.startsWith("/private") ? "a private place" : null);
    await expect(readWebPage(`${server.url}/private/page`, options({ urlRule }))).rejects.toThrow(`${server.url}/private/page was not read: a private place`);
    expect(server.requests).toHaveLength(0);
    extra = (request) => (request.url === "/hop" ? { status: 302, headers: { Location: "/private/admin" }, body: "" } : undefined);
    await expect(readWebPage(`${server.url}/hop`, options({ urlRule }))).rejects.toThrow(`redirects to ${server.url}/private/admin, which was not read: a private place`);
    expect(server.requests.map((request) => request.url)).toEqual(["/hop"]);
  });

  it("follows redirects and names the page where it was read", async () => {
    extra = (request) => (request.url === "/short" ? { status: 301, headers: { Location: "/news/2026/tidal-lagoon.html#top" }, body: "" } : undefined);
    const read = await readWebPage(`${server.url}/short`, options());
    expect(read.url).toBe(`${server.url}/news/2026/tidal-lagoon.html`);
    expect(read.markdown).toContain("took nineteen days");
  });

  it("refuses what is not an http(s) address", async () => {
    await expect(readWebPage("file:///etc/passwd", options())).rejects.toThrow("Only http and https pages can be read");
    await expect(readWebPage("example.org/page", options())).rejects.toThrow("is not a web address");
  });

  it("stops when the signal aborts", async () => {
    const controller = new AbortController();
    controller.abort(new Error("stopped by the user"));
    await expect(readWebPage(`${server.url}/news/2026/tidal-lagoon.html`, options({ signal: controller.signal }))).rejects.toThrow("stopped by the user");
  });
});
