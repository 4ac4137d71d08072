import { Readability } from "@mozilla/readability";
import { errorMessage, type ToolFailure } from "../../errorMessage";
import type { HttpResponse, PlainHttp } from "../../net/plainHttp";
import { decodePage } from "./pageCharset";

/**
 * How a page's HTML becomes a document and Markdown on this platform: in Obsidian the window's
 * DOMParser and Obsidian's own `htmlToMarkdown`; in the CLI linkedom and turndown. The document
 * must be inert (nothing in it loads or runs): pages are untrusted.
 */
export interface HtmlReader {
  parse(html: string): Document;
  toMarkdown(element: HTMLElement): string;
}

/** A page read for the model: its main content as Markdown. */
export interface WebPage {
  /** Where the page was read (after redirects the fetch let us see). */
  url: string;
  title: string;
  markdown: string;
  /** The Markdown was cut at the character limit (or the page at MAX_PAGE_BYTES). */
  truncated: boolean;
  /** The Markdown's length before it was cut. */
  characters: number;
}

export interface ReadWebPageOptions {
  http: PlainHttp;
  html: HtmlReader;
  signal: AbortSignal;
  /** Longest Markdown kept; a longer page is cut at a paragraph and says so. */
  maxCharacters: number;
  /**
   * For a URL the model chose: the reason the URL (and then each redirect) may not be read, or
   * null (the private-address rule, `refusedForModel`). A URL the user gave is read without one.
   */
  urlRule?: (url: string) => string | null;
}

/** The most of a page's bytes read: far more than any article, little enough for a phone's memory. */
export const MAX_PAGE_BYTES = 5 * 1024 * 1024;
/** As many redirects as a page may take before it is given up. */
const MAX_REDIRECTS = 5;

/** A page that could not be read, with a message that says why (for the user, or the model). */
export class WebPageError extends Error {
  constructor(
    message: string,
    readonly failure?: ToolFailure,
  ) {
    super(message);
    this.name = "WebPageError";
  }
}

/**
 * Fetches an http(s) page and extracts its main content (title, article text, as Markdown;
 * navigation, footers, scripts and styles left out) with Mozilla's Readability, the extractor of
 * Firefox's reader view. Plain text answers are kept as they are. Throws WebPageError with the
 * reason for an address that is refused, unreachable, an error status, or not a page.
 */
export async function readWebPage(url: string, options: ReadWebPageOptions): Promise<WebPage> {
  const response = await fetchPage(url, options);
  const { text, contentType } = decodePage(response.bytes ?? new Uint8Array(0), response.headers["content-type"] ?? "");
  const kind = pageKind(contentType, text);
  if (kind === "other") {
    throw new WebPageError(`${url} is not a web page (it is ${contentType || "of an unknown type"})${contentType === "application/pdf" ? ": save the PDF in the vault to attach it" : ""}.`, {
      kind: "page-not-a-page",
      values: { url },
    });
  }
  const { title, markdown } = kind === "html" ? extractArticle(text, response.url, options.html) : { title: titleFromUrl(response.url), markdown: text.trim() };
  if (markdown.trim() === "") {
    throw new WebPageError(`${url} has no readable text: it may be built by scripts in the browser, which are not run here, or need a login.`, { kind: "page-no-text", values: { url } });
  }
  const cut = cutAtParagraph(markdown, options.maxCharacters);
  return { url: response.url, title, markdown: cut, truncated: cut.length < markdown.length || response.truncated === true, characters: markdown.length };
}

/** The page's answer, redirects followed one by one (each checked for a model's URL), its bytes capped. */
async function fetchPage(url: string, options: ReadWebPageOptions): Promise<HttpResponse & { url: string }> {
  let current = checkAddress(url, options.urlRule);
  for (let redirects = 0; ; redirects++) {
    let response: HttpResponse;
    try {
      response = await options.http.request({
        url: current,
        headers: { Accept: "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5", "User-Agent": "Mozilla/5.0 (compatible; Vault Copilot)" },
        signal: options.signal,
        maxBytes: MAX_PAGE_BYTES,
        redirect: "manual",
      });
    } catch (error) {
      if (options.signal.aborted) throw error;
      throw new WebPageError(`Could not reach ${new URL(current).host}: ${errorMessage(error)}.`, { kind: "unreachable", values: { host: new URL(current).host } });
    }
    const location = response.headers.location;
    if (response.status >= 300 && response.status < 400 && location) {
      if (redirects >= MAX_REDIRECTS) throw new WebPageError(`${url} redirects more than ${MAX_REDIRECTS} times; it was given up.`, { kind: "page-too-many-redirects", values: { url, count: MAX_REDIRECTS } });
      const target = new URL(location, current);
      target.hash = "";
      const next = target.href;
      const refused = options.urlRule?.(next) ?? null;
      if (refused) throw new WebPageError(`${current} redirects to ${next}, which was not read: ${refused}.`, { kind: "url-refused", values: { url: next } });
      current = next;
      continue;
    }
    if (response.status < 200 || response.status >= 300) throw new WebPageError(statusMessage(current, response.status), { kind: "page-status", values: { url: current, status: response.status } });
    return { ...response, url: current };
  }
}

