import { callTool, makeToolDependencies } from "../../test/helpers/toolHarness";
import { makeTempVault, type TempVault } from "../../test/helpers/tempVault";
import { startLocalServer, type CannedResponse, type LocalServer, type RecordedRequest } from "../../test/helpers/localServer";
import { DEFAULT_SETTINGS } from "../constants";
import { MapSecretStore } from "../ports/SecretStore";
import type { CopilotSettings } from "../settings/settingsSchema";
import { FsVault } from "../vault/FsVault";
import type { BuiltinToolEntry } from "./BuiltinToolEntry";
import { localSearchTool } from "./localSearch";
import { youtubeTranscriptionTool } from "./media/youtubeTranscription";
import { getFileTreeTool } from "./notes/getFileTree";
import { getNotePropertiesTool } from "./notes/getNoteProperties";
import { READ_NOTE_CHUNK_CHARS, readNoteTool } from "./notes/readNote";
import { convertTimeBetweenTimezonesTool } from "./time/convertTimeBetweenTimezones";
import { getTimeInfoByEpochTool } from "./time/getTimeInfoByEpoch";
import { getTimeRangeMsTool } from "./time/getTimeRangeMs";
import type { ToolDependencies } from "./toolDependencies";
import { readWebPageTool } from "./web/readWebPageTool";
import { webSearchTool } from "./web/webSearch";

/**
 * Each failure a tool raises names its kind and values beside the English sentence the model
 * reads: the view words the kind in the interface's language (see shownToolError), the model and
 * the CLI keep the sentence.
 */

let vault: TempVault;
let server: LocalServer;
let respond: (request: RecordedRequest) => CannedResponse;

beforeAll(async () => {
  vault = makeTempVault({
    "Заметки/Длинная 长 🌊.md": "слово ".repeat(Math.ceil((READ_NOTE_CHUNK_CHARS * 1.5) / 6)),
    "ملاحظات/خصائص.md": "---\ntitle: [unclosed\n  - สวัสดี: :\n---\nنص\n",
    "Rule.md": "---\nA note that opens with a rule and never closes it.\n",
  });
  server = await startLocalServer((request) => respond(request));
});
afterAll(async () => {
  vault.remove();
  await server.close();
});
beforeEach(() => {
  respond = () => ({ body: "{}" });
});

function withVault(): ToolDependencies {
  return makeToolDependencies({ vault: new FsVault(vault.root) });
}

function searchWith(provider: CopilotSettings["webSearch"]["provider"], keys: Record<string, string> = {}): ToolDependencies {
  const secrets = new MapSecretStore();
  for (const [id, value] of Object.entries(keys)) secrets.set(id, value);
  return makeToolDependencies({
    secrets,
    settings: { webSearch: { ...DEFAULT_SETTINGS.webSearch, provider, searxngUrl: `${server.url}/searx`, braveBaseUrl: server.url, tavilyBaseUrl: server.url } },
  });
}

function pagesFromTheTestServer(): ToolDependencies {
  return makeToolDependencies({ modelUrlRule: () => null, settings: { webPages: { ...DEFAULT_SETTINGS.webPages, enabled: true } } });
}

async function failureOf(entry: BuiltinToolEntry, dependencies: ToolDependencies, args: unknown, sentence: string | RegExp) {
  const result = await callTool(entry, dependencies, args);
  expect(result.status).toBe("error");
  // The model reads the English sentence as before.
  if (typeof sentence === "string") expect(result.text).toContain(sentence);
  else expect(result.text).toMatch(sentence);
  return result.failure;
}

