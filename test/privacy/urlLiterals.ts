/**
 * The addresses a built bundle names: every http, https, ws and wss URL written in it (in code,
 * strings, templates or comments), and every host-looking string without a scheme handed to a
 * request (fetch, requestUrl, WebSocket, EventSource, new URL, a `url:` / `baseUrl:` / `host:`
 * field) or compared with a host name (`endsWith(".example.com")`).
 */

/** Ends at a space, a quote, a bracket, or the full-width punctuation of CJK sentences (a URL is never written with it unencoded). */
const SCHEME_URL = /\b(?:https?|wss?):\/\/[^\s"'`<>\\)、。，；：！？（）「」『』【】]*/gi;
const REQUEST_ARGUMENT =
  /(?:\b(?:fetch|requestUrl|WebSocket|EventSource|URL|endsWith)\(\s*|\b(?:url|baseURL|baseUrl|endpoint|host|hostname|origin)\s*:\s*)(["'`])([^"'`]*)\1/g;
/** "api.example.com", ".youtube.com", "пример.рф:8080/v1": labels joined by dots, with an optional port and path. */
const HOST_LIKE = /^\.?[\p{L}\p{M}\p{N}-]+(?:\.[\p{L}\p{M}\p{N}-]+)+(?::\d+)?(?:\/\S*)?$/u;

/** A URL as written, less the punctuation of the sentence or code around it. */
function trimUrl(url: string): string {
  let trimmed = url.replace(/[.,;:]+$/, "");
  const count = (character: string) => trimmed.split(character).length - 1;
  while (trimmed.endsWith("}") && count("}") > count("{")) trimmed = trimmed.slice(0, -1).replace(/[.,;:]+$/, "");
  return trimmed;
}

/** The distinct URL literals and request hosts in the text, sorted. */
export function urlLiterals(bundle: string): string[] {
  const found = new Set<string>();
  for (const match of bundle.matchAll(SCHEME_URL)) {
    const url = trimUrl(match[0]);
    if (!/^[a-z]+:\/\/$/i.test(url)) found.add(url);
  }
  for (const match of bundle.matchAll(REQUEST_ARGUMENT)) {
    const value = match[2]!;
    if (HOST_LIKE.test(value)) found.add(value);
  }
  return [...found].sort();
}
