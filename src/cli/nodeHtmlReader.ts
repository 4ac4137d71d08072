import { parseHTML } from "linkedom";
import { turndownMarkdown } from "../tools/web/turndownMarkdown";
import type { HtmlReader } from "../tools/web/webPage";

/**
 * Web pages read in Node (the CLI and the tests): linkedom's DOM, which runs no script and loads
 * nothing, and turndown for the Markdown. Obsidian's DOMParser and `htmlToMarkdown` do this in
 * the plugin.
 */
export function nodeHtmlReader(): HtmlReader {
  return {
    parse: (html) => parseHTML(html).document,
    toMarkdown: turndownMarkdown(),
  };
}
