import type { RecordMessage, RecordQuestion } from "./chatRecord";

/**
 * Where a writer's own exchange goes in a chat note that someone else changed since it last wrote
 * it (a person editing it, another view or process going on with the same chat).
 *
 * The rule: each exchange (a question and its answer) is kept whole, in the order its question was
 * first written. What the note holds is everybody else's and stands as it is; the writer's own
 * exchange replaces its earlier copy in the note where that copy is (with whatever was appended
 * after it kept after it), or, when the note does not hold it yet, is appended at the end.
 */
export interface NoteSplit {
  /** The note's messages before the writer's exchange. */
  before: RecordMessage[];
  /** The note's messages after it (exchanges others appended meanwhile). */
  after: RecordMessage[];
}

/**
 * Splits the note's messages around the writer's exchange, found by its question (`own`), or by
 * the question of the version it replaced (`replaced`: Regenerate or Edit), compared as written
 * (time to the second and text). The writer's saved copy of the answer, right after its question,
 * is dropped: the writer writes it anew.
 */
export function splitAroundOwnExchange(theirs: readonly RecordMessage[], own: RecordQuestion | null, replaced: RecordQuestion | null): NoteSplit {
  for (const question of [own, replaced]) {
    if (!question) continue;
    const at = theirs.findLastIndex((message) => message.role === "user" && message.time === question.time && message.text === question.text);
    if (at === -1) continue;
    const answerAfter = theirs[at + 1]?.role === "assistant" ? 1 : 0;
    return { before: theirs.slice(0, at), after: theirs.slice(at + 1 + answerAfter) };
  }
  return { before: [...theirs], after: [] };
}
