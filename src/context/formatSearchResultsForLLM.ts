import { escapeXmlAttribute, escapeXmlText } from "./escapeXml";

/** One search hit as the model sees it. */
export interface SearchResultForLLM {
  /** Vault-relative path of the note. */
  path: string;
  /** The note's title (file name without ".md"). */
  title: string;
  /** The passage: a heading section or the start of the note. */
  content: string;
  /** The heading path of the passage, e.g. "Methods > Results", when it is a section. */
  heading?: string;
  score: number;
  /** Last modification, epoch ms. */
  mtime?: number;
}

/**
 * Serializes search hits once, as `<document>` blocks the model can cite. Every piece of note text
 * is escaped (see escapeXml.ts), so a note cannot break the structure or pose as the question.
 */
export function formatSearchResultsForLLM(results: readonly SearchResultForLLM[]): string {
  if (results.length === 0) return "<documents>\n</documents>";
  const blocks = results.map((result, index) => {
    const attributes = [
      `id="${index + 1}"`,
      `path="${escapeXmlAttribute(result.path)}"`,
      `score="${result.score.toFixed(3)}"`,
      result.mtime !== undefined ? `modified="${new Date(result.mtime).toISOString()}"` : "",
    ]
      .filter(Boolean)
      .join(" ");
    const lines = [
      `<document ${attributes}>`,
      `<title>${escapeXmlText(result.title)}</title>`,
      result.heading ? `<section>${escapeXmlText(result.heading)}</section>` : "",
      `<content>\n${escapeXmlText(result.content)}\n</content>`,
      "</document>",
    ];
    return lines.filter(Boolean).join("\n");
  });
  return `<documents>\n${blocks.join("\n")}\n</documents>`;
}
