/**
 * A failed tool call's banner words the failure's kind in the interface's language, and in
 * English shows exactly the tool's own sentence (as the model read it). The real banner component,
 * given what a failed call hands the view: the model's text and the failure's kind and values.
 */
import { render } from "@testing-library/react";
import type { ToolFailure } from "../../errorMessage";
import { languageFor } from "../../i18n/languages";
import type { MessageKey } from "../../i18n/messages";
import { translate } from "../../i18n/translate";
import { ToolCallBanner } from "./ToolCallBanner";

afterEach(() => window.localStorage.removeItem("language"));

interface Case {
  tool: string;
  /** The sentence the tool raised, as the model reads it after 'Tool "x" failed: '. */
  sentence: string;
  failure: ToolFailure;
  /** The text the model read, when it is not the tool's sentence behind our lead (an MCP result is read as it is). */
  modelText?: string;
}

/** One failure of each kind the tools name since the first set, with values in many scripts. */
const CASES: Case[] = [
  { tool: "readNote", sentence: 'chunkIndex 4 is past the end of "Заметки/Длинная 长 🌊.md": it has 2 chunks (0-1).', failure: { kind: "chunk-past-end", values: { path: "Заметки/Длинная 长 🌊.md", count: 2 } } },
  { tool: "getTimeRangeMs", sentence: 'Could not understand the time expression "الأسبوع الماضي". Accepted forms include: "today".', failure: { kind: "time-not-understood", values: { expression: "الأسبوع الماضي" } } },
  { tool: "getTimeInfoByEpoch", sentence: "The epoch 900000000000000000000 is outside the range of dates that can be shown.", failure: { kind: "epoch-out-of-range", values: { epoch: 9e20 } } },
  { tool: "webSearch", sentence: "Web search is not set up. Tell the user to choose a provider (SearXNG, Brave Search or Tavily) in Settings → Vault Copilot → Web search.", failure: { kind: "search-not-set-up", values: {} } },
  { tool: "webSearch", sentence: "No Brave Search API key is stored. Tell the user to add one in Settings → Vault Copilot → Web search.", failure: { kind: "search-no-key", values: { provider: "Brave Search" } } },
  { tool: "webSearch", sentence: "Tavily refused the API key (HTTP 401: Ключ неверен 🔑). Tell the user to check the key in Settings → Vault Copilot → Web search.", failure: { kind: "search-key-refused", values: { provider: "Tavily", status: 401 } } },
  { tool: "webSearch", sentence: "Tavily says too many requests (HTTP 429). Do not search again right away; answer with what you have or try later.", failure: { kind: "search-rate-limited", values: { provider: "Tavily" } } },
  { tool: "webSearch", sentence: "SearXNG refused the request (HTTP 403): its JSON output is probably switched off. Add `json` to `search.formats` in the instance's settings.yml.", failure: { kind: "search-json-off", values: {} } },
  { tool: "webSearch", sentence: "SearXNG answered HTTP 502.", failure: { kind: "search-status", values: { provider: "SearXNG", status: 502 } } },
  { tool: "webSearch", sentence: 'SearXNG did not answer with JSON (it sent "<html>สวัสดี</html>").', failure: { kind: "search-not-json", values: { provider: "SearXNG" } } },
  { tool: "readWebPage", sentence: '"страница.рф/путь" is not a web address: give a full http:// or https:// URL.', failure: { kind: "not-web-address", values: { url: "страница.рф/путь" } } },
  { tool: "readWebPage", sentence: "https://例子.测试/文書.pdf is not a web page (it is application/pdf): save the PDF in the vault to attach it.", failure: { kind: "page-not-a-page", values: { url: "https://例子.测试/文書.pdf" } } },
  { tool: "readWebPage", sentence: "https://example.org/приложение has no readable text: it may be built by scripts in the browser, which are not run here, or need a login.", failure: { kind: "page-no-text", values: { url: "https://example.org/приложение" } } },
  { tool: "readWebPage", sentence: "https://example.org/ลูป redirects more than 5 times; it was given up.", failure: { kind: "page-too-many-redirects", values: { url: "https://example.org/ลูป", count: 5 } } },
  { tool: "readWebPage", sentence: "https://example.org/مفقود answered HTTP 404: there is no page at that address.", failure: { kind: "page-status", values: { url: "https://example.org/مفقود", status: 404 } } },
  { tool: "youtubeTranscription", sentence: "No YouTube video link or id was found in the input. Pass the video's link (youtube.com/watch?v=…, youtu.be/…, youtube.com/shorts/…) or its 11-character id.", failure: { kind: "no-video-link", values: {} } },
  { tool: "getFileTree", sentence: 'There is no folder "Папка 文件夹 ✨" with files in it. Call getFileTree without a folder to see the vault.', failure: { kind: "no-folder", values: { folder: "Папка 文件夹 ✨" } } },
  { tool: "getNoteProperties", sentence: 'The properties of "ملاحظات/خصائص.md" cannot be read: its frontmatter is not valid YAML (Unexpected flow-seq-end). Read the note with readNote to see its frontmatter as text.', failure: { kind: "properties-not-yaml", values: { path: "ملاحظات/خصائص.md" } } },
  { tool: "readNote", sentence: "No vault is open, so this tool cannot run.", failure: { kind: "no-vault", values: {} } },
  { tool: "localSearch", sentence: "Note search is not set up in this session, so the notes cannot be searched.", failure: { kind: "not-set-up-here", values: {} } },
  // An MCP server's words stay as they are; only our sentence around them is the interface's.
  { tool: "fs_read_file", sentence: "The tool reported an error: Доступ запрещён: 外 🚫 خارج المجلد", modelText: "The tool reported an error: Доступ запрещён: 外 🚫 خارج المجلد\nstack: at read()", failure: { kind: "mcp-error", values: { detail: "Доступ запрещён: 外 🚫 خارج المجلد" } } },
  { tool: "fs_read_file", sentence: "The tool reported an error: (no details)", modelText: "The tool reported an error: (no details)", failure: { kind: "mcp-error-no-details", values: {} } },
  { tool: "ev_echo", sentence: 'MCP server "ев-сервер" could not run echo: MCP error -32603: Ошибка 内部 🔥', modelText: 'MCP server "ев-сервер" could not run echo: MCP error -32603: Ошибка 内部 🔥', failure: { kind: "mcp-call-failed", values: { server: "ев-сервер", tool: "Echo 回声", detail: "MCP error -32603: Ошибка 内部 🔥" } } },
  { tool: "ev_echo", sentence: 'MCP server "ев-сервер" could not run echo: the server is not connected (spawn ENOENT)', modelText: 'MCP server "ев-сервер" could not run echo: the server is not connected (spawn ENOENT)', failure: { kind: "mcp-not-connected", values: { server: "ев-сервер", tool: "Echo 回声" } } },
  { tool: "ev_toggle", sentence: "The user did not approve this call of toggle: the user said: ไม่ใช่ตอนนี้", modelText: "The user did not approve this call of toggle: the user said: ไม่ใช่ตอนนี้", failure: { kind: "mcp-not-approved", values: { tool: "Toggle ログ" } } },
];

