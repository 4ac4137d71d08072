import { z } from "zod";
import { defuseToolText } from "../../context/escapeXml";
import type { VaultPort } from "../../vault/VaultPort";
import type { BuiltinToolEntry } from "../BuiltinToolEntry";
import { requireVault } from "../requireVault";
import type { SimpleTool } from "../SimpleTool";
import { findNote } from "./noteLookup";
import { scanNoteLinks } from "./noteLinksMemo";

const schema = z.object({
  notePath: z.string().min(1).describe('The note whose backlinks to find: a vault path or a note name ("Plan", "[[Plan]]").'),
  maxResults: z.number().int().min(1).max(500).optional().describe("Most linking notes to list (default 50)."),
});

export interface Backlink {
  /** The note that links here. */
  path: string;
  /** How many links (and embeds) it has to the note. */
  linkCount: number;
  /** The lines holding the first links, trimmed, for context. */
  context: string[];
}

export interface BacklinksResult {
  path: string;
  backlinks: Backlink[];
  totalLinkingNotes: number;
}

export const getBacklinksTool: BuiltinToolEntry = {
  metadata: {
    id: "getBacklinks",
    displayName: "Backlinks",
    description: "Lets the model find the notes that link to a note.",
    category: "file",
    enabledByDefault: true,
    requiresVault: true,
    customPromptInstructions:
      "Use getBacklinks to find notes that link to a note (its context, related projects, mentions); read the ones that matter with readNote.",
    wording: { pending: "Would like to find backlinks", running: "Finding backlinks", done: "Found backlinks" },
  },
  create: (dependencies): SimpleTool<z.infer<typeof schema>, BacklinksResult> => ({
    name: "getBacklinks",
    description: "Lists the notes that link to (or embed) a note, with the lines where they link.",
    schema,
    isReadOnly: true,
    func: ({ notePath, maxResults }, { signal }) => getBacklinks(requireVault(dependencies), notePath, maxResults ?? 50, signal),
    formatForModel: formatBacklinks,
  }),
};

const CONTEXT_LINES = 2;
const CONTEXT_CHARS = 200;

export async function getBacklinks(vault: VaultPort, notePath: string, maxResults: number, signal: AbortSignal): Promise<BacklinksResult> {
  const { path: target, lookup } = await findNote(vault, notePath);
  const linking: { path: string; originals: string[] }[] = [];
  const notes = [...lookup.notes].filter((path) => path.toLowerCase().endsWith(".md"));
  await scanNoteLinks(vault, notes, signal, (source, links) => {
    if (source === target) return;
    const originals = links.filter((link) => lookup.resolveLink(link, source) === target).map((link) => link.original);
    if (originals.length > 0) linking.push({ path: source, originals });
  });
  linking.sort((a, b) => b.originals.length - a.originals.length || a.path.localeCompare(b.path));
  const shown = linking.slice(0, maxResults);
  const backlinks = await Promise.all(
    shown.map(async ({ path, originals }) => ({ path, linkCount: originals.length, context: await contextLines(vault, path, originals) })),
  );
  return { path: target, backlinks, totalLinkingNotes: linking.length };
}

async function contextLines(vault: VaultPort, path: string, originals: string[]): Promise<string[]> {
  const lines = (await vault.read(path)).split("\n");
  const found: string[] = [];
  for (const line of lines) {
    if (found.length >= CONTEXT_LINES) break;
    if (originals.some((original) => line.includes(original))) {
      const trimmed = line.trim();
      found.push(trimmed.length > CONTEXT_CHARS ? `${trimmed.slice(0, CONTEXT_CHARS)}…` : trimmed);
    }
  }
  return found;
}

/** The backlinks for the model; names and context lines are note text, defused as every tool's are. */
export function formatBacklinks(result: BacklinksResult): string {
  return defuseToolText(backlinksText(result));
}

function backlinksText(result: BacklinksResult): string {
  if (result.totalLinkingNotes === 0) return `No notes link to "${result.path}".`;
  const lines = [`${result.totalLinkingNotes} note${result.totalLinkingNotes === 1 ? " links" : "s link"} to "${result.path}":`];
  for (const backlink of result.backlinks) {
    lines.push(`- ${backlink.path} (${backlink.linkCount} link${backlink.linkCount === 1 ? "" : "s"})`);
    for (const context of backlink.context) lines.push(`    ${context}`);
  }
  if (result.backlinks.length < result.totalLinkingNotes) lines.push(`(${result.totalLinkingNotes - result.backlinks.length} more not shown)`);
  return lines.join("\n");
}
