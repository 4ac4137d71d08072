// Redaction speed: a 1 MB answer carrying 5 keys in the shapes they leak in (whole, cut short,
// upper-cased, base64 in a Basic header, percent-encoded), redacted in one piece (what the payload
// recorder and a saved chat do) and streamed through the CLI's output filter in the 4-character
// deltas the scripted model server sends and in 64-character ones. Prints the times (median of
// 5 runs) and fails if any key's run of 12 characters is left in the output.
import { cliOutputFilter } from "../../src/cli/outputFilter";
import { secretRedactor } from "../../src/settings/secretRedactor";
import { redactSecrets } from "../../src/settings/secrets";

const KEYS = [
  "sk-proj-Qw7Lm2Zx9Kd4Hr8Tp3Vb6Nc1Fy5Gj0",
  "sk-ant-api03-Xq81LmZ0pR7tW2vB9nC4dF6hJ3kL",
  "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY",
  "tvly-dev-7Hq2Lw9Zx4Kd0Vm3Rt8Yp1Ns6Qb5",
  "BSAk3j9XqP0wL7mZ2vR8tY4uN6cF1hG5dE",
];
const WORDS = "the budget for the garden plan Плагины поиск заметки 検索 プラグイン 搜索 笔记 ค้นหา บันทึก بحث ملاحظات αναζήτηση 🦓 42,000".split(" ");

function answerOfSize(bytes: number): string {
  let seed = 7;
  const next = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
  const parts: string[] = [];
  let size = 0;
  while (size < bytes) {
    const roll = next();
    const key = KEYS[Math.floor(next() * KEYS.length)] ?? "";
    const part =
      roll < 0.0005 ? ` ${key} `
      : roll < 0.001 ? ` ${key.slice(0, 16)}… `
      : roll < 0.0015 ? ` ${key.toUpperCase()} `
      : roll < 0.002 ? ` Authorization: Basic ${btoa(`user:${key}`)}\n`
      : roll < 0.0025 ? ` ?key=${encodeURIComponent(key)}&x=1 `
      : `${WORDS[Math.floor(next() * WORDS.length)]}${next() < 0.05 ? "\n" : " "}`;
    parts.push(part);
    size += Buffer.byteLength(part);
  }
  return parts.join("");
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function timed(work: () => string, runs = 5): { ms: number; output: string } {
  const times: number[] = [];
  let output = "";
  for (let run = 0; run < runs; run++) {
    const began = performance.now();
    output = work();
    times.push(performance.now() - began);
  }
  return { ms: median(times), output };
}

function streamed(answer: string, size: number): string {
  const filter = cliOutputFilter(["chat", "--api-key-env", "K", "question"], { K: KEYS[0] });
  for (const key of KEYS.slice(1)) filter.addSecret(key);
  let printed = "";
  for (let at = 0; at < answer.length; at += size) printed += filter.stdout(answer.slice(at, at + size));
  return printed + filter.stdout("\n");
}

/** Runs of 12 characters of any key (any case) left in `text`. */
function leaks(text: string): number {
  const lower = text.toLowerCase();
  let found = 0;
  for (const key of KEYS) for (let at = 0; at + 12 <= key.length; at++) if (lower.includes(key.slice(at, at + 12).toLowerCase())) found++;
  return found;
}

const print = (line: string) => process.stdout.write(`${line}\n`);

const answer = answerOfSize(1_000_000);
const build = timed(() => (secretRedactor(KEYS), ""), 21);
const whole = timed(() => redactSecrets(answer, KEYS));
const small = timed(() => streamed(answer, 4), 3);
const large = timed(() => streamed(answer, 64));
const redactions = (whole.output.match(/\[redacted\]/g) ?? []).length;
print(`Redaction of 5 keys in a ${(Buffer.byteLength(answer) / 1e6).toFixed(2)} MB answer (${redactions} matches)`);
print(`  building the redactor                         ${build.ms.toFixed(2)} ms`);
print(`  redactSecrets, the answer in one piece        ${whole.ms.toFixed(1)} ms`);
print(`  CLI output filter, 4-character deltas         ${small.ms.toFixed(0)} ms (${((small.ms * 1000) / (answer.length / 4)).toFixed(2)} µs a delta)`);
print(`  CLI output filter, 64-character deltas        ${large.ms.toFixed(0)} ms`);
const left = leaks(whole.output) + leaks(small.output) + leaks(large.output);
if (left > 0 || small.output !== `${whole.output}\n` || large.output !== `${whole.output}\n`) {
  process.stderr.write(`redaction bench: ${left} runs of a key left, or the streamed output differs from the whole\n`);
  process.exit(1);
}
