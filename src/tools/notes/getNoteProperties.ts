import { z } from "zod";
import { defuseToolText } from "../../context/escapeXml";
import type { VaultPort } from "../../vault/VaultPort";
import type { BuiltinToolEntry } from "../BuiltinToolEntry";
import { requireVault } from "../requireVault";
import type { SimpleTool } from "../SimpleTool";
import { findNote } from "./noteLookup";
import { ToolFailureError } from "../../errorMessage";
import { NotePropertiesError, readNoteProperties } from "../../vault/noteProperties";

const schema = z.object({
  notePath: z.string().min(1).describe('The note: a vault path or a note name ("Plan", "[[Plan]]").'),
});

export interface NotePropertiesResult {
  path: string;
  /** The frontmatter properties as YAML gave them. */
  properties: Record<string, unknown>;
  tags: string[];
  aliases: string[];
  headings: string[];
  created?: string;
  modified?: string;
  sizeBytes?: number;
}

export const getNotePropertiesTool: BuiltinToolEntry = {
  metadata: {
    id: "getNoteProperties",
    displayName: "Note properties",
    description: "Lets the model read a note's properties (frontmatter), tags, aliases and outline without its text.",
    category: "file",
    enabledByDefault: true,
    requiresVault: true,
    customPromptInstructions:
      "Use getNoteProperties for a note's frontmatter properties, tags, aliases, headings and dates when you do not need its full text.",
    wording: { pending: "Would like to read a note's properties", running: "Reading a note's properties", done: "Read a note's properties" },
  },
  create: (dependencies): SimpleTool<z.infer<typeof schema>, NotePropertiesResult> => ({
    name: "getNoteProperties",
    description: "Returns a note's frontmatter properties, tags, aliases, headings, and created/modified dates.",
    schema,
    isReadOnly: true,
    func: ({ notePath }) => getNoteProperties(requireVault(dependencies), notePath),
    // Property values and headings are note text: the label and closing tags are defused.
    formatForModel: (result) => defuseToolText(JSON.stringify(result, null, 2)),
  }),
};

export async function getNoteProperties(vault: VaultPort, notePath: string): Promise<NotePropertiesResult> {
  const { path } = await findNote(vault, notePath);
  const [metadata, stat] = await Promise.all([vault.getMetadata(path), vault.stat(path)]);
  if (Object.keys(metadata?.frontmatter ?? {}).length === 0) await refuseUnreadableProperties(vault, path);
  return {
    path,
    properties: metadata?.frontmatter ?? {},
    tags: metadata?.tags ?? [],
    aliases: metadata?.aliases ?? [],
    headings: (metadata?.headings ?? []).map((h) => `${"#".repeat(h.level)} ${h.heading}`),
    ...(stat
      ? { created: new Date(stat.ctime).toISOString(), modified: new Date(stat.mtime).toISOString(), sizeBytes: stat.size }
      : {}),
  };
}

/**
 * The metadata reader (Obsidian's, and ours in the CLI) gives no properties for a block that is
 * not valid YAML: said as "no properties", the model would take a broken block for an empty one.
 * Read strictly only when no properties came back, so a note with properties costs no second read.
 */
async function refuseUnreadableProperties(vault: VaultPort, path: string): Promise<void> {
  const text = await vault.read(path);
  try {
    readNoteProperties(text);
  } catch (error) {
    if (!(error instanceof NotePropertiesError)) throw error;
    // A note that opens with a horizontal rule and never closes it has no properties to read.
    if (error.problem.code === "frontmatter-not-closed") return;
    throw new ToolFailureError(`The properties of "${path}" cannot be read: ${error.reason}. Read the note with readNote to see its frontmatter as text.`, {
      kind: "properties-not-yaml",
      values: { path },
    });
  }
}
