import { parseHTML } from "linkedom";
import TurndownService from "turndown";
import type { HtmlReader } from "../tools/web/webPage";

/**
 * Web pages read in Node (the CLI and the tests): linkedom's DOM, which runs no script and loads
 * nothing, and turndown for the Markdown, with tables as Markdown tables (turndown alone writes a
 * table's cells as paragraphs). Obsidian's own `htmlToMarkdown` does this in the plugin.
 */
export function nodeHtmlReader(): HtmlReader {
  const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-", emDelimiter: "*" });
  turndown.addRule("table", {
    filter: "table",
    replacement: (_content, node) => `\n\n${markdownTable(node as HTMLTableElement, (cell) => turndown.turndown(cell))}\n\n`,
  });
  return {
    parse: (html) => parseHTML(html).document,
    toMarkdown: (element) => turndown.turndown(element),
  };
}

/** A table as a Markdown table: its first row the header, each cell's Markdown on one line. */
function markdownTable(table: HTMLTableElement, cellMarkdown: (cell: HTMLElement) => string): string {
  const rows = Array.from(table.querySelectorAll("tr")).map((row) =>
    Array.from(row.querySelectorAll("th, td")).map((cell) => cellMarkdown(cell as HTMLElement).replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|").trim()),
  );
  const width = Math.max(0, ...rows.map((row) => row.length));
  if (width === 0) return "";
  const line = (cells: string[]) => `| ${Array.from({ length: width }, (_, index) => cells[index] ?? "").join(" | ")} |`;
  const [header = [], ...body] = rows;
  return [line(header), line(Array<string>(width).fill("---")), ...body.map(line)].join("\n");
}
