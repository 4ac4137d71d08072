import { WEB_PAGE_FIXTURES, type WebPageFixture } from "../fixtures/webPages";
import { startLocalServer, type CannedResponse, type LocalServer, type RecordedRequest } from "./localServer";

/**
 * The web page fixtures served on 127.0.0.1 as a site would serve them: each in its charset (the
 * header naming it, or only the page's `<meta>`), plus whatever `extra` answers (redirects, errors,
 * other types). Paths not found answer 404.
 */
export function startWebPageServer(extra: (request: RecordedRequest) => CannedResponse | undefined = () => undefined): Promise<LocalServer> {
  return startLocalServer((request) => {
    const answer = extra(request);
    if (answer) return answer;
    const page = WEB_PAGE_FIXTURES.find((fixture) => fixture.path === request.url);
    if (!page) return { status: 404, headers: { "Content-Type": "text/html; charset=utf-8" }, body: "<html><body><h1>Not found</h1></body></html>" };
    return servedPage(page);
  });
}

export function servedPage(page: WebPageFixture): CannedResponse {
  const contentType = page.charsetInMeta ? "text/html" : `text/html; charset=${page.charset}`;
  return { headers: { "Content-Type": contentType }, body: page.charset === "utf-8" ? page.html : encodeSingleByte(page.html, page.charset) };
}

/** Text in a single-byte charset (windows-1251), built from the decoder's own table: Node encodes only UTF-8. */
export function encodeSingleByte(text: string, charset: string): Uint8Array {
  const decoder = new TextDecoder(charset);
  const table = new Map<string, number>();
  for (let byte = 0; byte < 256; byte++) table.set(decoder.decode(Uint8Array.of(byte)), byte);
  return Uint8Array.from(Array.from(text, (character) => {
    const byte = table.get(character);
    if (byte === undefined) throw new Error(`"${character}" has no byte in ${charset}`);
    return byte;
  }));
}
