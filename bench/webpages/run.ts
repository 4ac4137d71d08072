/**
 * Web pages' main content, as the CLI reads it (linkedom, Readability, turndown), over the pages
 * the tests serve (test/fixtures/webPages.ts: an article inside navigation, banners, related links,
 * forms, comments, footers, analytics, styles and JSON-LD, in five scripts): the article phrases
 * kept, the boilerplate phrases leaked, the titles found, and the time a page takes. Prints figures.
 */
import { WEB_PAGE_FIXTURES } from "../../test/fixtures/webPages";
import { startWebPageServer } from "../../test/helpers/webPageServer";
import { nodeHtmlReader } from "../../src/cli/nodeHtmlReader";
import { plainHttp } from "../../src/net/plainHttp";
import { readWebPage } from "../../src/tools/web/webPage";

const ROUNDS = 20;
const plain = (text: string) => text.normalize("NFC").replace(/\\([[\]\-.*_#`])/g, "$1").replace(/\s+/g, " ");

async function main(): Promise<void> {
  const server = await startWebPageServer();
  const options = { http: plainHttp(globalThis.fetch), html: nodeHtmlReader(), signal: new AbortController().signal, maxCharacters: 40_000 };
  let kept = 0;
  let phrases = 0;
  let leaked = 0;
  let boilerplate = 0;
  let titles = 0;
  const times: number[] = [];
  try {
    for (const page of WEB_PAGE_FIXTURES) {
      const url = `${server.url}${page.path}`;
      const read = await readWebPage(url, options);
      const text = plain(read.markdown);
      kept += page.article.filter((phrase) => text.includes(plain(phrase))).length;
      phrases += page.article.length;
      leaked += page.boilerplate.filter((phrase) => text.includes(plain(phrase))).length;
      boilerplate += page.boilerplate.length;
      if (plain(read.title).includes(plain(page.titleWords))) titles++;
      for (let round = 0; round < ROUNDS; round++) {
        const start = performance.now();
        await readWebPage(url, options);
        times.push(performance.now() - start);
      }
    }
  } finally {
    await server.close();
  }
  times.sort((left, right) => left - right);
  const median = times[Math.floor(times.length / 2)] ?? 0;
  const p95 = times[Math.floor(times.length * 0.95)] ?? 0;
  process.stdout.write(
    [
      `web pages (${WEB_PAGE_FIXTURES.length} pages, ${ROUNDS} reads each, served on 127.0.0.1; fetch + charset + Readability + turndown)`,
      `article phrases kept      ${kept}/${phrases}`,
      `boilerplate phrases leaked ${leaked}/${boilerplate}`,
      `titles found              ${titles}/${WEB_PAGE_FIXTURES.length}`,
      `time per page             median ${median.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`,
      "",
    ].join("\n"),
  );
}

void main();
