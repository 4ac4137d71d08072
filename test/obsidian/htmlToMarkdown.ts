import type * as Obsidian from "obsidian";
import { turndownMarkdown } from "../../src/tools/web/turndownMarkdown";
import type { Fits } from "./events";

let convert: ((element: HTMLElement) => string) | undefined;

/**
 * Obsidian's `htmlToMarkdown`, stood in for by turndown set up as the CLI uses it. Takes what
 * Obsidian's takes: a string, an element, a document or a fragment.
 */
export function htmlToMarkdown(html: string | HTMLElement | Document | DocumentFragment): string {
  convert ??= turndownMarkdown();
  if (typeof html === "string") {
    const document = new DOMParser().parseFromString(html, "text/html");
    return convert(document.body);
  }
  if ("body" in html) return convert(html.body);
  if (html instanceof DocumentFragment) {
    const holder = html.ownerDocument.createElement("div");
    holder.append(html.cloneNode(true));
    return convert(holder);
  }
  return convert(html);
}

export type HtmlToMarkdownFits = Fits<typeof Obsidian.htmlToMarkdown, typeof htmlToMarkdown>;
