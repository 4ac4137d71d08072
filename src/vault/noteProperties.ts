import { parse as parseYaml } from "yaml";
import { errorMessage } from "../errorMessage";
import type { NoteLoadProblem } from "./noteLoadProblem";

/** Why a note's properties could not be read, as the end of "… was not loaded: <reason>". */
export class NotePropertiesError extends Error {
  constructor(
    readonly reason: string,
    /** The reason's case, for a view in another language; an unclosed block may be a note that opens with a rule, not properties at all. */
    readonly problem: NoteLoadProblem,
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
    if (/^---\r?\n/.test(normalized)) throw new NotePropertiesError("its frontmatter is not closed by a --- line", { code: "frontmatter-not-closed" });
    return { properties: {}, body: normalized };
  }
  let parsed: unknown;
  try {
    parsed = parseYaml(match[1] ?? "");
  } catch (error) {
    const detail = errorMessage(error).split("\n")[0] ?? "";
    throw new NotePropertiesError(`its frontmatter is not valid YAML (${detail})`, { code: "frontmatter-not-yaml", detail });
  }
  if (parsed !== null && (typeof parsed !== "object" || Array.isArray(parsed))) throw new NotePropertiesError("its frontmatter is not a set of properties", { code: "frontmatter-not-properties" });
  return { properties: (parsed ?? {}) as Record<string, unknown>, body: normalized.slice(match[0].length) };
}