function checkAddress(url: string, urlRule: ((url: string) => string | null) | undefined): string {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new WebPageError(`"${url}" is not a web address: give a full http:// or https:// URL.`, { kind: "not-web-address", values: { url } });
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new WebPageError(`Only http and https pages can be read, not "${url}".`, { kind: "not-web-address", values: { url } });
  const refused = urlRule?.(parsed.href) ?? null;
  if (refused) throw new WebPageError(`${parsed.href} was not read: ${refused}.`, { kind: "url-refused", values: { url: parsed.href } });
  parsed.hash = "";
  return parsed.href;
}

function statusMessage(url: string, status: number): string {
  if (status === 404 || status === 410) return `${url} answered HTTP ${status}: there is no page at that address.`;
  if (status === 401 || status === 403) return `${url} answered HTTP ${status}: the site refused to show the page (it may need a login).`;
  if (status === 429) return `${url} answered HTTP 429: the site says too many requests; try again later.`;
  if (status >= 500) return `${url} answered HTTP ${status}: the site failed; try again later.`;
  return `${url} answered HTTP ${status}, not a page.`;
}

function pageKind(contentType: string, text: string): "html" | "text" | "other" {
  if (contentType === "text/html" || contentType === "application/xhtml+xml") return "html";
  if (contentType === "") return /^\s*</.test(text) ? "html" : "text";
  if (contentType.startsWith("text/") || contentType === "application/json" || contentType.endsWith("+json") || contentType.endsWith("+xml") || contentType === "application/xml") return "text";
  return "other";
}

/** Elements that are never a page's content, taken out before anything reads the document. */
const NEVER_CONTENT = "script, style, noscript, template, iframe, frame, object, embed, svg, canvas, video, audio, form, button, input, select, textarea, dialog";

/** The page's title and main content as Markdown. */
function extractArticle(html: string, url: string, reader: HtmlReader): { title: string; markdown: string } {
  const document = reader.parse(html);
  const pageTitle = document.title.trim();
  for (const element of Array.from(document.querySelectorAll(NEVER_CONTENT))) element.remove();
  absolutizeLinks(document, url);
  const article = new Readability<Node>(document, { serializer: (node) => node }).parse();
  const content = (article?.content as HTMLElement | null | undefined) ?? document.body;
  if (!content) return { title: pageTitle || titleFromUrl(url), markdown: "" };
  textForImages(content);
  const title = (article?.title ?? "").trim() || pageTitle || titleFromUrl(url);
  return { title, markdown: tidyMarkdown(reader.toMarkdown(content), title) };
}

/** Links and images as absolute URLs, so the Markdown's links work outside the page. */
function absolutizeLinks(document: Document, base: string): void {
  for (const [selector, attribute] of [["a[href]", "href"], ["img[src]", "src"]] as const) {
    for (const element of Array.from(document.querySelectorAll(selector))) {
      const value = element.getAttribute(attribute) ?? "";
      if (!URL.canParse(value, base)) continue;
      const absolute = new URL(value, base);
      // A link that would run something when clicked is no link for the model.
      if (absolute.protocol !== "http:" && absolute.protocol !== "https:" && absolute.protocol !== "mailto:") element.removeAttribute(attribute);
      else element.setAttribute(attribute, absolute.href);
    }
  }
}

/** Images become their description in words: the model reads text, and remote images stay unloaded. */
function textForImages(content: HTMLElement): void {
  for (const image of Array.from(content.querySelectorAll("img"))) {
    const alt = (image.getAttribute("alt") ?? "").trim();
    // In parentheses: square brackets would be escaped by the Markdown converters.
    if (alt) image.replaceWith(content.ownerDocument.createTextNode(`(image: ${alt})`));
    else image.remove();
  }
}

/** Drops a first heading that repeats the title, and runs of blank lines. */
function tidyMarkdown(markdown: string, title: string): string {
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  const first = lines.findIndex((line) => line.trim() !== "");
  const heading = first === -1 ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(lines[first] ?? "");
  if (heading && sameWords(heading[1] ?? "", title)) lines.splice(first, 1);
  return lines.join("\n").replace(/\n{3,}/g, "\n\n").trim();
}

function sameWords(left: string, right: string): boolean {
  const words = (text: string) => text.normalize("NFC").replace(/\\/g, "").replace(/\s+/g, " ").trim().toLowerCase();
  return words(left) === words(right) || words(right).startsWith(`${words(left)} `);
}

/** At most `limit` characters, cut at the last paragraph (or line) that fits. */
function cutAtParagraph(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const head = text.slice(0, limit);
  const paragraph = head.lastIndexOf("\n\n");
  const line = head.lastIndexOf("\n");
  const at = paragraph > limit / 2 ? paragraph : line > limit / 2 ? line : limit;
  return head.slice(0, at).trimEnd();
}

/** "https://example.org/news/tidal-lagoon.html" → "tidal-lagoon.html", or the host. */
function titleFromUrl(url: string): string {
  const parsed = new URL(url);
  const last = parsed.pathname.split("/").filter(Boolean).at(-1);
  if (!last) return parsed.host;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}
