// Known-note recall per language: for each set in this folder (notes-<language>.json), every note
// is indexed under its own file name (the title), each question is ranked the way the plugin ranks
// a query (the real Tokenizer, InvertedIndex, field extraction and rankNotes), and the question
// counts as found at k when its note is among the first k. Prints recall@1 and recall@5 per
// language; with --misses, each question whose note did not come first, with the note's rank and the
// query's terms. Bundled and run by bench/search/run.mjs from the repository root (the sets are
// read from bench/search/knownNotes there, or --folder=PATH); a JSON line with the figures comes last.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { InvertedIndex } from "../../../src/search/InvertedIndex";
import { rankNotes } from "../../../src/search/rankNotes";
import { DEFAULT_RANKING } from "../../../src/search/ranking";
import { indexNote } from "../../../src/search/reconcile";
import { Tokenizer } from "../../../src/search/tokenizer";
import { questionsFor, typescriptLocaleSets, type KnownNote } from "./localeNotes";

interface LanguageFigures {
  notes: number;
  questions: number;
  recallAt1: number;
  recallAt5: number;
}

const folder = process.argv.find((argument) => argument.startsWith("--folder="))?.slice("--folder=".length) ?? join(process.cwd(), "bench", "search", "knownNotes");
const showMisses = process.argv.includes("--misses");

function evaluateSet(language: string, notes: KnownNote[]): LanguageFigures {
  const tokenizer = new Tokenizer();
  const index = new InvertedIndex();
  for (const note of notes) indexNote({ index, tokenizer }, { path: `${note.title}.md`, mtime: 0, size: note.body.length }, note.body);
  let questions = 0;
  let foundAt1 = 0;
  let foundAt5 = 0;
  for (const note of notes) {
    for (const question of note.questions) {
      questions++;
      const terms = new Map<string, number>();
      for (const term of tokenizer.tokenize(question)) terms.set(term, (terms.get(term) ?? 0) + 1);
      const ranked = rankNotes(index, { terms, limit: 20, ranking: DEFAULT_RANKING, timeZone: "UTC" });
      const rank = ranked.findIndex((hit) => hit.title === note.title) + 1;
      if (rank === 1) foundAt1++;
      if (rank >= 1 && rank <= 5) foundAt5++;
      if (showMisses && rank !== 1) {
        const top = ranked.slice(0, 3).map((hit) => hit.title).join(" | ");
        process.stdout.write(`  miss ${language}: "${question}" -> ${note.title} at ${rank === 0 ? "none" : rank}; terms ${[...terms.keys()].join(" ")}; top: ${top}\n`);
      }
    }
  }
  return { notes: notes.length, questions, recallAt1: foundAt1 / questions, recallAt5: foundAt5 / questions };
}

const figures: Record<string, LanguageFigures> = {};
for (const file of readdirSync(folder).filter((name) => /^notes-.+\.json$/.test(name)).sort()) {
  const language = file.slice("notes-".length, -".json".length);
  const notes = JSON.parse(readFileSync(join(folder, file), "utf8")) as KnownNote[];
  figures[language] = evaluateSet(language, notes);
  // The same notes asked for the outside check's way (longest line, first sentence, cut ends).
  figures[`${language}-lines`] = evaluateSet(`${language}-lines`, notes.map((note) => ({ ...note, questions: questionsFor(note.body) })));
}
for (const [language, notes] of typescriptLocaleSets(join(process.cwd(), "node_modules"))) figures[language] = evaluateSet(language, notes);
process.stdout.write("Known-note recall (the note asked about among the first k)\n");
for (const [language, result] of Object.entries(figures)) {
  process.stdout.write(`  ${language.padEnd(8)} ${String(result.notes).padStart(3)} notes ${String(result.questions).padStart(4)} questions   R@1 ${result.recallAt1.toFixed(3)}   R@5 ${result.recallAt5.toFixed(3)}\n`);
}
process.stdout.write(`${JSON.stringify(figures)}\n`);
