/**
 * README's "Privacy and network use" stays true to the code: every address the built main.js
 * names is either a service a row of that table discloses, or accounted for as never contacted
 * (networkAllowList.ts says why). A new URL in the plugin or in a dependency fails here until
 * someone decides which it is.
 */
import { build } from "esbuild";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pluginBuildOptions } from "../../esbuild.options";
import { NETWORK_ALLOW_LIST, type AllowedAddress } from "./networkAllowList";
import { urlLiterals } from "./urlLiterals";

const repoRoot = resolve(__dirname, "../..");

function unaccounted(addresses: string[], allowList: readonly AllowedAddress[]): string[] {
  return addresses.filter((address) => !allowList.some((entry) => entry.pattern.test(address)));
}

/** The bold names of the rows of README's "Privacy and network use" table. */
function disclosedRows(readme: string): string[] {
  const start = readme.indexOf("## Privacy and network use\n");
  if (start === -1) throw new Error('README.md has no "## Privacy and network use" section');
  const end = readme.indexOf("\n## ", start + 1);
  const section = readme.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/^\| \*\*([^*]+)\*\*/gm)].map((match) => match[1]!);
}

describe("the network disclosure", () => {
  let addresses: string[] = [];

  beforeAll(async () => {
    const result = await build({ ...pluginBuildOptions(true), absWorkingDir: repoRoot, write: false, logLevel: "silent" });
    addresses = urlLiterals(result.outputFiles.find((file) => file.path.endsWith("main.js"))!.text);
  }, 60_000); // a release build of main.js, which takes seconds on a loaded machine

  it("accounts for every address in main.js", () => {
    expect(addresses.length).toBeGreaterThan(20);
    const missing = unaccounted(addresses, NETWORK_ALLOW_LIST);
    if (missing.length > 0) {
      throw new Error(
        `main.js names addresses nobody accounted for:\n  ${missing.join("\n  ")}\n` +
          "If the plugin can contact one, add it to README's \"Privacy and network use\" table and an entry naming that row to " +
          "test/privacy/networkAllowList.ts; if it never can, an entry saying why.",
      );
    }
  });

  it("names only rows README's table has, and every row is backed by an address", () => {
    const rows = disclosedRows(readFileSync(resolve(repoRoot, "README.md"), "utf8"));
    const named = [...new Set(NETWORK_ALLOW_LIST.flatMap((entry) => ("row" in entry ? [entry.row] : [])))];
    expect(named.filter((row) => !rows.includes(row))).toEqual([]);
    // Embeddings, web pages and MCP servers have no address of their own in main.js: the user (or a note) names it.
    expect(rows.filter((row) => !named.includes(row))).toEqual(["Embeddings server", "Web pages", "MCP servers"]);
  });

  it("keeps no entry that matches nothing in main.js", () => {
    const stale = NETWORK_ALLOW_LIST.filter((entry) => !addresses.some((address) => entry.pattern.test(address)));
    expect(stale.map((entry) => String(entry.pattern))).toEqual([]);
  });

  it("catches a new address however it is written", () => {
    const bundle = [
      'await fetch("https://телеметрия.example/ping?id=" + id);',
      "new WebSocket(`wss://live.例え.jp/socket/${room}`);",
      'requestUrl({ url: "stats.مثال.example:8443/v1/collect" });',
      'if (url.hostname.endsWith(".ตัวอย่าง.example")) send();',
      "// see http://docs.example.org/privacy.",
      'const base = "https://api.openai.com/v1";',
      'const file = "notes/données.md"; fetch("/relative/path");',
      // The interface's Chinese and Japanese sentences put their punctuation right after an address.
      'const hint = "默认是 https://docs.例子.example/指南、或 http://help.example.net/v1。然后";',
    ].join("\n");
    expect(unaccounted(urlLiterals(bundle), NETWORK_ALLOW_LIST)).toEqual([
      ".ตัวอย่าง.example",
      "http://docs.example.org/privacy",
      "http://help.example.net/v1",
      "https://docs.例子.example/指南",
      "https://телеметрия.example/ping?id=",
      "stats.مثال.example:8443/v1/collect",
      "wss://live.例え.jp/socket/${room}",
    ]);
  });
});
