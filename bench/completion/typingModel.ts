/**
 * A person typing, as a sequence of key times: words at about 40 words a minute (a key every
 * 150 ± 60 ms), a short hesitation after one word in ten (0.4–1.2 s), and a longer one at a
 * sentence's end (1–2.5 s). Seeded, so every run types the same way.
 */
import { randomFrom } from "../chat/longAnswer";

export interface TypedKey {
  /** Milliseconds since the previous key. */
  gapMs: number;
  text: string;
}

export function typingOf(text: string, seed = 7): TypedKey[] {
  const random = randomFrom(seed);
  const keys: TypedKey[] = [];
  let previous = "";
  for (const character of text) {
    let gap = 90 + random() * 120;
    if (previous === " " && random() < 0.1) gap += 400 + random() * 800;
    if (/[.!?…。]/.test(previous)) gap += 1000 + random() * 1500;
    keys.push({ gapMs: gap, text: character });
    previous = character;
  }
  return keys;
}

/** A text of about `words` words in several scripts, sentence by sentence. */
export function sampleText(words: number): string {
  const sentences = [
    "The meeting moved the launch to March because the budget was not approved.",
    "Мы обсудили бюджет проекта и решили подождать до пятницы.",
    "Next we need to check the numbers with the finance team and write down the open questions.",
    "Вечером я дописал заметку о встрече и отправил её команде.",
    "Nothing else changed, but the plan now has a clear owner and a date.",
  ];
  const out: string[] = [];
  let count = 0;
  for (let index = 0; count < words; index++) {
    const sentence = sentences[index % sentences.length]!;
    out.push(sentence);
    count += sentence.split(/\s+/).length;
  }
  return out.join(" ");
}
