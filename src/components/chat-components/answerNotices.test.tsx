/**
 * The notices shown with an answer, in the interface's language: images left out for a model not
 * known to take them (the real CopilotView on the Obsidian double, the real runner, the scripted
 * server), and earlier exchanges left out to fit the context window. In English the runner's own
 * sentence as before; in another language the sentence for its case, names as written.
 */
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { chatViewSession } from "../../../test/helpers/chatViewSession";
import { jpegImage, pngImage } from "../../../test/helpers/imageFiles";
import { imageChip } from "../../chat/chipArtifacts";
import { answerNoticeText } from "../coreNotices";

jest.setTimeout(30_000);

const session = chatViewSession({ settings: { defaultMode: "chat" } });

/** Sends two images to a model not known to take them, in `language`; resolves with the answer's notice. */
async function imagesLeftOut(language: string): Promise<string | null | undefined> {
  if (language !== "en") window.localStorage.setItem("language", language);
  const chat = await session.open([{ text: "Вижу только текст." }], { files: { "Фото/закат 夕日.png": pngImage(40, 30), "Фото/صورة.jpg": jpegImage(32, 24) } });
  const controller = chat.view.getController()!;
  act(() => {
    controller.addChip(imageChip("Фото/закат 夕日.png"));
    controller.addChip(imageChip("Фото/صورة.jpg"));
  });
  const box = screen.getAllByRole("textbox")[0]!;
  fireEvent.change(box, { target: { value: "Что на фото? 🌅" } });
  fireEvent.keyDown(box, { key: "Enter" });
  await waitFor(() => expect(document.querySelector(".vault-copilot-answer-notice")).not.toBeNull(), { timeout: 15_000 });
  return document.querySelector(".vault-copilot-answer-notice")?.textContent;
}

describe("an answer's notices in the interface's language", () => {
  afterEach(() => window.localStorage.removeItem("language"));

  it("in English, the runner's sentence as before", async () => {
    expect(await imagesLeftOut("en")).toBe(
      "2 images (закат 夕日.png, صورة.jpg) were left out: test-model is not known to take images. If it does, switch on “Takes images” for it in Settings → Vault Copilot → Model provider.",
    );
  });

  it("in German, by its case", async () => {
    expect(await imagesLeftOut("de")).toBe(
      "2 Bilder (закат 夕日.png und صورة.jpg) wurden nicht gesendet: Es ist nicht bekannt, dass test-model Bilder versteht. Falls doch, schalte „Versteht Bilder“ dafür unter Einstellungen → Vault Copilot → Modellanbieter ein.",
    );
  });

  it("in Japanese, by its case", async () => {
    expect(await imagesLeftOut("ja")).toBe(
      "画像 2 枚（закат 夕日.png、صورة.jpg）を送信しませんでした：test-model が画像に対応しているかわかりません。対応している場合は「設定 → Vault Copilot → モデルのプロバイダ」でこのモデルの「画像対応」をオンにしてください。",
    );
  });

  it("earlier exchanges left out: English as written, Russian and Chinese by count", () => {
    const notice = (dropped: number) => ({ text: `${dropped} earlier exchanges …`, case: { code: "history-left-out" as const, dropped, contextWindow: 128_000 } });
    expect(answerNoticeText(notice(3))).toBe("3 earlier exchanges …");
    window.localStorage.setItem("language", "ru");
    // Russian groups thousands with a no-break space, as Intl writes it.
    const tokens = new Intl.NumberFormat("ru").format(128_000);
    expect([1, 3, 5].map((dropped) => answerNoticeText(notice(dropped)))).toEqual([
      `1 более ранний обмен сообщениями этого чата не вошёл в запрос, чтобы запрос уместился в контекстное окно модели (${tokens} токенов); модель его не видит.`,
      `3 более ранних обмена сообщениями этого чата не вошли в запрос, чтобы запрос уместился в контекстное окно модели (${tokens} токенов); модель их не видит.`,
      `5 более ранних обменов сообщениями этого чата не вошли в запрос, чтобы запрос уместился в контекстное окно модели (${tokens} токенов); модель их не видит.`,
    ]);
    window.localStorage.setItem("language", "zh");
    expect(answerNoticeText(notice(3))).toBe("为了放进模型的上下文窗口（128,000 个 token），此聊天较早的 3 轮对话没有随请求发送；模型看不到它们。");
  });
});
