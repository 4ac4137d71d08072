import { escapeXmlAttribute, escapeXmlText } from "./escapeXml";
import type { SearchResultForLLM } from "../ports/NoteSearcher";


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
      // A PDF's passage names its page, and the link that opens the PDF there.
      result.page !== undefined ? `page="${result.page}" cite="${escapeXmlAttribute(`[[${result.path}#page=${result.page}]]`)}"` : "",
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
