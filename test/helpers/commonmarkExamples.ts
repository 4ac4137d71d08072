/**
 * The CommonMark spec's own examples (the `commonmark-spec` package, 0.31.2): Markdown nobody here
 * wrote, for the tests of every reader of fences.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the package is CommonJS and ships no types
const spec = require("commonmark-spec") as { tests: { markdown: string; html: string; number: number }[] };

/** Example `number`'s Markdown, as the spec gives it. */
export function specExample(number: number): string {
  const example = spec.tests.find((test) => test.number === number);
  if (!example) throw new Error(`the CommonMark spec has no example ${number}`);
  return example.markdown;
}
