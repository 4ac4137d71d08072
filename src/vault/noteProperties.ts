import { parse as parseYaml } from "yaml";
import { errorMessage } from "../errorMessage";

/** Why a note's properties could not be read, as the end of "… was not loaded: <reason>". */
export class NotePropertiesError extends Error {
  constructor(
    readonly reason: string,
    /** Which way the block is wrong: an unclosed one may be a note that opens with a rule, not properties at all. */
    readonly problem: "not-closed" | "not-yaml" | "not-properties",
  ) {
    super(reason);
    this.name = "NotePropertiesError";
  }
}

/**
 * A note's properties (its leading `---` YAML block) and the text after them, read strictly, for
 * notes whose properties say how something runs (prompt notes, project notes): a block that is
 * not closed, not YAML or not a set of properties throws `NotePropertiesError` with the reason,
 * where the metadata reader would quietly see no properties. A byte-order mark is skipped.
 */
export function readNoteProperties(text: string): { properties: Record<string, unknown>; body: string } {
  const normalized = text.replace(/^\ufeff/, "");
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(normalized);
  if (!match) {
    if (/^---\r?\n/.test(normalized)) throw new NotePropertiesError("its frontmatter is not closed by a --- line", "not-closed");
    return { properties: {}, body: normalized };
  }
  let parsed: unknown;
  try {
    parsed = parseYaml(match[1] ?? "");
  } catch (error) {
    throw new NotePropertiesError(`its frontmatter is not valid YAML (${errorMessage(error).split("\n")[0] ?? ""})`, "not-yaml");
  }
  if (parsed !== null && (typeof parsed !== "object" || Array.isArray(parsed))) throw new NotePropertiesError("its frontmatter is not a set of properties", "not-properties");
  return { properties: (parsed ?? {}) as Record<string, unknown>, body: normalized.slice(match[0].length) };
}
