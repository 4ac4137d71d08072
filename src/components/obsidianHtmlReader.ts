import { htmlToMarkdown } from "obsidian";
import type { HtmlReader } from "../tools/web/webPage";

/**
 * Web pages read in Obsidian, desktop and mobile alike: the window's DOMParser, whose documents
 * are inert (their scripts never run, nothing in them loads), and Obsidian's own `htmlToMarkdown`,
 * so main.js carries no Markdown converter.
 */
export function obsidianHtmlReader(): HtmlReader {
  return {
    parse: (html) => new DOMParser().parseFromString(html, "text/html"),
    toMarkdown: (element) => htmlToMarkdown(element),
  };
}
