import { z } from "zod";
import { ToolFailureError } from "../errorMessage";
import { buildLocalSearchInnerContent, wrapLocalSearchPayload } from "../context/cicPromptUtils";
import { formatSearchResultsForLLM } from "../context/formatSearchResultsForLLM";
import type { SearchResultForLLM, TimeRange } from "../ports/NoteSearcher";
import type { BuiltinToolEntry } from "./BuiltinToolEntry";
import type { SimpleTool } from "./SimpleTool";

const schema = z.object({
  query: z.string().trim().min(1).describe("What to look for in the user's notes: the question or topic, in plain words."),
  salientTerms: z
    .array(z.string())
    .describe(
      "The key words of the query that a relevant note would contain: names, technical terms, distinctive words, " +
        "in the language the notes are written in. Leave out question words and filler.",
    ),
  timeRange: z
    .object({
      startTime: z.number().describe("First millisecond of the period, epoch ms (from getTimeRangeMs)."),
      endTime: z.number().describe("Last millisecond of the period, epoch ms (from getTimeRangeMs)."),
    })
    .refine((range) => range.startTime <= range.endTime, "startTime must not be after endTime")
    .optional()
    .describe("Only notes from this period: modified in it, or daily notes for a day in it. Take it from getTimeRangeMs."),
});

export type LocalSearchArguments = z.infer<typeof schema>;

/** One hit for the chat view: what the model gets, plus a short snippet to show. */
export interface LocalSearchHit extends SearchResultForLLM {
  snippet: string;
}

/** The structured result (the chat view shows it); the model reads `formatLocalSearchForModel` of it. */
export interface LocalSearchResult {
  query: string;
  salientTerms: string[];
  timeRange?: TimeRange;
  hits: LocalSearchHit[];
}

const SNIPPET_CHARS = 240;

export const localSearchTool: BuiltinToolEntry = {
  metadata: {
    id: "localSearch",
    displayName: "Vault search",
    description: "Lets the model search your notes (titles, aliases, headings, tags, folders and text) for what a question needs.",
    category: "search",
    enabledByDefault: true,
    requiresVault: true,
    customPromptInstructions: [
      "When searching the user's notes with localSearch:",
      "- Always pass salientTerms: the key words of the question (names, technical terms, distinctive words), without question words or filler.",
      '- For questions about a period ("last week", "in March", "yesterday"), call getTimeRangeMs first and pass its startTime and endTime as timeRange.',
      "- Examine the relevance scores before using the results: the best match comes first, and a hit scoring far below the top one is probably off topic. Score 0 means the note is only in the time range.",
      "- If nothing relevant comes back, search again with other or fewer salient terms before saying the notes do not cover it.",
    ].join("\n"),
    wording: { pending: "Would like to search your notes", running: "Searching your notes", done: "Searched your notes" },
  },
  create: (dependencies): SimpleTool<LocalSearchArguments, LocalSearchResult> => ({
    name: "localSearch",
    description:
      "Searches the user's notes and returns the best-matching ones with their most relevant passage and a relevance score. " +
      "Use it for any question the user's own notes may answer.",
    schema,
    isReadOnly: true,
    async func({ query, salientTerms, timeRange }, { signal }) {
      const searcher = dependencies.search;
      if (!searcher) throw new ToolFailureError("Note search is not set up in this session, so the notes cannot be searched.", { kind: "not-set-up-here", values: {} });
      const limit = dependencies.getSettings().search.maxResults;
      const results = await searcher.search(query, { limit, salientTerms, ...(timeRange ? { timeRange } : {}), signal });
      return {
        query,
        salientTerms,
        ...(timeRange ? { timeRange } : {}),
        hits: results.map((result) => ({ ...result, snippet: snippetOf(result.content) })),
      };
    },
    formatForModel: formatLocalSearchForModel,
  }),
};

/** The CiC payload: guidance first, then the documents, in the `<localSearch>` wrapper. */
export function formatLocalSearchForModel(output: LocalSearchResult): string {
  const documents: SearchResultForLLM[] = output.hits.map(({ snippet: _snippet, ...result }) => result);
  return wrapLocalSearchPayload(buildLocalSearchInnerContent(formatSearchResultsForLLM(documents)), output.timeRange);
}

/** The passage's first words on one line, for a list in the chat view. */
function snippetOf(content: string): string {
  const line = content.replace(/\s+/g, " ").trim();
  if (line.length <= SNIPPET_CHARS) return line;
  const cut = line.slice(0, SNIPPET_CHARS);
  const space = cut.lastIndexOf(" ");
  return `${space > SNIPPET_CHARS * 0.6 ? cut.slice(0, space) : cut} …`;
}
