/**
 * What the settings tab words of core code's cases, in the interface's language: the settings
 * schema's own rules, a field's name in a form's refusal, an MCP server's failure after its state
 * (against real processes and a real HTTP server), and the embeddings test's answer that cannot
 * be used. English reads exactly as core code wrote it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { App as ObsidianApp, Plugin as ObsidianPlugin } from "obsidian";
import { act } from "react";
import { startLocalServer } from "../../../test/helpers/localServer";
import { App, Plugin } from "../../../test/obsidian/obsidian";
import { DEFAULT_SETTINGS } from "../../constants";
import { t } from "../../i18n/t";
import { createHttpTransport } from "../../mcp/httpTransport";
import { McpHub } from "../../mcp/McpHub";
import { createStdioTransport } from "../../mcp/node/stdioTransport";
import { approveAllToolCalls } from "../../ports/approval";
import { MapSecretStore } from "../../ports/SecretStore";
import { testEmbeddings } from "../../search/embeddings/testEmbeddings";
import { otherModelsSchema } from "../../settings/settingsSchema";
import { ToolRegistry } from "../../tools/ToolRegistry";
import { parseMcpServersText } from "./mcpSettingsSection";
import { serverOf, EMPTY_SERVER_DRAFT } from "./mcpServerForm";
import { mcpStatusLine } from "./mcpStatusText";
import { ModelFormModal } from "./ModelFormModal";
import { ObsidianSecretStore } from "./obsidianSecretStore";
import { embeddingsTestText } from "./semanticSearchSection";
import { saveFailure } from "./settingRows";
import { VaultCopilotSettingTab } from "./SettingsTab";
import { pluginSettingsFile, SettingsStore, type SettingsFile } from "./settingsStore";
import { zodIssueText } from "./zodIssueText";

// Tells React that this test drives updates through act().
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

jest.setTimeout(60_000);

const manifest = { id: "vault-copilot", name: "Vault Copilot", author: "", version: "0.1.0", minAppVersion: "1.11.4", description: "", dir: ".obsidian/plugins/vault-copilot" };

/** Runs `check` in each language: "en" is Obsidian's default, the others as Obsidian sets them. */
function inLanguage<T>(language: string, check: () => T): T {
  if (language === "en") window.localStorage.removeItem("language");
  else window.localStorage.setItem("language", language);
  return check();
}

afterEach(() => window.localStorage.removeItem("language"));

