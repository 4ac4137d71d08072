import TurndownService from "turndown";

/**
 * Markdown from an HTML element with turndown, set up as Obsidian writes Markdown (ATX headings,
 * fenced code, "-" bullets) and with tables as Markdown tables (turndown alone writes a table's
 * cells as paragraphs). The CLI reads pages with it; in the plugin Obsidian's own
 * `htmlToMarkdown` does this, and the tests' Obsidian double stands in for it with this.
 */
export function turndownMarkdown(): (element: HTMLElement) => string {
  const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-", emDelimiter: "*" });
  turndown.addRule("table", {
    filter: "table",
    replacement: (_content, node) => `\n\n${markdownTable(node as HTMLTableElement, (cell) => turndown.turndown(cell))}\n\n`,
  });
  return (element) => turndown.turndown(element);
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