function shownError(item: Case): string | null | undefined {
  const { container } = render(
    <ToolCallBanner
      toolName={item.tool}
      toolId={item.tool}
      displayName={item.tool}
      wording={{ pending: "p", running: "r", done: "d" }}
      status="error"
      args={{}}
      startedAt={0}
      durationMs={12}
      resultText={item.modelText ?? `Tool "${item.tool}" failed: ${item.sentence}`}
      failure={item.failure}
      onOpenNote={() => undefined}
    />,
  );
  const text = container.querySelector(".vault-copilot-tool-error")?.textContent;
  container.remove();
  return text;
}

describe("a failed call's banner words its kind", () => {
  it.each(CASES.map((item) => [item.failure.kind, item] as const))("%s: in English exactly the tool's own sentence", (_kind, item) => {
    expect(shownError(item)).toBe(item.sentence.charAt(0).toUpperCase() + item.sentence.slice(1));
  });

  it.each(["de", "ja", "ru"].flatMap((code) => CASES.map((item) => [code, item.failure.kind, item] as const)))("in %s: %s, with its values as they are", (code, _kind, item) => {
    window.localStorage.setItem("language", code);
    const language = languageFor(code);
    const shown = shownError(item);
    expect(shown).toBe(translate(language, `toolError.${item.failure.kind}` as MessageKey, item.failure.values));
    expect(shown).not.toBe(item.sentence);
    for (const value of Object.values(item.failure.values)) expect(shown).toContain(typeof value === "string" ? value : language.numbers.format(value));
  });

  it("says the tool's own sentence where the kind is not one it knows or its values lack one its sentence names, never a placeholder and never a thrown error", () => {
    window.localStorage.setItem("language", "ru");
    // toolFailureOf takes any error's `failure` of that shape: one from outside our tools may name any kind.
    const unknown: Case = { tool: "readNote", sentence: "Ошибка 外部 🔥: квота исчерпана", failure: { kind: "quota-exceeded" as ToolFailure["kind"], values: { detail: "ไม่" } } };
    expect(shownError(unknown)).toBe("Ошибка 外部 🔥: квота исчерпана");
    const lacking: Case = { tool: "readNote", sentence: 'chunkIndex 9 is past the end of "ملاحظة.md": it has 2 chunks (0-1).', failure: { kind: "chunk-past-end", values: { count: 2 } } };
    expect(shownError(lacking)).toBe(lacking.sentence.charAt(0).toUpperCase() + lacking.sentence.slice(1));
  });

  it("reads as a native speaker writes it, plural forms included", () => {
    const byKind = (kind: string) => CASES.find((item) => item.failure.kind === kind)!;
    window.localStorage.setItem("language", "ru");
    expect(shownError(byKind("chunk-past-end"))).toBe("В «Заметки/Длинная 长 🌊.md» только 2 части; модель запросила часть за её концом.");
    expect(shownError(byKind("page-too-many-redirects"))).toBe("https://example.org/ลูป перенаправляет больше 5 раз; чтение прекращено.");
    window.localStorage.setItem("language", "ja");
    expect(shownError(byKind("no-folder"))).toBe("ファイルを含むフォルダ「Папка 文件夹 ✨」はありません。");
    window.localStorage.setItem("language", "de");
    expect(shownError(byKind("search-key-refused"))).toBe("Tavily hat den API-Schlüssel abgelehnt (HTTP 401). Prüfe den Schlüssel unter Einstellungen → Vault Copilot → Websuche.");
    window.localStorage.setItem("language", "zh");
    expect(shownError(byKind("properties-not-yaml"))).toBe("“ملاحظات/خصائص.md”的属性不是有效的 YAML，所以无法读取。");
    expect(shownError(byKind("mcp-error"))).toBe("工具报告了错误：Доступ запрещён: 外 🚫 خارج المجلد");
    window.localStorage.setItem("language", "ko");
    expect(shownError(byKind("mcp-call-failed"))).toBe("MCP 서버 “ев-сервер”에서 Echo 回声을(를) 실행할 수 없습니다: MCP error -32603: Ошибка 内部 🔥");
    expect(shownError(byKind("mcp-not-connected"))).toBe("MCP 서버 “ев-сервер”에 연결되어 있지 않아 Echo 回声을(를) 실행할 수 없습니다.");
  });
});
