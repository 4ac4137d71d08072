// Known notes in many languages from text nobody here wrote: the TypeScript compiler's translated
// diagnostic messages, shipped in the `typescript` npm package (lib/<locale>/diagnosticMessages
// .generated.json; Apache-2.0, Microsoft). Sentences by professional translators, with code words,
// quotes and numbers inside the Chinese and Japanese runs. Messages are taken in the order of
// their diagnostic codes and grouped six to a note; each note is asked for as the outside check
// asks: by the longest plain line of its body and by its first sentence, and in scripts written
// without spaces by both again with two characters cut off at each end (so that matching a whole
// run cannot stand in for cutting it into words).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface KnownNote {
  title: string;
  body: string;
  questions: string[];
}

/** The package's folder name for each language, and the set's name for it. */
export const TYPESCRIPT_LOCALES: Readonly<Record<string, string>> = {
  "zh-cn": "ts-zh-hans",
  "zh-tw": "ts-zh-hant",
  ja: "ts-ja",
  ko: "ts-ko",
  ru: "ts-ru",
  de: "ts-de",
  fr: "ts-fr",
  es: "ts-es",
};
const MESSAGES_PER_NOTE = 6;
const UNSPACED = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}]/u;

/** The sets, by name, from the `typescript` package in `nodeModules` (none when it is missing). */
export function typescriptLocaleSets(nodeModules: string): Map<string, KnownNote[]> {
  const sets = new Map<string, KnownNote[]>();
  for (const [locale, name] of Object.entries(TYPESCRIPT_LOCALES)) {
    const file = join(nodeModules, "typescript", "lib", locale, "diagnosticMessages.generated.json");
    if (!existsSync(file)) continue;
    const messages = Object.entries(JSON.parse(readFileSync(file, "utf8")) as Record<string, string>)
      .map(([key, text]) => ({ code: Number(/_(\d+)$/.exec(key)?.[1] ?? 0), text: text.replace(/\s+/g, " ").trim() }))
      .filter((message) => message.text.length > 0)
      .sort((a, b) => a.code - b.code);
    const notes: KnownNote[] = [];
    for (let start = 0; start + MESSAGES_PER_NOTE <= messages.length; start += MESSAGES_PER_NOTE) {
      const group = messages.slice(start, start + MESSAGES_PER_NOTE);
      const body = group.map((message) => message.text).join("\n");
      notes.push({ title: `TS${group[0]!.code}`, body, questions: questionsFor(body) });
    }
    sets.set(name, notes);
  }
  return sets;
}

/** The longest line and the first sentence; cut by two characters at each end where words have no spaces. */
export function questionsFor(body: string): string[] {
  const lines = body.split("\n").filter((line) => line.trim().length > 0);
  const longest = lines.reduce((best, line) => ([...line].length > [...best].length ? line : best), "");
  const firstSentence = /^.+?(?:[。！？]|[.!?](?=\s|$))/u.exec(lines[0] ?? "")?.[0] ?? lines[0] ?? "";
  const questions = [longest, firstSentence];
  if (UNSPACED.test(body)) {
    for (const question of [longest, firstSentence]) {
      const characters = [...question];
      if (characters.length > 6) questions.push(characters.slice(2, -2).join(""));
    }
  }
  return questions;
}
