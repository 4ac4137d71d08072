import { z } from "zod";
import { defuseToolText } from "../../context/escapeXml";
import { frontmatterTags } from "../../vault/frontmatterFields";
import type { VaultPort } from "../../vault/VaultPort";
import type { BuiltinToolEntry } from "../BuiltinToolEntry";
import { requireVault } from "../requireVault";
import type { SimpleTool } from "../SimpleTool";
import { scanNoteMetadata } from "./vaultScan";

const schema = z.object({
  prefix: z
    .string()
    .optional()
    .describe('Only tags starting with this, e.g. "project" for #project and #project/alpha. Leave out for all tags.'),
  maxTags: z.number().int().min(1).max(2000).optional().describe("Most tags to list, the most used first (default 200)."),
});

export interface TagCount {
  /** "#project/alpha", as most often written (Obsidian treats tags case-insensitively). */
  tag: string;
  /** Notes carrying the tag anywhere. */
  noteCount: number;
  /** Of those, notes that set it in the frontmatter `tags` property (the others write it inline, #tag). */
  frontmatterCount: number;
}

export interface TagListResult {
  tags: TagCount[];
  totalTags: number;
  notesScanned: number;
}

export const getTagListTool: BuiltinToolEntry = {
  metadata: {
    id: "getTagList",
    displayName: "Tag list",
    description: "Lets the model see the tags used in your vault, with how many notes use each.",
    category: "file",
    enabledByDefault: true,
    requiresVault: true,
    customPromptInstructions:
      "Use getTagList to learn which tags the vault uses (e.g. before suggesting tags for a note, or to find a topic's tag).",
    wording: { pending: "Would like to list the vault's tags", running: "Listing the vault's tags", done: "Listed the vault's tags" },
  },
  create: (dependencies): SimpleTool<z.infer<typeof schema>, TagListResult> => ({
    name: "getTagList",
    description: "Lists the vault's tags (frontmatter and inline) with the number of notes using each, most used first.",
    schema,
    isReadOnly: true,
    func: ({ prefix, maxTags }, { signal }) => getTagList(requireVault(dependencies), signal, prefix, maxTags ?? 200),
    formatForModel: formatTagList,
  }),
};

export async function getTagList(vault: VaultPort, signal: AbortSignal, prefix: string | undefined, maxTags: number): Promise<TagListResult> {
  const wanted = prefix ? `#${prefix.trim().replace(/^#/, "").toLowerCase()}` : "";
  const byKey = new Map<string, TagCount & { spellings: Map<string, number> }>();
  const notesScanned = await scanNoteMetadata(vault, signal, (_path, metadata) => {
    const inFrontmatter = new Set(frontmatterTags(metadata.frontmatter).map((tag) => tag.toLowerCase()));
    const seen = new Set<string>();
    for (const tag of metadata.tags) {
      const key = tag.toLowerCase();
      if (seen.has(key) || (wanted && !key.startsWith(wanted))) continue;
      seen.add(key);
      const entry = byKey.get(key) ?? { tag, noteCount: 0, frontmatterCount: 0, spellings: new Map<string, number>() };
      entry.noteCount++;
      if (inFrontmatter.has(key)) entry.frontmatterCount++;
      entry.spellings.set(tag, (entry.spellings.get(tag) ?? 0) + 1);
      byKey.set(key, entry);
    }
  });
  const tags = [...byKey.values()]
    .map(({ spellings, ...count }) => ({ ...count, tag: [...spellings.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? count.tag }))
    .sort((a, b) => b.noteCount - a.noteCount || a.tag.localeCompare(b.tag));
  return { tags: tags.slice(0, maxTags), totalTags: tags.length, notesScanned };
}

/** The tags for the model; tags are note text, defused as every tool's are. */
export function formatTagList(result: TagListResult): string {
  return defuseToolText(tagListText(result));
}

function tagListText(result: TagListResult): string {
  if (result.totalTags === 0) return `No tags found in ${result.notesScanned} notes.`;
  const lines = result.tags.map(
    (t) => `${t.tag}: ${t.noteCount} note${t.noteCount === 1 ? "" : "s"} (${t.frontmatterCount} in frontmatter)`,
  );
  const header = `${result.totalTags} tags in ${result.notesScanned} notes${result.tags.length < result.totalTags ? `, the ${result.tags.length} most used shown` : ""}:`;
  return [header, ...lines].join("\n");
}
