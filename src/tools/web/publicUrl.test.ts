import { refusedForModel } from "./publicUrl";

describe("refusedForModel", () => {
  it.each([
    ["http://127.0.0.1:11434/api/tags", "loopback"],
    ["http://127.1/", "loopback"],
    ["http://2130706433/", "loopback"],
    ["http://0x7f.0.0.1/", "loopback"],
    ["http://0177.0.0.1/", "loopback"],
    ["http://localhost:8080/", "local name"],
    ["http://LOCALHOST./admin", "local name"],
    ["http://printer.local/", "local name"],
    ["http://metadata.google.internal/computeMetadata/v1/", "local name"],
    ["http://wiki/", "local network name"],
    ["http://169.254.169.254/latest/meta-data/", "link-local"],
    ["http://10.0.0.1/", "private"],
    ["http://172.16.5.4/", "private"],
    ["http://172.31.255.255/", "private"],
    ["http://192.168.1.1/", "private"],
    ["http://100.64.0.1/", "carrier-grade"],
    ["http://0.0.0.0:3000/", "this network"],
    ["http://224.0.0.251/", "multicast"],
    ["http://[::1]:8080/", "loopback"],
    ["http://[::]/", "unspecified"],
    ["http://[fd12:3456::1]/", "unique local"],
    ["http://[fe80::1]/", "link-local"],
    ["http://[::ffff:127.0.0.1]/", "loopback"],
    ["http://[::ffff:a9fe:a9fe]/", "link-local"],
    ["http://[64:ff9b::10.0.0.1]/", "private"],
    ["http://[2002:c0a8:101::]/", "private"],
    ["file:///etc/passwd", "only http and https"],
    ["javascript:alert(1)", "only http and https"],
    ["https://user:pass@example.org/", "user name or password"],
    ["not a url", "is not a URL"],
  ])("refuses %s (%s)", (url, reason) => {
    expect(refusedForModel(url)).toContain(reason);
  });

  it.each([
    "https://example.org/article?id=3",
    "http://93.184.216.34/",
    "https://172.32.0.1/",
    "https://192.169.0.1/",
    "https://[2606:4700:4700::1111]/",
    "https://例え.jp/ページ",
    "https://пример.рф/статья",
    "https://obsidian.md./",
  ])("lets %s through", (url) => {
    expect(refusedForModel(url)).toBeNull();
  });
});
