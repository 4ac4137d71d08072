import type { TimeRange } from "../ports/NoteSearcher";

/**
 * Corpus-in-Context (CiC) ordering for every prompt that carries documents: the instruction first,
 * then the documents, then the question last, labelled `[User query]:` so the model can tell the
 * question from the material it is given (arXiv 2406.13121).
 */
export const USER_QUERY_LABEL = "[User query]:";

/** Context blocks (already rendered) followed by the labelled question. */
export function renderCiCMessage(contextBlocks: readonly string[], question: string): string {
  const context = contextBlocks.map((block) => block.trim()).filter((block) => block.length > 0);
  const query = `${USER_QUERY_LABEL} ${question.trim()}`;
  return context.length === 0 ? query : `${context.join("\n\n")}\n\n${query}`;
}

/**
 * Makes sure `content` ends with the labelled question: if the question is already last (with its
 * label), nothing changes; otherwise the question is appended. Used by the agent loop after tool
 * results are added, so the question stays last on every iteration.
 */
export function ensureCiCOrderingWithQuestion(content: string, question: string): string {
  const labelled = `${USER_QUERY_LABEL} ${question.trim()}`;
  const trimmed = content.trimEnd();
  if (trimmed.endsWith(labelled)) return trimmed;
  return trimmed.length === 0 ? labelled : `${trimmed}\n\n${labelled}`;
}

/** The guidance that tops every localSearch payload, before any document. */
export const LOCAL_SEARCH_GUIDANCE = [
  "<guidance>",
  "Answer from the documents below when they are relevant; say so when they are not.",
  "Cite every note you use as a wikilink to its title, e.g. [[Note title]], right after the claim it supports.",
  "A document with a cite attribute (a PDF's page) is cited exactly as that attribute says, e.g. [[Papers/x.pdf#page=2]].",
  "Do not cite notes that are not in the documents. Higher scores mean closer matches.",
  "</guidance>",
].join("\n");

/** Guidance first, then the documents (as `formatSearchResultsForLLM` rendered them). */
export function buildLocalSearchInnerContent(formattedDocuments: string, guidance = LOCAL_SEARCH_GUIDANCE): string {
  return `${guidance}\n${formattedDocuments}`;
}

/** Wraps a localSearch payload in its `<localSearch>` tag, with the time range when one was used. */
export function wrapLocalSearchPayload(innerContent: string, timeRange?: TimeRange): string {
  const range = timeRange
    ? ` timeRange="${new Date(timeRange.startTime).toISOString()}/${new Date(timeRange.endTime).toISOString()}"`
    : "";
  return `<localSearch${range}>\n${innerContent}\n</localSearch>`;
}
