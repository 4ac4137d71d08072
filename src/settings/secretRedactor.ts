/**
 * Finds a secret's value in text in the shapes it leaks in, not only as typed: cut short (a log
 * that keeps the first 20 characters), upper- or lower-cased, base64 (an `Authorization: Basic`
 * header a server echoes), base64url, or percent-encoded (a key in a query string). Every run of
 * at least `SECRET_RUN_LENGTH` characters of any of these forms, in any letter case, is a match;
 * a secret shorter than that is matched whole and exactly (so a short local-server key such as
 * "ollama" does not blank out the word in every answer), and one shorter than
 * `SHORTEST_SECRET` is not matched at all.
 *
 * One redactor serves the CLI's output filter, the prompt payload recorder and saved chats.
 */
export interface SecretRedactor {
  /** `text` with every match replaced by "[redacted]" (overlapping matches, one "[redacted]"). */
  redact(text: string): string;
  /**
   * How many characters at the end of `text` (after its last line break) may be the start of a
   * match that the next streamed piece completes or lengthens: a streaming printer holds those
   * back and prints them with the next piece.
   */
  heldTailLength(text: string): number;
}

/** Shortest run of a secret's characters (or of an encoded form) that counts as the secret. */
export const SECRET_RUN_LENGTH = 12;

/** Values shorter than this are not secrets worth redacting ("a", "1", "true"). */
export const SHORTEST_SECRET = 4;

export const REDACTED = "[redacted]";

interface SecretForm {
  /** The form's text; in `foldCase` forms already case-folded (see foldCase). */
  text: string;
  /** Shortest run of it that is a match. */
  minimumRun: number;
  foldCase: boolean;
}

export function secretRedactor(secrets: Iterable<string>): SecretRedactor {
  const forms = uniqueForms([...secrets].flatMap(formsOf));
  const folded = forms.filter((form) => form.foldCase);
  const exact = forms.filter((form) => !form.foldCase);
  const foldedGroup = folded.length > 0 ? new FormGroup(folded) : null;
  const exactGroup = exact.length > 0 ? new FormGroup(exact) : null;
  // A tail holds no line break, so a part of this string that it equals lies within one form.
  const allFolded = folded.map((form) => form.text).join("\n");
  const longestForm = Math.max(0, ...forms.map((form) => form.text.length));
  const shortestMatch = Math.min(...forms.map((form) => form.minimumRun));
  const matches = (text: string): [number, number][] => {
    if (text.length < shortestMatch) return [];
    return mergeRanges([...(foldedGroup?.find(foldCase(text)) ?? []), ...(exactGroup?.find(text) ?? [])]);
  };
  return {
    redact: (text) => replaceRanges(text, matches(text)),
    heldTailLength: (text) => {
      const lineStart = text.lastIndexOf("\n") + 1;
      const tail = text.slice(Math.max(lineStart, text.length - longestForm));
      const foldedTail = foldCase(tail);
      let held = 0;
      // Every shorter end of a part of a form is a part of it too: the first miss ends the search.
      for (let length = 1; length <= tail.length && allFolded.includes(foldedTail.slice(tail.length - length)); length++) held = length;
      for (const form of exact) {
        for (let length = held + 1; length < form.text.length && length <= tail.length; length++) {
          if (form.text.startsWith(tail.slice(tail.length - length))) held = length;
        }
      }
      // A match that runs into the held tail (two forms overlapping) is held from its start, so it
      // is redacted whole, as it would be in one piece, and no end of it is printed bare.
      const windowStart = Math.max(lineStart, text.length - held - 2 * longestForm);
      const heldStart = text.length - held - windowStart;
      const running = matches(text.slice(windowStart)).find(([start, end]) => start < heldStart && end > heldStart);
      return running ? text.length - windowStart - running[0] : held;
    },
  };
}

