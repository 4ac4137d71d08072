import { z } from "zod";
import { defuseToolText } from "../../context/escapeXml";
import { OUTSIDE_PROJECT_NOTE, type VaultPort } from "../../vault/VaultPort";
import type { BuiltinToolEntry } from "../BuiltinToolEntry";
import { requireVault } from "../requireVault";
import type { SimpleTool } from "../SimpleTool";
import { findNote } from "./noteLookup";

const schema = z.object({
  notePath: z.string().min(1).describe('The note whose links to list: a vault path or a note name ("Plan", "[[Plan]]").'),
});

export interface OutgoingLink {
  /** The target as written in the note. */
  link: string;
  /** The note it resolves to, or null when no such note exists yet (an unresolved link). */
  resolvedPath: string | null;
  embed: boolean;
  count: number;
}

export interface OutgoingLinksResult {
  path: string;
  links: OutgoingLink[];
}

export const getOutgoingLinksTool: BuiltinToolEntry = {
  metadata: {
    id: "getOutgoingLinks",
    displayName: "Outgoing links",
    description: "Lets the model see which notes a note links to.",
    category: "file",
    enabledByDefault: true,
    requiresVault: true,
    customPromptInstructions:
      "Use getOutgoingLinks to follow a note's links (and spot links to notes that do not exist yet) without reading the whole note.",
    wording: { pending: "Would like to list a note's links", running: "Listing a note's links", done: "Listed a note's links" },
  },
  create: (dependencies): SimpleTool<z.infer<typeof schema>, OutgoingLinksResult> => ({
    name: "getOutgoingLinks",
    description: "Lists the links and embeds in a note, each resolved to the note it points to (or marked unresolved).",
    schema,
    isReadOnly: true,
    func: ({ notePath }) => getOutgoingLinks(requireVault(dependencies), notePath),
    formatForModel: formatOutgoingLinks,
  }),
};

export async function getOutgoingLinks(vault: VaultPort, notePath: string): Promise<OutgoingLinksResult> {
  const { path, lookup } = await findNote(vault, notePath);
  const metadata = await vault.getMetadata(path);
  const byKey = new Map<string, OutgoingLink>();
  for (const link of metadata?.links ?? []) {
    const resolvedPath = lookup.resolveLink(link, path);
    const key = `${resolvedPath ?? link.link.toLowerCase()}|${link.embed}`;
    const existing = byKey.get(key);
    if (existing) existing.count++;
    else byKey.set(key, { link: link.link, resolvedPath, embed: link.embed, count: 1 });
  }
  return { path, links: [...byKey.values()] };
}

/** The links for the model; names and link text are note text, defused as every tool's are. */
export function formatOutgoingLinks(result: OutgoingLinksResult): string {
  return defuseToolText(outgoingLinksText(result));
}

function outgoingLinksText(result: OutgoingLinksResult): string {
  if (result.links.length === 0) return `"${result.path}" has no links.`;
  const lines = [`Links in "${result.path}":`];
  for (const link of result.links) {
    // In a project, a link out of it comes masked from the vault port: it has no target to show.
    const outside = link.link === OUTSIDE_PROJECT_NOTE && link.resolvedPath === null;
    const target = outside ? "" : ` -> ${link.resolvedPath ?? "unresolved (no such note)"}`;
    lines.push(`- ${link.embed ? "embeds " : ""}${link.link}${target}${link.count > 1 ? ` (${link.count} times)` : ""}`);
  }
  return lines.join("\n");
}
