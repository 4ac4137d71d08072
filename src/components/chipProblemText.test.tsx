/**
 * A chip's problems as the user reads them (the Notice of the chat view, of a reopened chat and of
 * the quick question): in English the chip reader's own sentence, in another language the sentence
 * for its case, the names and paths as written. The problems are the reader's own, over a real
 * folder of notes.
 */
import { truncateSync } from "node:fs";
import { join } from "node:path";
import { jpegImage, pngImage } from "../../test/helpers/imageFiles";
import { makeTempVault, type TempVault } from "../../test/helpers/tempVault";
import { folderChip, imageChip, noteChip, pastedImageChip, readChipArtifacts, tagChip, webChip } from "../chat/chipArtifacts";
import type { ChipProblem } from "../chat/chipProblems";
import { ToolFailureError, type ToolFailure } from "../errorMessage";
import { FsVault } from "../vault/FsVault";
import { chatOpenFailureText, chatProblemText, chipProblemText } from "./coreNotices";

let temp: TempVault;
let vault: FsVault;
const GONE_NOTE = "Заметки/Исчезнувшая 消失.md";
const NFD_IMAGE = "Cafe\u0301 ☕.png";
const PAGE = "http://127.0.0.1:9/مقالة/ข่าว";

beforeEach(() => {
  temp = makeTempVault({
    ...Object.fromEntries(Array.from({ length: 23 }, (_, index) => [`โครงการ/บันทึก ${index}.md`, `# ${index}\n\n#проект/草稿`])),
    "Фото/огромное 🐘.png": "",
    "Фото/снимок.jpg": jpegImage(4032, 3024),
    "Фото/не картинка.png": "# 文字",
    "Фото/ภาพถ่าย.png": pngImage(20, 10),
  });
  truncateSync(join(temp.root, "Фото/огромное 🐘.png"), 41 * 1_048_576);
  vault = new FsVault(temp.root);
});
afterEach(() => {
  temp.remove();
  window.localStorage.removeItem("language");
});

/** Every problem the chip reader tells, read from the folder: one chip or two per case. */
async function allProblems(): Promise<ChipProblem[]> {
  const refused = (url: string) => Promise.reject(new ToolFailureError(`Reading web pages is switched off (${url}).`, { kind: "switched-off", values: {} }));
  const read = await readChipArtifacts(
    vault,
    [
      noteChip(GONE_NOTE),
      folderChip("โครงการ"),
      tagChip("проект/草稿"),
      pastedImageChip("لقطة الشاشة.png", new Uint8Array()),
      imageChip("Фото/огромное 🐘.png"),
      imageChip(NFD_IMAGE),
      imageChip("Фото/не картинка.png"),
      imageChip("Фото/снимок.jpg"),
      webChip(PAGE),
    ],
    undefined,
    { images: {}, webPage: refused },
  );
  const unread = await readChipArtifacts(vault, [imageChip("Фото/ภาพถ่าย.png"), webChip(PAGE)]);
  const leftOut = await readChipArtifacts(vault, [imageChip("Фото/ภาพถ่าย.png")], undefined, { images: { leaveOut: "--no-images" } });
  return [...read.problems, ...unread.problems, ...(leftOut.notices ?? [])];
}

const words = async () => (await allProblems()).map(chipProblemText);

