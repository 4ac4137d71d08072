import { escapeXmlAttribute, escapeXmlText } from "./escapeXml";
import type { ContextArtifact } from "./PromptContextTypes";

/**
 * How attached artifacts read in the prompt. The artifact's text is the user's data, not
 * structure, so it is escaped: a note that contains "</note>" or "[User query]:" cannot close the
 * block or pose as the question.
 */
export function renderContextArtifact(artifact: ContextArtifact, revision = 1): string {
  const attributes = [
    `title="${escapeXmlAttribute(artifact.title)}"`,
    artifact.source !== undefined ? `source="${escapeXmlAttribute(artifact.source)}"` : "",
    // A later revision of an artifact already in the library: the model should prefer it.
    revision > 1 ? `revision="${revision}"` : "",
  ]
    .filter(Boolean)
    .join(" ");
  return `<${artifact.kind} ${attributes}>\n${escapeXmlText(artifact.content)}\n</${artifact.kind}>`;
}

/** The line that opens L2 in the system message, once the library holds anything. */
export const CONTEXT_LIBRARY_HEADING = [
  "# Context library",
  "Material the user attached earlier in this conversation. Use it when it is relevant to the question; a higher revision of the same title replaces the lower one.",
].join("\n");

/** An artifact's identity in the library: the same id with other content (or other images) is a new revision. */
export function artifactKey(artifact: ContextArtifact): string {
  const images = (artifact.images ?? []).map((image) => `${image.bytes}:${image.data.length}:${image.data.slice(-64)}`);
  return [artifact.id, artifact.content, ...images].join("\u0000");
}

/**
 * L1 followed by L2. Written so that adding artifacts to the library only appends text: the
 * system message of one turn is a byte-for-byte prefix of the next turn's (no closing tag after
 * the last artifact, no count that changes).
 */
export function renderSystemPrefix(system: string, library: readonly ContextArtifact[]): string {
  if (library.length === 0) return system;
  return [system, CONTEXT_LIBRARY_HEADING, ...renderLibraryBlocks(library)].join("\n\n");
}

/** The library's blocks, in order, each artifact marked with its revision number. */
export function renderLibraryBlocks(library: readonly ContextArtifact[]): string[] {
  const revisions = new Map<string, number>();
  return library.map((artifact) => {
    const revision = (revisions.get(artifact.id) ?? 0) + 1;
    revisions.set(artifact.id, revision);
    return renderContextArtifact(artifact, revision);
  });
}