const refusal = (work: () => unknown): string => {
  try {
    work();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("nothing was refused");
};

describe("the settings schema's own rules", () => {
  it("says two models of one name in the interface's language, and in English as the schema wrote it", () => {
    const model = { ...DEFAULT_SETTINGS.provider, model: "模型-🦙" };
    const issue = otherModelsSchema.safeParse([model, { ...model }]).error!.issues[0];
    expect(inLanguage("en", () => zodIssueText(issue))).toBe('Two models are named "模型-🦙".');
    expect(inLanguage("de", () => zodIssueText(issue))).toBe("Zwei Modelle heißen „模型-🦙“.");
    expect(inLanguage("ja", () => zodIssueText(issue))).toBe("「模型-🦙」という名前のモデルが 2 つあります。");
  });

  it("says two servers of one name, a secret's id and a server's name in the JSON view by their rule", () => {
    const server = { name: "files", enabled: true, transport: "stdio", command: "npx", args: ["Заметки 笔记"], env: {} };
    const twice = JSON.stringify([server, server]);
    expect(inLanguage("en", () => refusal(() => parseMcpServersText(twice)))).toBe('Two servers are named "files".');
    expect(inLanguage("ru", () => refusal(() => parseMcpServersText(twice)))).toBe("Два сервера называются «files».");
    expect(inLanguage("zh", () => refusal(() => parseMcpServersText(twice)))).toBe("有两个服务器都叫“files”。");

    const secret = JSON.stringify([{ ...server, env: { TOKEN: "Ключ_API" } }]);
    expect(inLanguage("en", () => refusal(() => parseMcpServersText(secret)))).toBe("Server 0.env.TOKEN: lowercase letters, digits and dashes only");
    expect(inLanguage("de", () => refusal(() => parseMcpServersText(secret)))).toBe("Server 0.env.TOKEN: Nur Kleinbuchstaben, Ziffern und Bindestriche.");
    expect(inLanguage("ko", () => refusal(() => parseMcpServersText(secret)))).toBe("서버 0.env.TOKEN: 소문자, 숫자, 하이픈만 쓸 수 있습니다.");

    const thai = JSON.stringify([{ ...server, name: "ไฟล์" }]);
    expect(inLanguage("en", () => refusal(() => parseMcpServersText(thai)))).toBe("Server 0.name: Invalid string: must match pattern /^[A-Za-z0-9-]+$/");
    expect(inLanguage("fr", () => refusal(() => parseMcpServersText(thai)))).toBe("Serveur 0.name : Uniquement des lettres, des chiffres et « - ».");
  });
});

describe("a field's name in a form's refusal", () => {
  /** Opens the model form, fills it, presses Save and reads the sentence that stops it. */
  function modelFormRefusal(fill: Record<string, string>): string {
    const app = new App();
    const form = new ModelFormModal(app as unknown as ObsidianApp, { takenNames: [], onSave: () => undefined });
    act(() => form.open());
    try {
      const element = document.querySelector<HTMLElement>(".modal-container .modal")!;
      for (const [label, value] of Object.entries(fill)) {
        const input = [...element.querySelectorAll<HTMLInputElement>("input")].find((candidate) => candidate.getAttribute("aria-label") === label);
        if (!input) throw new Error(`No field "${label}"`);
        act(() => {
          input.value = value;
          input.dispatchEvent(new Event("input"));
        });
      }
      const save = [...element.querySelectorAll("button")].find((button) => button.textContent === t("form.save"))!;
      act(() => save.click());
      return element.querySelector(".vault-copilot-form-error")?.textContent ?? "";
    } finally {
      act(() => form.close());
    }
  }

  const hotModel = () => ({ [t("modelForm.modelLabel")]: "Модель-βῆτα", [t("settings.baseUrl.name")]: "http://127.0.0.1:11434/v1", [t("settings.temperature.name")]: "7" });

  it("names the model form's field by its label in the interface's language, and by its id in English as before", () => {
    expect(inLanguage("en", () => modelFormRefusal(hotModel()))).toBe("temperature: Too big: expected number to be <=2.");
    expect(inLanguage("de", () => modelFormRefusal(hotModel()))).toBe("Temperatur: Darf höchstens 2 sein.");
    expect(inLanguage("ja", () => modelFormRefusal(hotModel()))).toBe("温度：2 以下にしてください。");
  });

  it("names the MCP server form's lines by their label", () => {
    const draft = { ...EMPTY_SERVER_DRAFT, name: "notes", command: "npx", env: "API_TOKEN=sk_LIVE_ключ" };
    expect(inLanguage("en", () => refusal(() => serverOf(draft, [])))).toBe('Environment, line 1: "sk_LIVE_ключ" is not a secret\'s id (lowercase letters, digits and dashes), and never the secret itself.');
    expect(inLanguage("ru", () => refusal(() => serverOf(draft, [])))).toBe("Окружение, строка 1: «sk_LIVE_ключ» — не идентификатор секрета (строчные латинские буквы, цифры и дефисы) и уж точно не сам секрет.");
    const headers = { ...EMPTY_SERVER_DRAFT, name: "remote", transport: "http" as const, url: "https://example.com/mcp", headers: "Authorization" };
    expect(inLanguage("zh", () => refusal(() => serverOf(headers, [])))).toBe("请求头，第 1 行：请写成 Header=Obsidian 密钥存储中密钥的 ID。");
  });

  it("names the setting a refused save was about by the tab's label", async () => {
    const app = new App();
    const plugin = new Plugin(app, manifest);
    const store = await SettingsStore.load({ file: pluginSettingsFile(plugin as unknown as ObsidianPlugin), secrets: new ObsidianSecretStore(app.secretStorage), notify: () => undefined });
    const model = { ...DEFAULT_SETTINGS.provider, model: "مساعد-محلي" };
    const refused = await store.update((settings) => ({ ...settings, models: [model, model] })).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(inLanguage("en", () => saveFailure(refused))).toBe('models.1.model: Two models are named "مساعد-محلي".');
    expect(inLanguage("de", () => saveFailure(refused))).toBe("Modell: Zwei Modelle heißen „مساعد-محلي“.");
    expect(inLanguage("fr", () => saveFailure(refused))).toBe("Modèle : Deux modèles s’appellent « مساعد-محلي ».");
  });
});

describe("an MCP server's failure after its state", () => {
  let folder: string;
  beforeAll(() => (folder = mkdtempSync(join(tmpdir(), "vault-copilot-mcp-cases-"))));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  const secrets = new MapSecretStore();
  const makeHub = (connectTimeoutMs = 30_000) =>
    new McpHub({
      registry: new ToolRegistry(),
      createTransport: (config) => Promise.resolve(config.transport === "stdio" ? createStdioTransport(config, secrets) : createHttpTransport(config, secrets)),
      approval: approveAllToolCalls,
      isAutoApproved: () => false,
      connectTimeoutMs,
    });

  it("words a command that cannot start and a server that exits with its code, keeping the server's words for Details", async () => {
    const hub = makeHub();
    const command = join(folder, "нет-такой-программы", "程序");
    try {
      const missing = await hub.connect({ name: "missing", enabled: true, transport: "stdio", command, args: [], env: {} });
      const exits = await hub.connect({ name: "exits", enabled: true, transport: "stdio", command: process.execPath, args: ["-e", "process.exit(7)"], env: {} });

      expect(inLanguage("en", () => mcpStatusLine(missing))).toEqual({ text: `missing: failed (${missing.error!})` });
      expect(inLanguage("de", () => mcpStatusLine(missing))).toEqual({ text: `missing: fehlgeschlagen (der Befehl „${command}“ ließ sich nicht starten; prüfe, ob er installiert und richtig geschrieben ist)`, details: missing.error });
      expect(inLanguage("ja", () => mcpStatusLine(missing)).text).toBe(`missing：失敗（コマンド「${command}」を起動できませんでした。インストールされているか、正しく書かれているか確認してください）`);

      expect(inLanguage("en", () => mcpStatusLine(exits))).toEqual({ text: `exits: failed (${exits.error!})` });
      expect(inLanguage("ru", () => mcpStatusLine(exits))).toEqual({ text: "exits: ошибка (сервер завершился с кодом 7)", details: exits.error });
      expect(inLanguage("ko", () => mcpStatusLine(exits)).text).toBe("exits: 실패 (서버가 코드 7(으)로 종료되었습니다)");
    } finally {
      await hub.closeAll();
    }
  });

  it("words a refusing HTTP status and a connect that timed out", async () => {
    // 403 at /locked; at /silent the request is taken and never answered, so the connect deadline passes.
    const refusing = createServer((request, response) => {
      request.resume();
      if (request.url === "/locked") response.writeHead(403, { "content-type": "text/plain" }).end("ممنوع 🚫");
    });
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
    const hub = makeHub(1_000);
    try {
      const { port } = refusing.address() as AddressInfo;
      const refused = await hub.connect({ name: "locked", enabled: true, transport: "http", url: `http://127.0.0.1:${port}/locked`, headers: {} });
      expect(inLanguage("en", () => mcpStatusLine(refused)).text).toBe(`locked: failed (${refused.error!})`);
      expect(refused.error).toContain("ممنوع 🚫");
      expect(inLanguage("fr", () => mcpStatusLine(refused))).toEqual({ text: "locked : échec (le serveur a refusé la connexion avec le statut HTTP 403)", details: refused.error });
      expect(inLanguage("zh", () => mcpStatusLine(refused)).text).toBe("locked：失败（服务器以 HTTP 状态 403 拒绝了连接）");

      const silent = await hub.connect({ name: "silent", enabled: true, transport: "http", url: `http://127.0.0.1:${port}/silent`, headers: {} });
      expect(inLanguage("en", () => mcpStatusLine(silent)).text).toBe('silent: failed (MCP server "silent" did not start and list its tools within 1 s.)');
      expect(inLanguage("de", () => mcpStatusLine(silent)).text).toBe("silent: fehlgeschlagen (keine Verbindung innerhalb von 1 Sekunde)");
      expect(inLanguage("ru", () => mcpStatusLine(silent)).text).toBe("silent: ошибка (не удалось подключиться за 1 секунду)");
    } finally {
      await hub.closeAll();
      refusing.closeAllConnections();
      await new Promise((resolve) => refusing.close(resolve));
    }
  });

  it("shows the worded failure in the settings tab, with the server's words under Details", async () => {
    const app = new App();
    const plugin = new Plugin(app, manifest);
    const store = await SettingsStore.load({ file: pluginSettingsFile(plugin as unknown as ObsidianPlugin), secrets: new ObsidianSecretStore(app.secretStorage), notify: () => undefined });
    const hub = makeHub();
    window.localStorage.setItem("language", "de");
    const tab = new VaultCopilotSettingTab(app as unknown as ObsidianApp, plugin as unknown as ObsidianPlugin, store, new ToolRegistry(), hub);
    document.body.appendChild(tab.containerEl);
    const olderObsidian: { display(): void } = tab;
    act(() => olderObsidian.display());
    try {
      const status = await act(() => hub.connect({ name: "exits", enabled: true, transport: "stdio", command: process.execPath, args: ["-e", "process.exit(2)"], env: {} }));
      const list = tab.containerEl.querySelector(".vault-copilot-mcp-status")!;
      expect(list.querySelector(".vault-copilot-mcp-failed")?.textContent).toBe("exits: fehlgeschlagen (der Server wurde mit Code 2 beendet)");
      const details = list.querySelector("details")!;
      expect(details.querySelector("summary")?.textContent).toBe("Details");
      expect(details.textContent).toBe(`Details${status.error!}`);
    } finally {
      await act(() => hub.closeAll());
      document.body.empty();
    }
  });
});

describe("the embeddings test's answer that cannot be used", () => {
  it("says it in the interface's language, and in English with what was wrong as before", async () => {
    const server = await startLocalServer(() => ({ body: JSON.stringify({ data: [{ index: 0, embedding: [0, 0, 0] }] }) }));
    try {
      const settings = { ...DEFAULT_SETTINGS.embeddings, baseUrl: `${server.url}/v1`, model: "эмбеддинги-埋め込み" };
      const verdict = await testEmbeddings(settings, { fetch: globalThis.fetch, secrets: new MapSecretStore() }, undefined, { cases: true });
      expect(inLanguage("en", () => embeddingsTestText(verdict))).toBe(verdict.message);
      expect(verdict.message).toMatch(/^The embeddings server sent 1 vector that cannot be used: /);
      expect(inLanguage("ko", () => embeddingsTestText(verdict))).toBe(`임베딩 서버(${server.url}/v1)가 쓸 수 없는 응답을 보냈습니다. “эмбеддинги-埋め込み”이(가) 임베딩 모델인지 확인하세요.`);
      expect(inLanguage("es", () => embeddingsTestText(verdict))).toBe(`El servidor de vectores (${server.url}/v1) envió una respuesta que no se puede usar. Comprueba que «эмбеддинги-埋め込み» es un modelo de vectores.`);
    } finally {
      await server.close();
    }
  });
});

describe("the settings store's reasons from the platform", () => {
  /** Loads a data.json that is not JSON, where keeping a copy fails with `writeError`, and returns the notice. */
  async function corruptFileNotice(writeError: string): Promise<string> {
    const app = new App();
    const folder = ".obsidian/plugins/vault-copilot";
    await app.vault.adapter.mkdir(folder);
    await app.vault.adapter.write(`${folder}/data.json`, '{"provider": {"model": "модель-模型", ');
    const file = pluginSettingsFile(new Plugin(app, manifest) as unknown as ObsidianPlugin);
    const failingCopy: SettingsFile = { ...file, adapter: { exists: (path) => file.adapter.exists(path), read: (path) => file.adapter.read(path), write: () => Promise.reject(new Error(writeError)) } };
    const notices: string[] = [];
    await SettingsStore.load({ file: failingCopy, secrets: new ObsidianSecretStore(app.secretStorage), notify: (message) => notices.push(message) });
    return notices[0] ?? "";
  }

  it("keeps the platform's words inside a sentence in the interface's language", async () => {
    const english = await corruptFileNotice("ENOSPC: 磁盘已满 💾");
    const [, englishLine] = english.split("\n");
    const cause = /not valid JSON \((.+)\) and a copy/.exec(englishLine!)?.[1];
    expect(cause).toBeTruthy();
    expect(englishLine).toBe(`• The settings file is not valid JSON (${cause!}) and a copy could not be kept (ENOSPC: 磁盘已满 💾); the defaults are in use and the file was left as it was.`);
    window.localStorage.setItem("language", "ja");
    expect((await corruptFileNotice("ENOSPC: 磁盘已满 💾")).split("\n")[1]).toBe(`• 設定ファイルが正しい JSON ではなく（${cause!}）、コピーも残せませんでした（ENOSPC: 磁盘已满 💾）。既定値を使っており、ファイルはそのままです。`);
    window.localStorage.setItem("language", "ru");
    expect((await corruptFileNotice("EROFS: диск только для чтения")).split("\n")[1]).toBe(`• Файл настроек не является корректным JSON (${cause!}), и сохранить копию не удалось (EROFS: диск только для чтения); используются значения по умолчанию, файл оставлен как есть.`);
  });
});
