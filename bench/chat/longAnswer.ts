/**
 * A long model answer in Markdown, the same for the same size: headings, paragraphs with inline
 * formatting and [[links]], bullet and numbered lists, fenced code blocks and tables, in a fixed
 * rotation. A token is taken as 4 characters, so `tokens` tokens are `tokens * 4` characters.
 */
export const CHARACTERS_PER_TOKEN = 4;

const WORDS = [
  "vault", "note", "index", "search", "answer", "stream", "block", "render", "link", "folder", "tag", "model",
  "prompt", "context", "summary", "review", "draft", "meeting", "project", "garden", "reading", "quiet", "steady",
  "careful", "quick", "small", "larger", "daily", "weekly", "outline", "section", "detail", "example", "result",
];

/** A small, seeded generator (mulberry32), so every run streams the very same text. */
export function randomFrom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

export function longAnswer(tokens: number, seed = 8): string {
  const random = randomFrom(seed);
  const word = () => WORDS[Math.floor(random() * WORDS.length)]!;
  const words = (count: number) => Array.from({ length: count }, word).join(" ");
  const sentence = () => {
    const text = words(6 + Math.floor(random() * 10));
    return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
  };
  const paragraph = () => {
    const sentences = Array.from({ length: 3 + Math.floor(random() * 3) }, sentence);
    sentences[1] = `See [[${word()} ${word()}]] for the **${word()}** and *${word()}* of \`${word()}\`.`;
    return sentences.join(" ");
  };
  const sections = [
    () => `## ${sentence().slice(0, -1)}\n\n${paragraph()}`,
    () => Array.from({ length: 4 + Math.floor(random() * 3) }, () => `- ${sentence()}`).join("\n"),
    () => `${paragraph()}\n\n${paragraph()}`,
    () => ["```ts", `function ${word()}Of(${word()}: string): number {`, `  const ${word()} = ${word()}.length * 2;`, `  return ${word()} + ${Math.floor(random() * 100)};`, "}", "```"].join("\n"),
    () => Array.from({ length: 3 + Math.floor(random() * 3) }, (_, index) => `${index + 1}. ${sentence()}`).join("\n"),
    () => ["| note | words | state |", "|---|---|---|", ...Array.from({ length: 4 }, () => `| ${word()} | ${Math.floor(random() * 900)} | ${word()} |`)].join("\n"),
    () => `### ${sentence().slice(0, -1)}\n\n> ${sentence()}`,
  ];
  const length = tokens * CHARACTERS_PER_TOKEN;
  let text = `# ${sentence().slice(0, -1)}\n\n`;
  for (let index = 0; text.length < length; index++) text += `${sections[index % sections.length]!()}\n\n`;
  return text.slice(0, length);
}
