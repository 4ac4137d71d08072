import { errorMessage } from "../errorMessage";
import type { NoteSearcher } from "../ports/NoteSearcher";
import { anySignal } from "../ports/abort";
import { realScheduler, type Scheduler } from "../ports/timers";
import { cutAtWord } from "../text/cutAtWord";
import type { CompletionContext } from "./completionContext";

/** A passage of another note that a completion request carries, for the facts and names it holds. */
export interface RelatedPassage {
  /** The note's name, without folder or extension. */
  title: string;
  /** The passage's heading path ("Budget > Q3"), when it is a section. */
  heading?: string;
  content: string;
}

/** At most three notes, a short passage each: about 450 tokens, so a completion still answers fast. */
export const RELATED_PASSAGE_LIMITS = { notes: 3, characters: 600, queryCharacters: 600 };

/**
 * The passages of the user's other notes that best match what is being written: the note's title
 * and the last `queryCharacters` before the cursor are the search query; the note itself is left
 * out. Words only (no embedding request per pause), and the searcher's own exclusions apply (the
 * saved chats and excluded folders are never sent). A passage is cut to `characters` at a word.
 */
export async function relatedPassages(searcher: NoteSearcher, context: CompletionContext, signal: AbortSignal): Promise<RelatedPassage[]> {
  const recent = context.before.slice(-RELATED_PASSAGE_LIMITS.queryCharacters);
  const query = `${context.title}\n${recent}`.trim();
  if (query === "") return [];
  const hits = await searcher.search(query, {
    limit: RELATED_PASSAGE_LIMITS.notes,
    wordsOnly: true,
    acceptPath: (path) => path !== context.path,
    signal,
  });
  return hits
    .filter((hit) => hit.content.trim() !== "")
    .map((hit) => {
      const content = cutAtWord(hit.content, RELATED_PASSAGE_LIMITS.characters);
      return { title: hit.title, ...(hit.heading ? { heading: hit.heading } : {}), content: content === hit.content ? content : `${content} …` };
    });
}

/**
 * `lookup`, given at most `budgetMs` to answer: a completion never waits long for its passages.
 * An index still building, a slow disk or a failed search gives no passages (a failure is said to
 * `onProblem`), and the completion goes without them. The lookup is aborted when the budget runs
 * out or `signal` is (a key typed meanwhile).
 */
export async function passagesWithin(
  lookup: (signal: AbortSignal) => Promise<RelatedPassage[]>,
  options: { budgetMs: number; signal: AbortSignal; scheduler?: Scheduler; onProblem?: (message: string) => void },
): Promise<RelatedPassage[]> {
  const { budgetMs, signal, scheduler = realScheduler, onProblem } = options;
  const budget = new AbortController();
  const lookupSignal = anySignal([signal, budget.signal]);
  let timer: number | undefined;
  const late = new Promise<RelatedPassage[]>((resolve) => {
    timer = scheduler.setTimeout(() => {
      budget.abort();
      resolve([]);
    }, budgetMs);
  });
  try {
    return await Promise.race([
      lookup(lookupSignal).catch((error: unknown) => {
        if (!lookupSignal.aborted) onProblem?.(`Related passages were left out of a completion: ${errorMessage(error)}`);
        return [];
      }),
      late,
    ]);
  } finally {
    scheduler.clearTimeout(timer);
  }
}
