import { FakeScheduler } from "../../../test/helpers/fakeScheduler";
import { startOpenAIServer, type OpenAIServer } from "../../../test/helpers/openAIServer";
import { makeTempVault, type TempVault } from "../../../test/helpers/tempVault";
import { DEFAULT_SETTINGS } from "../../constants";
import { completer } from "../../editor/completer";
import { CompletionSession } from "../../editor/CompletionSession";
import { CompletionUsage } from "../../editor/completionUsage";
import { languageFor } from "../../i18n/languages";
import { translate } from "../../i18n/translate";
import { MapSecretStore } from "../../ports/SecretStore";
import { FsDataStore } from "../../vault/fsDataStore";
import { completionNoticeText } from "./registerInlineCompletion";

/**
 * Inline completion's notices as the user reads them: a real session over a scripted server
 * that refuses the key (HTTP 401) and a real data folder, with a daily cap of one request.
 */
describe("inline completion's notices", () => {
  let server: OpenAIServer;
  let folder: TempVault;
  let usage: CompletionUsage;
  afterEach(async () => {
    await usage.flushed();
    await server.close();
    folder.remove();
    window.localStorage.removeItem("language");
  });

  async function noticesOf(): Promise<string[]> {
    server = await startOpenAIServer(() => ({ status: 401, message: "Incorrect API key provided" }));
    folder = makeTempVault();
    usage = new CompletionUsage(new FsDataStore(folder.root));
    const scheduler = new FakeScheduler();
    const settings = { ...DEFAULT_SETTINGS.completion, enabled: true, model: { ...DEFAULT_SETTINGS.completion.model, preset: "custom" as const, baseUrl: server.baseUrl, model: "small" } };
    const notices: string[] = [];
    let told: () => void = () => undefined;
    const session = new CompletionSession({
      policy: () => ({ enabled: true, pauseMs: 600, onMobile: false, dailyRequestCap: 1, prices: settings.model.prices }),
      mobile: false,
      scheduler,
      usage,
      complete: completer({ settings: () => settings, secrets: new MapSecretStore(), fetch: globalThis.fetch }),
      show: () => undefined,
      clear: () => undefined,
      notify: (message, notice) => {
        notices.push(completionNoticeText(message, notice));
        told();
      },
    });
    for (const text of ["Утром 我们", "Утром 我们 пошли"]) {
      const notice = new Promise<void>((resolve) => (told = resolve));
      session.changed({ text, cursor: text.length, selection: false, path: "日记.md" });
      scheduler.advance(600);
      await notice;
    }
    session.dispose();
    return notices;
  }

  it("in English, say what the session wrote", async () => {
    const notices = await noticesOf();
    expect(notices[0]).toMatch(/^Inline completion failed: .*HTTP 401/);
    expect(notices[1]).toBe("Inline completion is paused until tomorrow: today's 1 requests (the daily cap in Vault Copilot's settings) have been sent.");
  });

  it("in another language, say the failure by its kind and the cap with its count", async () => {
    window.localStorage.setItem("language", "ko");
    const korean = languageFor("ko");
    expect(await noticesOf()).toEqual([
      translate(korean, "completion.notice.failed", { reason: translate(korean, "error.authentication") }),
      "인라인 자동 완성은 내일까지 멈춥니다. 오늘의 요청 1회(Vault Copilot 설정의 하루 한도)를 모두 보냈습니다.",
    ]);
  });
});