describe("a chip's problems in the interface's language", () => {
  it("in English, read the chip reader's own sentences", async () => {
    const problems = await allProblems();
    expect(problems.map(chipProblemText)).toEqual(problems.map((problem) => problem.text));
    expect(problems.map(chipProblemText)).toEqual([
      `${GONE_NOTE}: No file at "${GONE_NOTE}"`,
      "โครงการ/: only the first 20 of 23 notes were attached",
      "#проект/草稿: only the first 20 notes with this tag were attached",
      "لقطة الشاشة.png: a pasted image is not kept with a saved chat; paste it again to send it",
      "Фото/огромное 🐘.png: it is 41 MB, larger than the 40 MB read as an image",
      `${NFD_IMAGE}: No file at "${NFD_IMAGE}"`,
      "не картинка.png is not a PNG, JPEG, WebP or GIF image, so it was not sent",
      expect.stringMatching(/^снимок\.jpg \(4032×3024, [\d.]+ (KB|MB)\) is larger than 1568 px on its longest side and 1\.5 MB, and images are not scaled down here: scale it down to send it$/),
      `Reading web pages is switched off (${PAGE}).`,
      "Фото/ภาพถ่าย.png: images are not read here, so it was not sent",
      `${PAGE}: web pages are not read here, so it was not attached`,
      "Фото/ภาพถ่าย.png: not sent (--no-images)",
    ]);
  });

  it("in German, say each by its case, the failures by their kind", async () => {
    window.localStorage.setItem("language", "de");
    expect(await words()).toEqual([
      `„${GONE_NOTE}“ konnte nicht angehängt werden: Keine Notiz passt zu „${GONE_NOTE}“.`,
      "โครงการ/: Nur die ersten 20 von 23 Notizen wurden angehängt.",
      "#проект/草稿: Nur die ersten 20 Notizen mit diesem Tag wurden angehängt.",
      "لقطة الشاشة.png: Ein eingefügtes Bild wird mit dem gespeicherten Chat nicht aufbewahrt; füge es erneut ein, um es zu senden.",
      "Фото/огромное 🐘.png: Die Datei ist 41 MB groß, mehr als die 40 MB, die als Bild gelesen werden.",
      `Das Bild „${NFD_IMAGE}“ konnte nicht gesendet werden: Keine Notiz passt zu „${NFD_IMAGE}“.`,
      "не картинка.png ist kein PNG-, JPEG-, WebP- oder GIF-Bild und wurde daher nicht gesendet.",
      expect.stringMatching(/^снимок\.jpg \(4032×3024, [\d.]+ (KB|MB)\) ist größer als 1568 px an der längsten Seite und 1\.5 MB, und Bilder werden hier nicht verkleinert: Verkleinere es, um es zu senden\.$/),
      `${PAGE} konnte nicht angehängt werden: Das Lesen von Webseiten ist ausgeschaltet. Es lässt sich unter Einstellungen → Vault Copilot → Webseiten einschalten.`,
      "Фото/ภาพถ่าย.png: Bilder werden hier nicht gelesen, daher wurde es nicht gesendet.",
      `${PAGE}: Webseiten werden hier nicht gelesen, daher wurde die Seite nicht angehängt.`,
      "Фото/ภาพถ่าย.png: nicht gesendet (--no-images)",
    ]);
  });

  it("in Japanese, say each by its case, the failures by their kind", async () => {
    window.localStorage.setItem("language", "ja");
    expect(await words()).toEqual([
      `「${GONE_NOTE}」を添付できませんでした：「${GONE_NOTE}」に一致するノートはありません。`,
      "โครงการ/：23 件のノートのうち、最初の 20 件だけを添付しました。",
      "#проект/草稿：このタグの付いたノートは最初の 20 件だけを添付しました。",
      "لقطة الشاشة.png：貼り付けた画像は保存したチャットには残りません。送信するにはもう一度貼り付けてください。",
      "Фото/огромное 🐘.png：41 MB あり、画像として読み込める 40 MB を超えています。",
      `画像「${NFD_IMAGE}」を送信できませんでした：「${NFD_IMAGE}」に一致するノートはありません。`,
      "не картинка.png は PNG・JPEG・WebP・GIF のどの画像でもないため、送信していません。",
      expect.stringMatching(/^снимок\.jpg（4032×3024、[\d.]+ (KB|MB)）は長辺 1568 px・1\.5 MB の上限を超えていて、ここでは画像を縮小しません。縮小してから送信してください。$/),
      `${PAGE} を添付できませんでした：ウェブページの読み込みはオフになっています。「設定 → Vault Copilot → ウェブページ」でオンにできます。`,
      "Фото/ภาพถ่าย.png：ここでは画像を読み込まないため、送信していません。",
      `${PAGE}：ここではウェブページを読み込まないため、添付していません。`,
      "Фото/ภาพถ่าย.png：送信していません（--no-images）",
    ]);
  });

  it("in Russian, count a folder's notes with the plural the count needs", async () => {
    window.localStorage.setItem("language", "ru");
    const folder = (count: number) => chipProblemText({ text: "", case: { code: "folder-capped", folder: "Проекты/", cap: 20, count } });
    expect([21, 22, 25].map(folder)).toEqual([
      "Проекты/: прикреплены только первые 20 из 21 заметки.",
      "Проекты/: прикреплены только первые 20 из 22 заметок.",
      "Проекты/: прикреплены только первые 20 из 25 заметок.",
    ]);
  });

  it("an image or note outside the project, past the image cap, or not scaled down, in Chinese and French", () => {
    const cases: ChipProblem["case"][] = [
      { code: "outside-project", path: "Личное/фото 🔒.png" },
      { code: "images-capped", name: "ภาพ/ภาพ 11.png", cap: 10 },
      { code: "image-scale-failed", name: "IMG_0001.jpg", width: 4032, height: 3024, size: "6.1 MB", maxSide: 1568, maxSize: "1.5 MB" },
    ];
    window.localStorage.setItem("language", "zh");
    expect(cases.map((reason) => chipProblemText({ text: "", case: reason }))).toEqual([
      "“Личное/фото 🔒.png”不在此聊天的项目内，所以没有发送。",
      "ภาพ/ภาพ 11.png：未发送，一条消息最多附带 10 张图片。",
      "IMG_0001.jpg（4032×3024，6.1 MB）无法缩小到最长边 1568 像素和 1.5 MB 以内，所以没有发送。",
    ]);
    window.localStorage.setItem("language", "fr");
    expect(cases.map((reason) => chipProblemText({ text: "", case: reason }))).toEqual([
      "« Личное/фото 🔒.png » est hors du projet de ce chat : il n’a pas été envoyé.",
      "ภาพ/ภาพ 11.png : non envoyée, un message contient au plus 10 images.",
      "IMG_0001.jpg (4032×3024, 6.1 MB) n’a pas pu être réduite à 1568 px sur son plus grand côté et 1.5 MB : elle n’a pas été envoyée.",
    ]);
  });

  it("a note that cannot be read for a failure kind the view has no sentence for, or whose values lack one its sentence names, gives the failure's own words", () => {
    window.localStorage.setItem("language", "ja");
    const unknownKind = { kind: "квота-исчерпана", values: {} } as unknown as ToolFailure;
    const missingValue = { kind: "note-not-found", values: {} } as unknown as ToolFailure;
    expect(chipProblemText({ text: "", case: { code: "unreadable", path: GONE_NOTE, reason: "квота 📦 исчерпана", failure: unknownKind } })).toContain("квота 📦 исчерпана");
    expect(chipProblemText({ text: "", case: { code: "unreadable", path: GONE_NOTE, reason: "نفدت الحصة", failure: missingValue } })).toContain("نفدت الحصة");
    expect(chatOpenFailureText(new ToolFailureError("Квота исчерпана.", unknownKind))).toBe("Квота исчерпана.");
  });

  it("a chat's problem without a case, or of a kind the view does not know, reads as written", () => {
    window.localStorage.setItem("language", "de");
    expect(chatProblemText("Что-то 🙃 случилось", undefined)).toBe("Что-то 🙃 случилось");
    expect(chatProblemText("Что-то 🙃 случилось", { about: "chip", case: { code: "web-failed", url: PAGE, reason: "HTTP 500 ошибка" } })).toBe(`${PAGE} konnte nicht angehängt werden: HTTP 500 ошибка`);
  });
});
