/**
 * What a message's chips could not give reaches the chat view's Notices from the chat (the
 * controller's `onProblem`, through `openChat`) with its case, and is said in the interface's
 * language; English reads the chip reader's sentence as before. The real CopilotView on the
 * Obsidian double, the real runners, the scripted server and a real folder.
 */
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { chatViewSession } from "../../test/helpers/chatViewSession";
import { folderChip, noteChip } from "../chat/chipArtifacts";

jest.setTimeout(20_000);

const GONE_NOTE = "Архив/Исчезнувшая 消失 🗂️.md";
const NOTES = Object.fromEntries(Array.from({ length: 22 }, (_, index) => [`ملاحظات/บันทึก ${index}.md`, `# ${index}\n\nText ${index}.`]));
const session = chatViewSession({ settings: { defaultMode: "chat" }, notes: NOTES });

const notices = () => [...document.body.querySelectorAll(".notice")].map((notice) => notice.textContent);

/** Sends a message with a chip of a note that is gone and one of a folder past the cap; resolves once the answer came. */
async function sendWithChips(): Promise<void> {
  const chat = await session.open([{ text: "Хорошо." }]);
  const controller = chat.view.getController()!;
  act(() => {
    controller.addChip(noteChip(GONE_NOTE));
    controller.addChip(folderChip("ملاحظات"));
  });
  const box = screen.getAllByRole("textbox")[0]!;
  fireEvent.change(box, { target: { value: "Что там?" } });
  fireEvent.keyDown(box, { key: "Enter" });
  await waitFor(() => expect(session.server.requests).toHaveLength(1));
  await waitFor(() => expect(notices()).toHaveLength(2));
}

describe("a chip's problems in the chat view", () => {
  afterEach(() => window.localStorage.removeItem("language"));

  it("in English, the Notices read the chip reader's sentences", async () => {
    await sendWithChips();
    expect(notices()).toEqual([`Vault Copilot: ${GONE_NOTE}: No file at "${GONE_NOTE}"`, "Vault Copilot: ملاحظات/: only the first 20 of 22 notes were attached"]);
  });

  it("in Korean, the Notices say each by its case", async () => {
    window.localStorage.setItem("language", "ko");
    await sendWithChips();
    expect(notices()).toEqual([
      `Vault Copilot: “${GONE_NOTE}”을(를) 첨부하지 못했습니다: “${GONE_NOTE}”와(과) 일치하는 노트가 없습니다.`,
      "Vault Copilot: ملاحظات/: 노트 22개 중 처음 20개만 첨부했습니다.",
    ]);
  });

  it("in Russian, the Notices say each by its case", async () => {
    window.localStorage.setItem("language", "ru");
    await sendWithChips();
    expect(notices()).toEqual([
      `Vault Copilot: Не удалось прикрепить «${GONE_NOTE}»: Нет заметки, подходящей под «${GONE_NOTE}».`,
      "Vault Copilot: ملاحظات/: прикреплены только первые 20 из 22 заметок.",
    ]);
  });
});