/** The forms a secret is looked for in. */
function formsOf(secret: string): SecretForm[] {
  if (secret.length < SHORTEST_SECRET) return [];
  if (secret.length < SECRET_RUN_LENGTH) return [{ text: secret, minimumRun: secret.length, foldCase: false }];
  const bytes = new TextEncoder().encode(secret);
  const encoded = [secret, ...[0, 1, 2].map((offset) => base64Core(bytes, offset)), encodeURIComponent(secret), encodeURI(secret)];
  const withUrlSafe = encoded.flatMap((text) => [text, text.replace(/\+/g, "-").replace(/\//g, "_")]);
  return withUrlSafe.filter((text) => text.length >= SECRET_RUN_LENGTH).map((text) => ({ text: foldCase(text), minimumRun: SECRET_RUN_LENGTH, foldCase: true }));
}

function uniqueForms(forms: SecretForm[]): SecretForm[] {
  const seen = new Set<string>();
  return forms.filter((form) => {
    const key = `${form.foldCase ? "f" : "e"}${form.text}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The base64 characters that stand for the secret's bytes alone when it is encoded starting
 * `offset` bytes (0–2) into a longer string: as `user:key` or `{"key":…}` inside a Basic header.
 * The characters that mix in neighbouring bytes are left out, and so is the padding.
 */
function base64Core(bytes: Uint8Array, offset: number): string {
  const padded = new Uint8Array(offset + bytes.length);
  padded.set(bytes, offset);
  let binary = "";
  for (const byte of padded) binary += String.fromCharCode(byte);
  const encoded = btoa(binary);
  const first = Math.ceil((offset * 8) / 6);
  const end = Math.floor(((offset + bytes.length) * 8) / 6);
  return encoded.slice(first, end);
}

/**
 * Forms of one kind (all case-folded, or all exact), indexed for a scan that does not look at every
 * position: every run of at least `minimumRun` characters contains a whole window of `window`
 * characters starting at a multiple of `step` (window + step - 1 = minimumRun), so only those
 * windows are looked up, and a hit is grown both ways to the whole run.
 */
class FormGroup {
  private readonly window: number;
  private readonly step: number;
  /** window text -> the forms holding it and where. */
  private readonly windows = new Map<string, { form: SecretForm; at: number }[]>();

  constructor(forms: SecretForm[]) {
    const shortestRun = Math.min(...forms.map((form) => form.minimumRun));
    this.window = Math.ceil(shortestRun / 2);
    this.step = shortestRun - this.window + 1;
    for (const form of forms) {
      for (let at = 0; at + this.window <= form.text.length; at++) {
        const key = form.text.slice(at, at + this.window);
        const list = this.windows.get(key);
        if (list) list.push({ form, at });
        else this.windows.set(key, [{ form, at }]);
      }
    }
  }

  /** [start, end) of every match in `text` (case-folded already for folded forms). */
  find(text: string): [number, number][] {
    const found: [number, number][] = [];
    for (let position = 0; position + this.window <= text.length; position += this.step) {
      const hits = this.windows.get(text.slice(position, position + this.window));
      if (!hits) continue;
      for (const { form, at } of hits) {
        let start = position;
        let formStart = at;
        while (start > 0 && formStart > 0 && text.charCodeAt(start - 1) === form.text.charCodeAt(formStart - 1)) {
          start--;
          formStart--;
        }
        let end = position + this.window;
        let formEnd = at + this.window;
        while (end < text.length && formEnd < form.text.length && text.charCodeAt(end) === form.text.charCodeAt(formEnd)) {
          end++;
          formEnd++;
        }
        if (end - start >= form.minimumRun) found.push([start, end]);
      }
    }
    return found;
  }
}

/** Sorted, with overlapping ranges joined (ranges that only touch stay apart: two secrets side by side). */
function mergeRanges(ranges: [number, number][]): [number, number][] {
  const sorted = ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: [number, number][] = [];
  for (const [start, end] of sorted) {
    const last = merged.at(-1);
    if (last && start < last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

function replaceRanges(text: string, ranges: [number, number][]): string {
  if (ranges.length === 0) return text;
  let result = "";
  let from = 0;
  for (const [start, end] of ranges) {
    result += text.slice(from, start) + REDACTED;
    from = end;
  }
  return result + text.slice(from);
}

/**
 * `text` in lower case, unit for unit: each character stays where it was, so a range found in the
 * folded text is the same range of the text. `toLowerCase` keeps the length except where a
 * character grows (only "İ" does); then each unit is folded on its own.
 */
function foldCase(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length === text.length) return lower;
  let folded = "";
  for (const unit of text) folded += unit.length === 1 && unit.toLowerCase().length === 1 ? unit.toLowerCase() : unit;
  return folded;
}