describe("tool failures name their kind", () => {
  it("a chunk past a note's end, with the note and its count of parts", async () => {
    const failure = await failureOf(readNoteTool, withVault(), { notePath: "Заметки/Длинная 长 🌊.md", chunkIndex: 7 }, 'chunkIndex 7 is past the end of "Заметки/Длинная 长 🌊.md": it has 2 chunks (0-1).');
    expect(failure).toEqual({ kind: "chunk-past-end", values: { path: "Заметки/Длинная 长 🌊.md", count: 2 } });
  });

  it("properties that are not valid YAML, with the note; a note that only opens with a rule still has none", async () => {
    const failure = await failureOf(getNotePropertiesTool, withVault(), { notePath: "ملاحظات/خصائص.md" }, 'The properties of "ملاحظات/خصائص.md" cannot be read: its frontmatter is not valid YAML');
    expect(failure).toEqual({ kind: "properties-not-yaml", values: { path: "ملاحظات/خصائص.md" } });
    const rule = await callTool(getNotePropertiesTool, withVault(), { notePath: "Rule.md" });
    expect(rule.status).toBe("ok");
    expect(rule.failure).toBeUndefined();
  });

  it("a folder with no files, with the folder", async () => {
    const failure = await failureOf(getFileTreeTool, withVault(), { folder: "Папка 文件夹 ✨" }, 'There is no folder "Папка 文件夹 ✨" with files in it.');
    expect(failure).toEqual({ kind: "no-folder", values: { folder: "Папка 文件夹 ✨" } });
  });

  it("no vault open, and no note search set up", async () => {
    expect(await failureOf(readNoteTool, makeToolDependencies(), { notePath: "x" }, "No vault is open, so this tool cannot run.")).toEqual({ kind: "no-vault", values: {} });
    expect(await failureOf(localSearchTool, makeToolDependencies(), { query: "ไทย", salientTerms: [] }, "Note search is not set up in this session")).toEqual({ kind: "not-set-up-here", values: {} });
  });

  it("a time expression, a time or an epoch the time tools cannot read, with what was given", async () => {
    const expression = "прошлой весной 去年";
    expect(await failureOf(getTimeRangeMsTool, makeToolDependencies(), { timeExpression: expression }, `Could not understand the time expression "${expression}"`)).toEqual({ kind: "time-not-understood", values: { expression } });
    expect(await failureOf(getTimeRangeMsTool, makeToolDependencies(), { timeExpression: "from 2026-03-10 to 2026-03-01" }, "ends before it starts")).toEqual({ kind: "time-not-understood", values: { expression: "from 2026-03-10 to 2026-03-01" } });
    const time = "٢:٣٠ مساءً";
    expect(await failureOf(convertTimeBetweenTimezonesTool, makeToolDependencies(), { time, fromTimeZone: "Asia/Bangkok", toTimeZone: "Europe/Moscow" }, `Could not read the time "${time}"`)).toEqual({ kind: "time-not-understood", values: { expression: time } });
    expect(await failureOf(convertTimeBetweenTimezonesTool, makeToolDependencies(), { time: "2026-02-30 10:00", fromTimeZone: "UTC", toTimeZone: "UTC" }, "is not a date in the calendar")).toEqual({ kind: "time-not-understood", values: { expression: "2026-02-30 10:00" } });
    expect(await failureOf(getTimeInfoByEpochTool, makeToolDependencies(), { epoch: 9e20 }, "outside the range of dates")).toEqual({ kind: "epoch-out-of-range", values: { epoch: 9e20 } });
  });

  it("a web search provider that is not set up, has no key, refuses it, limits the rate, answers an error or not JSON", async () => {
    expect(await failureOf(webSearchTool, searchWith("none"), { query: "x" }, "Web search is not set up")).toEqual({ kind: "search-not-set-up", values: {} });
    expect(await failureOf(webSearchTool, searchWith("brave"), { query: "x" }, "No Brave Search API key is stored")).toEqual({ kind: "search-no-key", values: { provider: "Brave Search" } });
    respond = () => ({ status: 401, body: JSON.stringify({ detail: { error: "Ключ неверен 🔑" } }) });
    expect(await failureOf(webSearchTool, searchWith("tavily", { "vault-copilot-tavily": "bad" }), { query: "x" }, "Tavily refused the API key (HTTP 401: Ключ неверен 🔑)")).toEqual({ kind: "search-key-refused", values: { provider: "Tavily", status: 401 } });
    respond = () => ({ status: 429, body: "{}" });
    expect(await failureOf(webSearchTool, searchWith("tavily", { "vault-copilot-tavily": "k" }), { query: "x" }, "Tavily says too many requests")).toEqual({ kind: "search-rate-limited", values: { provider: "Tavily" } });
    respond = () => ({ status: 403, body: "Forbidden" });
    expect(await failureOf(webSearchTool, searchWith("searxng"), { query: "x" }, "search.formats")).toEqual({ kind: "search-json-off", values: {} });
    respond = () => ({ status: 502, body: "down" });
    expect(await failureOf(webSearchTool, searchWith("searxng"), { query: "x" }, "SearXNG answered HTTP 502")).toEqual({ kind: "search-status", values: { provider: "SearXNG", status: 502 } });
    respond = () => ({ headers: { "Content-Type": "text/html" }, body: "<html>Отказ 拒绝</html>" });
    expect(await failureOf(webSearchTool, searchWith("searxng"), { query: "x" }, 'SearXNG did not answer with JSON (it sent "<html>Отказ 拒绝</html>")')).toEqual({ kind: "search-not-json", values: { provider: "SearXNG" } });
  });

  it("a web page that is not an address, not a page, has no text, redirects too often or answers an error status", async () => {
    expect(await failureOf(readWebPageTool, pagesFromTheTestServer(), { url: "страница.рф/путь" }, "is not a web address")).toEqual({ kind: "not-web-address", values: { url: "страница.рф/путь" } });
    expect(await failureOf(readWebPageTool, pagesFromTheTestServer(), { url: "ftp://127.0.0.1/ملف" }, "Only http and https pages can be read")).toEqual({ kind: "not-web-address", values: { url: "ftp://127.0.0.1/ملف" } });
    respond = (request): CannedResponse => {
      if (request.url.startsWith("/pdf")) return { headers: { "Content-Type": "application/pdf" }, body: "%PDF-1.7" };
      if (request.url.startsWith("/scripts")) return { headers: { "Content-Type": "text/html" }, body: '<html><body><div id="app"></div><script>render()</script></body></html>' };
      if (request.url.startsWith("/loop")) return { status: 302, headers: { Location: request.url }, body: "" };
      return { status: 404, body: "nothing" };
    };
    const url = (path: string) => `${server.url}${path}`;
    expect(await failureOf(readWebPageTool, pagesFromTheTestServer(), { url: url("/pdf/文書.pdf") }, "is not a web page (it is application/pdf)")).toEqual({ kind: "page-not-a-page", values: { url: url("/pdf/文書.pdf") } });
    expect(await failureOf(readWebPageTool, pagesFromTheTestServer(), { url: url("/scripts/приложение") }, "has no readable text")).toEqual({ kind: "page-no-text", values: { url: url("/scripts/приложение") } });
    expect(await failureOf(readWebPageTool, pagesFromTheTestServer(), { url: url("/loop") }, "redirects more than 5 times")).toEqual({ kind: "page-too-many-redirects", values: { url: url("/loop"), count: 5 } });
    expect(await failureOf(readWebPageTool, pagesFromTheTestServer(), { url: url("/missing") }, "answered HTTP 404")).toEqual({ kind: "page-status", values: { url: url("/missing"), status: 404 } });
  });

  it("a YouTube call with no video in it", async () => {
    expect(await failureOf(youtubeTranscriptionTool, makeToolDependencies(), { input: "посмотри это видео 🎬" }, "No YouTube video link or id was found")).toEqual({ kind: "no-video-link", values: {} });
  });
});
