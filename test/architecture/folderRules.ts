/**
 * The table "Which folder may import which" of designdocs/ARCHITECTURE.md, read as the
 * dependency-rule test uses it: the doc is the one place the rules are written.
 */

export interface FolderRule {
  /** A top folder of src/, or a file right under it (`main.ts`). */
  folder: string;
  /** The folders it may import (the leaves and "the core" already spelt out). */
  mayImport: Set<string>;
  /** The folders its row names one by one (not through "the leaves" or "the core"). */
  named: string[];
  /** "yes", "no", or the file names (inside the folder) that may import `obsidian` at run time. */
  obsidian: "yes" | "no" | string[];
}

const HEADING = "### Which folder may import which";

/** Names written in backticks in a table cell. */
const backticked = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? "");

/**
 * The rows of the first table after the heading. A row whose "may import" is "—" is a leaf;
 * "the leaves" stands for every leaf; "the core" for every row above `components`;
 * what follows "never" is a reminder, not a permission.
 */
export function readFolderRules(markdown: string): FolderRule[] {
  const start = markdown.indexOf(HEADING);
  if (start < 0) throw new Error(`ARCHITECTURE.md has no "${HEADING}" section`);
  const lines = markdown.slice(start).split("\n");
  const firstRow = lines.findIndex((line) => line.startsWith("|"));
  const tableLines: string[] = [];
  for (const line of lines.slice(firstRow)) {
    if (!line.startsWith("|")) break;
    tableLines.push(line);
  }
  const cells = tableLines.slice(2).map((line) => line.split("|").slice(1, -1).map((cell) => cell.trim()));
  const leaves = cells.filter(([, mayImport]) => mayImport === "—").map(([folder = ""]) => backticked(folder)[0] ?? "");
  const components = cells.findIndex(([folder = ""]) => backticked(folder)[0] === "components");
  if (components < 0) throw new Error("the table has no row for `components`, which ends the core");
  const core = cells.slice(0, components).map(([folder = ""]) => backticked(folder)[0] ?? "");
  return cells.map(([folderCell = "", mayImportCell = "", obsidianCell = ""]) => {
    const permitted = mayImportCell.split("never")[0] ?? "";
    const named = backticked(permitted);
    const mayImport = new Set(named);
    if (permitted.includes("the leaves")) for (const leaf of leaves) mayImport.add(leaf);
    if (permitted.includes("the core")) for (const folder of core) mayImport.add(folder);
    const files = backticked(obsidianCell);
    return { folder: backticked(folderCell)[0] ?? folderCell, mayImport, named, obsidian: files.length > 0 ? files : obsidianCell === "yes" ? "yes" : "no" };
  });
}

/**
 * The arrows drawn in the picture above the table (`chat ──► LLMProviders, tools, …`): for each
 * folder drawn with arrows, the folders it names ("the core" and "the leaves" left out).
 */
export function readFolderPicture(markdown: string): Map<string, string[]> {
  const section = markdown.slice(markdown.indexOf(HEADING));
  const picture = /```\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  const arrows = new Map<string, string[]>();
  for (const line of picture.split("\n")) {
    const match = /^\s*(\S+) ─*►\s*([^(]*)/.exec(line);
    if (!match) continue;
    const targets = (match[2] ?? "").split(",").map((target) => target.trim()).filter((target) => target !== "" && !target.startsWith("the "));
    arrows.set(match[1] ?? "", targets);
  }
  return arrows;
}
