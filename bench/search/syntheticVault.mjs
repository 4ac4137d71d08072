// A generated vault for the scale benchmark: N notes shaped like a personal vault (folders,
// frontmatter tags and aliases on some notes, headings, daily notes, a long tail of long notes),
// with words drawn from a Zipf distribution over a made-up vocabulary. Deterministic: the same
// seed gives the same vault, so runs compare. Written once and kept (a marker file records how).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const GENERATOR_VERSION = 1;

/** mulberry32: a small, fast, seeded generator. */
export function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = "ka lo mi ne ra tu shi vo pe an el is or um bar ten gol fin dra mor sel vin cor lux tri pan zer qua nix".split(" ");
const FUNCTION_WORDS = "the of and to in is that for it with as was on be by this are or from at an not have has but which".split(" ");

/** The vocabulary and a sampler over it (Zipf exponent 1.07, as in natural text). */
export function vocabulary(size, next) {
  const words = new Set(FUNCTION_WORDS);
  while (words.size < size) {
    const parts = 1 + Math.floor(next() * 3.2);
    let word = "";
    for (let i = 0; i < parts; i++) word += SYLLABLES[Math.floor(next() * SYLLABLES.length)];
    if (word.length >= 3) words.add(word);
  }
  const list = [...words];
  const cumulative = new Float64Array(list.length);
  let total = 0;
  for (let rank = 0; rank < list.length; rank++) cumulative[rank] = total += 1 / Math.pow(rank + 1, 1.07);
  const sample = () => {
    const target = next() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle] < target) low = middle + 1;
      else high = middle;
    }
    return list[low];
  };
  return { list, sample };
}

function sentence(sample, next, words) {
  const out = [];
  for (let i = 0; i < words; i++) out.push(sample());
  const text = out.join(" ");
  return `${text[0].toUpperCase()}${text.slice(1)}${next() < 0.1 ? "?" : "."}`;
}

/** Words per note: log-normal, median about 120, with a long tail (a few notes of several thousand). */
function noteLength(next) {
  const normal = Math.sqrt(-2 * Math.log(next() || 1e-9)) * Math.cos(2 * Math.PI * next());
  return Math.max(5, Math.min(6000, Math.round(Math.exp(Math.log(120) + 0.9 * normal))));
}

function makeNote(index, sample, next) {
  const lines = [];
  const tags = next() < 0.3 ? [sample(), sample()] : [];
  const aliases = next() < 0.1 ? [`${sample()} ${sample()}`] : [];
  if (tags.length || aliases.length) {
    lines.push("---");
    if (tags.length) lines.push(`tags: [${tags.join(", ")}]`);
    if (aliases.length) lines.push(`aliases: [${aliases.join(", ")}]`);
    lines.push("---");
  }
  let remaining = noteLength(next);
  while (remaining > 0) {
    if (lines.length > 0 && next() < 0.35) lines.push("", `## ${sentence(sample, next, 2 + Math.floor(next() * 3)).slice(0, -1)}`);
    const words = Math.min(remaining, 15 + Math.floor(next() * 50));
    const paragraph = [];
    for (let taken = 0; taken < words; ) {
      const length = Math.min(words - taken, 6 + Math.floor(next() * 14));
      paragraph.push(sentence(sample, next, length));
      taken += length;
    }
    if (next() < 0.05) paragraph.push(`#${sample()}`);
    lines.push("", paragraph.join(" "));
    remaining -= words;
  }
  return `${lines.join("\n").trim()}\n`;
}

function notePath(index, sample, next, used) {
  if (next() < 0.05) {
    const day = new Date(Date.UTC(2022, 0, 1) + index * 86_400_000 * 0.07);
    return `Journal/${day.toISOString().slice(0, 10)} ${index}.md`;
  }
  const folder = `Area ${Math.floor(next() * 12)}/Topic ${Math.floor(next() * 20)}`;
  let title = `${sample()} ${sample()} ${sample()}`;
  while (used.has(`${folder}/${title}`.toLowerCase())) title += ` ${index}`;
  used.add(`${folder}/${title}`.toLowerCase());
  return `${folder}/${title}.md`;
}

/**
 * Makes (or reuses) a vault of `count` notes under `root`. Returns the vault folder, the note
 * paths and a sampler of query words, so queries follow the same distribution as the notes.
 */
export function ensureSyntheticVault(root, count, seed = 42) {
  const vault = join(root, "vault");
  const marker = join(root, "generated.json");
  const description = { version: GENERATOR_VERSION, count, seed };
  const next = random(seed);
  const words = vocabulary(60_000, next);
  const used = new Set();
  const notes = [];
  for (let index = 0; index < count; index++) notes.push({ path: notePath(index, words.sample, next, used), seedOffset: index });
  const fresh = existsSync(marker) && readFileSync(marker, "utf8") === JSON.stringify(description);
  if (!fresh) {
    rmSync(root, { recursive: true, force: true });
    const noteRandom = random(seed + 1);
    for (const note of notes) {
      const absolute = join(vault, note.path);
      mkdirSync(dirname(absolute), { recursive: true });
      writeFileSync(absolute, makeNote(note.seedOffset, words.sample, noteRandom));
    }
    writeFileSync(marker, JSON.stringify(description));
  }
  return { vault, paths: notes.map((note) => note.path), words: words.list, generated: !fresh };
}
