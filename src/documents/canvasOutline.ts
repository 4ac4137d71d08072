import { errorMessage } from "../errorMessage";

/**
 * A canvas (JSON Canvas, the `.canvas` files Obsidian writes; types in the `obsidian` package's
 * canvas.d.ts) read as a Markdown outline: one section per group (a card belongs to the smallest
 * group whose box holds it, as Obsidian draws it), the cards in reading order (top to bottom,
 * then left to right) — text cards with their text, file cards as links, link cards as URLs —
 * and the edges as "A → B (label)". The outline is what the index, readNote, "@" and
 * attachments read, so a canvas is found and read like a note.
 */

interface CanvasNode {
  id: string;
  type: string;
  x: number;
  y: number;
  width: number;
  height: number;
  text?: string;
  file?: string;
  subpath?: string;
  url?: string;
  label?: string;
}

interface CanvasEdge {
  fromNode: string;
  toNode: string;
  label?: string;
  toEnd?: string;
  fromEnd?: string;
}

/** A `.canvas` file that is not a JSON Canvas (bad JSON, no node list, a node without id or type). */
export class CanvasFormatError extends Error {
  constructor(reason: string) {
    super(`it is not a canvas Obsidian can open (${reason})`);
    this.name = "CanvasFormatError";
  }
}

/** Longest name a card gets in an edge line. */
const EDGE_NAME_CHARS = 60;

export function canvasOutline(json: string): string {
  const { nodes, edges } = parseCanvas(json);
  const groups = nodes.filter((node) => node.type === "group");
  const parentOf = new Map<string, CanvasNode | undefined>();
  for (const node of nodes) parentOf.set(node.id, smallestGroupHolding(node, groups));
  const childrenOf = (group: CanvasNode | undefined) => nodes.filter((node) => parentOf.get(node.id) === group).sort(readingOrder);

  const lines: string[] = [];
  const writeCards = (cards: readonly CanvasNode[], depth: number) => {
    for (const card of cards) {
      if (card.type === "group") continue;
      lines.push(...cardLines(card, "  ".repeat(depth)));
    }
  };
  const writeGroup = (group: CanvasNode, level: number) => {
    lines.push("", `${"#".repeat(Math.min(6, level))} ${oneLine(group.label ?? "") || "Group"}`, "");
    const children = childrenOf(group);
    writeCards(children, 0);
    for (const inner of children.filter((node) => node.type === "group")) writeGroup(inner, level + 1);
  };

  const top = childrenOf(undefined);
  writeCards(top, 0);
  for (const group of top.filter((node) => node.type === "group")) writeGroup(group, 2);

  const byId = new Map(nodes.map((node) => [node.id, node]));
  const edgeLines = edges.flatMap((edge) => {
    const from = byId.get(edge.fromNode);
    const to = byId.get(edge.toNode);
    if (!from || !to) return [];
    const arrow = edge.fromEnd === "arrow" && edge.toEnd !== "none" ? "↔" : edge.toEnd === "none" && edge.fromEnd === "arrow" ? "←" : edge.toEnd === "none" ? "—" : "→";
    const label = edge.label?.trim() ? ` (${oneLine(edge.label)})` : "";
    return [`- ${cardName(from)} ${arrow} ${cardName(to)}${label}`];
  });
  if (edgeLines.length > 0) lines.push("", "## Connections", "", ...edgeLines);
  if (nodes.length === 0) lines.push("(an empty canvas)");
  return lines.join("\n").replace(/^\n+/, "").trimEnd() + "\n";
}

function parseCanvas(json: string): { nodes: CanvasNode[]; edges: CanvasEdge[] } {
  let data: unknown;
  try {
    data = JSON.parse(json.replace(/^\uFEFF/, "") || "{}");
  } catch (error) {
    throw new CanvasFormatError(`its JSON is broken: ${errorMessage(error)}`);
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) throw new CanvasFormatError("it is not a JSON object");
  const record = data as { nodes?: unknown; edges?: unknown };
  const nodes = record.nodes ?? [];
  const edges = record.edges ?? [];
  if (!Array.isArray(nodes)) throw new CanvasFormatError('"nodes" is not a list');
  if (!Array.isArray(edges)) throw new CanvasFormatError('"edges" is not a list');
  return {
    nodes: nodes.map((node: unknown, index) => {
      const value = node as Partial<CanvasNode> | null;
      if (typeof value !== "object" || value === null || typeof value.id !== "string" || typeof value.type !== "string") {
        throw new CanvasFormatError(`node ${index + 1} has no id or type`);
      }
      return { ...value, x: finite(value.x), y: finite(value.y), width: finite(value.width), height: finite(value.height) } as CanvasNode;
    }),
    edges: edges.filter((edge: unknown): edge is CanvasEdge => {
      const value = edge as Partial<CanvasEdge> | null;
      return typeof value === "object" && value !== null && typeof value.fromNode === "string" && typeof value.toNode === "string";
    }),
  };
}

function finite(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

function holds(group: CanvasNode, node: CanvasNode): boolean {
  return group !== node && node.x >= group.x && node.y >= group.y && node.x + node.width <= group.x + group.width && node.y + node.height <= group.y + group.height;
}

function smallestGroupHolding(node: CanvasNode, groups: readonly CanvasNode[]): CanvasNode | undefined {
  let best: CanvasNode | undefined;
  for (const group of groups) {
    if (!holds(group, node)) continue;
    // Two groups of the same box: the one listed first holds the other, so no group holds itself round a circle.
    if (node.type === "group" && group.width * group.height === node.width * node.height && groups.indexOf(group) > groups.indexOf(node)) continue;
    if (!best || group.width * group.height < best.width * best.height) best = group;
  }
  return best;
}

function readingOrder(a: CanvasNode, b: CanvasNode): number {
  return a.y - b.y || a.x - b.x;
}

/** A card as list lines: a text card's text (its later lines indented under it), a file as a link, a link as its URL. */
function cardLines(card: CanvasNode, indent: string): string[] {
  if (card.type === "text") {
    const text = (card.text ?? "").trim();
    if (!text) return [`${indent}- (an empty card)`];
    const [first, ...rest] = text.split(/\r?\n/);
    return [`${indent}- ${first ?? ""}`, ...rest.map((line) => (line.trim() ? `${indent}  ${line}` : ""))];
  }
  if (card.type === "file") return [`${indent}- File: ${fileLink(card)}`];
  if (card.type === "link") return [`${indent}- Link: ${card.url ?? ""}`];
  return [`${indent}- (a card of type "${oneLine(card.type)}")`];
}

function fileLink(card: CanvasNode): string {
  return `[[${card.file ?? ""}${card.subpath ?? ""}]]`;
}

/** What an edge line calls a card: a text card's first line, a file's link, a link's URL, a group's label. */
function cardName(card: CanvasNode): string {
  if (card.type === "file") return fileLink(card);
  if (card.type === "link") return card.url ?? "";
  if (card.type === "group") return `group "${oneLine(card.label ?? "")}"`;
  const first = oneLine((card.text ?? "").trim().split(/\r?\n/)[0] ?? "").replace(/^#+\s*/, "");
  const name = first.length > EDGE_NAME_CHARS ? `${first.slice(0, EDGE_NAME_CHARS - 1)}…` : first;
  return `"${name}"`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
