/**
 * The second line of defence for model output (the first is `neutralizeMarkdown`, on the Markdown
 * itself): the answer is rendered into an element of an inert document, checked there, and only
 * then moved into the view.
 *
 * An inert document (`document.implementation.createHTMLDocument`) has no window: an image made
 * in it does not load, a script does not run, a style is not applied, a `<meta>` refreshes
 * nothing. Rendered into a live element instead, even a detached one, an `<img>` starts its
 * request the moment it is made, before any check could remove it. The rendered nodes keep what
 * Obsidian gave them (internal links, code highlighting, listeners) when they move into the view;
 * the view handles link clicks and hover previews on its own container.
 */

import { createContext } from "react";

/** Renders into `element`; resolves once the render is complete (Obsidian's MarkdownRenderer.render). */
export type RenderInto = (element: HTMLElement) => Promise<void>;

/** A document without a window to render untrusted output into; one serves many renders (making one takes about 0.1 ms). */
export function createInertDocument(liveDocument: Document): Document {
  return liveDocument.implementation.createHTMLDocument("");
}

/** The inert document of a chat view, shared by all its answers (CopilotView gives one). */
export const InertDocumentContext = createContext<Document | null>(null);

/**
 * Renders with `render` into an element of the inert document `inert`, removes from the result
 * all that could run or fetch (`sanitizeRenderedElement`), and returns the clean nodes, still in
 * the inert document: appending them to the view's element moves them in.
 */
export async function renderInert(render: RenderInto, inert: Document): Promise<Node[]> {
  // Appended to the inert body, the container belongs to the inert document whichever document made it.
  const container = inert.body.createDiv();
  try {
    await render(container);
    sanitizeRenderedElement(container);
    return Array.from(container.childNodes);
  } finally {
    container.remove();
  }
}

/** Elements that fetch, run, embed or change the page: never kept in a rendered answer. */
const REMOVED_ELEMENTS = [
  "script, noscript, template, style, link, meta, base",
  "iframe, frame, frameset, object, embed, applet, portal, fencedframe",
  "form, video, audio, source, track, picture",
].join(", ");

/** The parts of an SVG that only draw (what icons are made of); `image`, `use`, `foreignObject`, filters, animations and links go. */
const DRAWING_SVG_ELEMENTS = new Set(["svg", "g", "path", "circle", "ellipse", "line", "polyline", "polygon", "rect", "title", "desc"]);

/** Attributes that load something by themselves, on any element. */
const LOADING_ATTRIBUTES = new Set(["src", "srcset", "srcdoc", "lowsrc", "dynsrc", "background", "poster", "data", "action", "formaction", "ping", "manifest", "codebase", "archive", "longdesc"]);

/** SVG presentation attributes that may point at another document with url(…). */
const SVG_URL_ATTRIBUTES = new Set(["fill", "stroke", "mask", "filter", "clip-path", "marker-start", "marker-mid", "marker-end", "cursor"]);

/** CSS that may fetch: url(), image-set() and friends, @import; a backslash may spell any of them in an escape. */
const LOADING_CSS = /url|image|cross-fade|element\(|paint\(|src\(|@import|expression|\\/i;

/** Schemes a link may not have: they run code or carry a document in the link itself. */
const SCRIPT_SCHEME = /^(javascript|vbscript|data):/;

/**
 * The rendered answer checked once more: anything that could run or fetch is removed, an image is
 * replaced by a link to it, an embed by a link to its note; event attributes, attributes that load
 * (src, srcset, background, …), CSS that fetches, and links with script schemes are dropped. Only
 * `a` elements keep an `href`.
 */
export function sanitizeRenderedElement(root: HTMLElement): void {
  // Made in `root` (so in its document), then moved into place.
  for (const image of Array.from(root.querySelectorAll("img"))) {
    const source = image.getAttribute("src") ?? "";
    const link = root.createEl("a", { cls: "external-link", text: image.getAttribute("alt") || source });
    if (/^https?:/i.test(source.trim())) link.setAttribute("href", source.trim());
    image.replaceWith(link);
  }
  for (const embed of Array.from(root.querySelectorAll(".internal-embed"))) {
    const target = embed.getAttribute("src") ?? embed.textContent ?? "";
    const link = root.createEl("a", { cls: "internal-link", text: target, attr: { "data-href": target, href: target } });
    embed.replaceWith(link);
  }
  for (const element of Array.from(root.querySelectorAll(REMOVED_ELEMENTS))) element.remove();
  for (const element of Array.from(root.querySelectorAll("svg *"))) {
    if (!DRAWING_SVG_ELEMENTS.has(element.localName)) element.remove();
  }
  for (const element of Array.from(root.querySelectorAll("*"))) {
    for (const attribute of Array.from(element.attributes)) {
      if (!keepsAttribute(element, attribute.localName.toLowerCase(), attribute.value)) element.removeAttributeNode(attribute);
    }
  }
}

function keepsAttribute(element: Element, name: string, value: string): boolean {
  if (name.startsWith("on") || LOADING_ATTRIBUTES.has(name)) return false;
  if (name === "style") return !LOADING_CSS.test(value);
  if (SVG_URL_ATTRIBUTES.has(name) && element.namespaceURI !== "http://www.w3.org/1999/xhtml") return !/url/i.test(value);
  // `localName` is "href" for xlink:href too.
  if (name === "href") {
    if (element.localName !== "a") return false;
    // Browsers ignore whitespace and control characters inside a scheme ("java\tscript:").
    return !SCRIPT_SCHEME.test(value.replace(/[\s\p{Cc}]/gu, "").toLowerCase());
  }
  return true;
}
