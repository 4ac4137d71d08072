import { NamedUrls, urlsIn } from "./namedUrls";

describe("urlsIn", () => {
  it("finds addresses in prose, Markdown links and escaped blocks, without trailing punctuation or fragments", () => {
    const text = [
      "See https://example.org/путь?q=1&amp;lang=ru, then (https://例え.jp/ページ).",
      "[docs](https://docs.example.org/a/b#section) and <https://example.org/x>!",
      "не ссылка: ftp://example.org/f, javascript:alert(1)",
    ].join("\n");
    expect(urlsIn(text)).toEqual([
      "https://example.org/%D0%BF%D1%83%D1%82%D1%8C?q=1&lang=ru",
      "https://xn--r8jz45g.jp/%E3%83%9A%E3%83%BC%E3%82%B8",
      "https://docs.example.org/a/b",
      "https://example.org/x",
    ]);
  });
});

describe("NamedUrls", () => {
  it("knows what the user and the attachments wrote, in any spelling of the same address", () => {
    const urls = new NamedUrls();
    urls.addNamed("Read https://Example.org/news?id=7 please");
    expect(urls.has("https://example.org/news?id=7")).toBe(true);
    expect(urls.has("https://example.org/news?id=7#comments")).toBe(true);
    expect(urls.has("https://example.org/news?id=8")).toBe(false);
    expect(urls.has("not a url")).toBe(false);
  });

  it("takes a tool result's addresses, but not one the model wrote before the tool gave it back", () => {
    const urls = new NamedUrls();
    urls.addWritten('{"query":"https://attacker.example/?d=secret"}');
    urls.addResult('<result url="https://attacker.example/?d=secret">No results for https://attacker.example/?d=secret</result> see https://wiki.example.org/page');
    expect(urls.has("https://attacker.example/?d=secret")).toBe(false);
    expect(urls.has("https://wiki.example.org/page")).toBe(true);
  });

  it("keeps an address the user named even after the model repeats it", () => {
    const urls = new NamedUrls();
    urls.addNamed("https://example.org/a");
    urls.addWritten("I will read https://example.org/a");
    urls.addResult("https://example.org/a");
    expect(urls.has("https://example.org/a")).toBe(true);
  });
});
