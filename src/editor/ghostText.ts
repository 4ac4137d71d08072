import type { Ghost } from "./CompletionSession";

/**
 * The ghost text after the user typed `inserted` at `at`: when they typed the suggestion's own
 * next characters it stays, shortened by what they typed (and moved past it); anything else ends it.
 */
export function ghostAfterTyping(ghost: Ghost, at: number, inserted: string): Ghost | null {
  if (at !== ghost.at || inserted === "" || !ghost.text.startsWith(inserted)) return null;
  const rest = ghost.text.slice(inserted.length);
  return rest ? { at: at + inserted.length, text: rest } : null;
}

/**
 * The ghost text's next word, for Ctrl/Cmd+→: spaces before it and the word itself (a run of
 * letters, digits and joining marks, or one other character). In scripts written without spaces
 * (Chinese, Japanese, Thai) a "word" is what Intl.Segmenter says one is.
 */
export function nextWord(text: string): string {
  const space = /^\s*/.exec(text)?.[0] ?? "";
  const rest = text.slice(space.length);
  if (!rest) return text;
  const segmenter = new Intl.Segmenter(undefined, { granularity: "word" });
  const first = segmenter.segment(rest)[Symbol.iterator]().next();
  const word = first.done ? rest : first.value.segment;
  return space + word;
}
