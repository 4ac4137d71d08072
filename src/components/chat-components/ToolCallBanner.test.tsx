/**
 * Tool-call banners as the user reads them: outcomes first and true (Rejected, Edited, Undone,
 * never a green ✓ for an edit that did not stay), Undo on the folded line and what it tells the
 * chat's note and the model, a short summary of a result with the model's text behind "Details",
 * arguments as `key: value` lines, errors in a sentence. The real CopilotView over the real
 * runners and tools, the scripted chat-completions server on 127.0.0.1, a real folder of notes.
 */
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chatViewSession } from "../../../test/helpers/chatViewSession";
import { languageFor } from "../../i18n/languages";
import type { MessageKey, MessageValues } from "../../i18n/messages";
import { translate } from "../../i18n/translate";

jest.setTimeout(30_000);

/** A bound for a loaded machine, not a measurement: each wait ends as soon as the view shows it. */
const patiently = { timeout: 10_000 };
const session = chatViewSession({ settings: { defaultMode: "agent" } });

/** A note name in Cyrillic with a decomposed (NFD) "й", as macOS writes it: the path must come through as it is. */
const NOTE = "Дневник/Заметка про чаи\u0306.md";

async function send(text: string): Promise<void> {
  const box = screen.getByRole("textbox", { name: "Message" });
  fireEvent.change(box, { target: { value: text } });
  fireEvent.keyDown(box, { key: "Enter" });
}

const idle = () => waitFor(() => expect(screen.getByRole("button", { name: "Send" })).toBeTruthy(), patiently);
const answers = () => within(screen.getByRole("log", { name: "Conversation" })).queryAllByRole("article", { name: "Copilot" });

/** Accepts the edit card once its first moments are over (it ignores clicks before). */
async function accept(path: string): Promise<void> {
  const card = await screen.findByRole("region", { name: `Edit ${path}?` }, patiently);
  const button = within(card).getByRole("button", { name: "Accept" });
  await waitFor(() => expect(button.getAttribute("aria-disabled")).toBe("false"), patiently);
  fireEvent.click(button);
}

/** The banner of an answer's first tool call: its class, glyph, folded line and opened text. */
function bannerOf(answer: HTMLElement) {
  const element = answer.querySelector<HTMLElement>(".vault-copilot-tool-banner")!;
  return {
    element,
    line: element.querySelector(".vault-copilot-tool-title")?.textContent,
    glyph: element.querySelector(".vault-copilot-tool-status")?.textContent,
    undo: () => within(element).queryByRole("button", { name: "Undo" }),
  };
}

function chatNoteText(root: string): string {
  const folder = join(root, "copilot/chats");
  const [name] = readdirSync(folder).filter((entry) => entry.endsWith(".md"));
  return readFileSync(join(folder, name!), "utf8");
}

const replace = (path: string, oldText: string, newText: string) => ({ toolCalls: [{ name: "replaceInFile", arguments: JSON.stringify({ path, oldText, newText }) }] });

describe("tool banners", () => {
  it("an accepted edit undone from its folded line reads Undone with no ✓; the chat's note and the next request say the user undid it", async () => {
    const { vault } = await session.open([replace(NOTE, "черновик", "готово"), { text: "Готово." }, { text: "Понял, правка отменена." }, { text: "Хорошо." }], {
      notes: { [NOTE]: "статус: черновик\n" },
    });
    await send("Отметь заметку как готовую");
    await accept(NOTE);
    await waitFor(() => expect(answers()[0]?.textContent).toContain("Готово."), patiently);
    await idle();
    let banner = bannerOf(answers()[0]!);
    expect([banner.line, banner.glyph]).toEqual([`Edited +1 −1 · ${NOTE}`, "✓"]);
    // Undo is on the folded line: the banner is not opened to reach it.
    expect(banner.element.querySelector("details")?.open).toBe(false);
    fireEvent.click(banner.undo()!);
    await waitFor(() => expect(readFileSync(join(vault.root, NOTE), "utf8")).toBe("статус: черновик\n"), patiently);
    await waitFor(() => expect(bannerOf(answers()[0]!).line).toBe(`Undone · ${NOTE}`), patiently);
    banner = bannerOf(answers()[0]!);
    expect(banner.glyph).not.toBe("✓");
    expect(banner.element.className).not.toContain("is-done");
    expect(banner.undo()).toBeNull();
    expect(within(banner.element).getByRole("status").textContent).toContain("previous text is back");
    // The chat's note: the tool callout says it was undone.
    await waitFor(() => expect(chatNoteText(vault.root)).toMatch(new RegExp(`^> \\[!tool\\]- replaceInFile · ok · \\d+ ms · undone ${NOTE}$`, "m")), patiently);

    // The next question tells the model, before the question itself, and the note records that it did.
    await send("Что теперь?");
    await waitFor(() => expect(session.server.requests).toHaveLength(3), patiently);
    await idle();
    const question = session.server.requests[2]!.body.messages.at(-1)!;
    const content = JSON.stringify(question.content);
    expect(content).toContain(`The user undid the edit of ${NOTE}`);
    expect(content.indexOf("The user undid the edit of")).toBeLessThan(content.indexOf("[User query]: Что теперь?"));
    await waitFor(() => expect(chatNoteText(vault.root)).toContain(`> - edit undone: [[${NOTE.slice(0, -3)}]]`), patiently);

    // Once told, it stays in what the model knows (the library in the system message) and is not told again as new.
    await send("А дальше?");
    await waitFor(() => expect(session.server.requests).toHaveLength(4), patiently);
    await idle();
    const [system, ...rest] = session.server.requests[3]!.body.messages;
    expect(JSON.stringify(system!.content)).toContain(`The user undid the edit of ${NOTE}`);
    expect(JSON.stringify(rest.at(-1)!.content)).not.toContain("The user undid");
  });

  it("an edit of three changes accepted with one left out writes the other two; the banner, the chat's note and Undo say what was applied", async () => {
    const lines = Array.from({ length: 24 }, (_, index) => `${["行", "سطر", "рядок"][index % 3]} ${index + 1}`);
    const before = `${lines.join("\n")}\n`;
    const changed = lines.map((line, index) => ([1, 12, 22].includes(index) ? `${line} 🌱` : line)).join("\n");
    const { vault } = await session.open([replace("Сад/Журнал.md", lines.join("\n"), changed), { text: "Отмечено." }], { notes: { "Сад/Журнал.md": before } });
    await send("Отметь три строки");
    const card = await screen.findByRole("region", { name: "Edit Сад/Журнал.md?" }, patiently);
    const choices = within(card).getAllByRole("checkbox");
    expect(choices.map((box) => box.getAttribute("aria-label"))).toEqual(["Apply change 1 of 3 (line 2)", "Apply change 2 of 3 (line 13)", "Apply change 3 of 3 (line 23)"]);
    const acceptButton = within(card).getByRole("button", { name: "Accept" });
    await waitFor(() => expect(acceptButton.getAttribute("aria-disabled")).toBe("false"), patiently);
    fireEvent.click(within(card).getByRole("checkbox", { name: "Apply change 2 of 3 (line 13)" }));
    expect(within(card).getByText(/in 3 changes: 2 chosen/)).toBeTruthy();
    // None chosen: Accept does nothing, and the card says what to do.
    fireEvent.click(choices[0]!);
    fireEvent.click(choices[2]!);
    expect(acceptButton.getAttribute("aria-disabled")).toBe("true");
    fireEvent.click(acceptButton);
    expect(within(card).getByText("Choose at least one change to accept, or reject the edit.")).toBeTruthy();
    expect(readFileSync(join(vault.root, "Сад/Журнал.md"), "utf8")).toBe(before);
    fireEvent.click(choices[0]!);
    fireEvent.click(choices[2]!);
    expect(acceptButton.getAttribute("aria-disabled")).toBe("false");
    fireEvent.click(acceptButton);
    await idle();
    const expected = before.replace("سطر 2\n", "سطر 2 🌱\n").replace("سطر 23\n", "سطر 23 🌱\n");
    expect(readFileSync(join(vault.root, "Сад/Журнал.md"), "utf8")).toBe(expected);
    const banner = bannerOf(answers()[0]!);
    expect([banner.line, banner.glyph]).toEqual(["Edited +2 −2 · Сад/Журнал.md · 2 of 3 changes", "✓"]);
    // The model heard which part was applied, and the chat's note keeps what it heard.
    expect(JSON.stringify(session.server.requests[1]!.body.messages.at(-1)!.content)).toContain("The user applied 2 of the 3 changes proposed and left the others out");
    await waitFor(() => expect(chatNoteText(vault.root)).toContain("The user applied 2 of the 3 changes proposed"), patiently);
    fireEvent.click(banner.undo()!);
    await waitFor(() => expect(within(banner.element).getByRole("status").textContent).toContain("(the 2 of 3 changes you had applied)"), patiently);
    expect(readFileSync(join(vault.root, "Сад/Журнал.md"), "utf8")).toBe(before);
  });

  it("an Undo that cannot be done says why, changes nothing, and the banner keeps its outcome", async () => {
    const { vault } = await session.open([replace("Plan.md", "draft", "final"), { text: "Done." }, { text: "ok" }], { notes: { "Plan.md": "status: draft\n" } });
    await send("finalise");
    await accept("Plan.md");
    await idle();
    // The user goes on writing in the note: the undo must not throw that away.
    writeFileSync(join(vault.root, "Plan.md"), "status: final\nmy own line\n");
    const banner = bannerOf(answers()[0]!);
    fireEvent.click(banner.undo()!);
    await waitFor(() => expect(within(banner.element).getByRole("status").textContent).toContain("the note changed after the edit"), patiently);
    expect(readFileSync(join(vault.root, "Plan.md"), "utf8")).toBe("status: final\nmy own line\n");
    expect([bannerOf(answers()[0]!).line, bannerOf(answers()[0]!).glyph]).toEqual(["Edited +1 −1 · Plan.md", "✓"]);
    await send("next");
    await waitFor(() => expect(session.server.requests).toHaveLength(3), patiently);
    expect(session.server.requests[2]!.rawBody).not.toContain("The user undid");
  });

  it("Undo on an edit of a note edited again since refuses, and takes back neither edit", async () => {
    const { vault } = await session.open([replace("Plan.md", "one", "two"), { text: "First." }, replace("Plan.md", "two", "three"), { text: "Second." }], {
      notes: { "Plan.md": "count: one\n" },
    });
    await send("count up");
    await accept("Plan.md");
    await waitFor(() => expect(answers()[0]?.textContent).toContain("First."), patiently);
    await idle();
    await send("count up again");
    await accept("Plan.md");
    await waitFor(() => expect(answers()[1]?.textContent).toContain("Second."), patiently);
    await idle();
    const first = bannerOf(answers()[0]!);
    fireEvent.click(first.undo()!);
    await waitFor(() => expect(within(first.element).getByRole("status").textContent).toBe('A newer edit of "Plan.md" came after this one: undo that one first.'), patiently);
    expect(readFileSync(join(vault.root, "Plan.md"), "utf8")).toBe("count: three\n");
    expect(bannerOf(answers()[0]!).line).toBe("Edited +1 −1 · Plan.md");
    // The newest one can be undone, and only it reads Undone.
    fireEvent.click(bannerOf(answers()[1]!).undo()!);
    await waitFor(() => expect(bannerOf(answers()[1]!).line).toBe("Undone · Plan.md"), patiently);
    expect(readFileSync(join(vault.root, "Plan.md"), "utf8")).toBe("count: two\n");
    expect(bannerOf(answers()[0]!).line).toBe("Edited +1 −1 · Plan.md");
  });

  it("a rejected edit reads Rejected · note, outcome first, with no ✓, and keeps the user's reason inside", async () => {
    await session.open([replace("Plan.md", "draft", "final"), { text: "Left it." }], { notes: { "Plan.md": "status: draft\n" } });
    await send("finalise");
    const card = await screen.findByRole("region", { name: "Edit Plan.md?" }, patiently);
    fireEvent.change(within(card).getByRole("textbox"), { target: { value: "نص السبب: ليس بعد" } });
    fireEvent.click(within(card).getByRole("button", { name: "Reject" }));
    await waitFor(() => expect(answers()[0]?.textContent).toContain("Left it."), patiently);
    const banner = bannerOf(answers()[0]!);
    expect([banner.line, banner.glyph, banner.undo()]).toEqual(["Rejected · Plan.md", "✕", null]);
    expect(banner.element.className).not.toContain("is-done");
    expect(banner.element.querySelector(".vault-copilot-tool-edit-reason")?.textContent).toBe("Your reason: نص السبب: ليس بعد");
  });

  it("results read as a short summary, arguments as key: value lines, and the model's text stays behind Details", async () => {
    const notes = { "Травы/Мята.md": "Мята любит тень. 薄荷喜欢阴凉。", "Травы/Базилик.md": "Базилик любит солнце и мяту.", "Травы/Тимьян.md": "Тимьян рядом с мятой." };
    await session.open(
      [
        { toolCalls: [{ name: "localSearch", arguments: JSON.stringify({ query: "мята", salientTerms: ["мята", "薄荷"] }) }] },
        { toolCalls: [{ name: "readNote", arguments: JSON.stringify({ notePath: "Травы/Мята.md" }) }] },
        { text: "Ответ: тень." },
      ],
      { notes },
    );
    await send("Что любит мята?");
    await waitFor(() => expect(answers()[0]?.textContent).toContain("Ответ: тень."), patiently);
    const [search, read] = [...answers()[0]!.querySelectorAll<HTMLElement>(".vault-copilot-tool-banner")];
    const found = search!.querySelectorAll(".vault-copilot-tool-hits li").length;
    expect(found).toBeGreaterThan(0);
    expect(search!.querySelector(".vault-copilot-tool-title")?.textContent).toBe(`Searched your notes · ${found} note${found === 1 ? "" : "s"} found`);
    expect(read!.querySelector(".vault-copilot-tool-title")?.textContent).toBe(`Read a note · Травы/Мята.md (${notes["Травы/Мята.md"].length} characters)`);
    expect(search!.querySelector(".vault-copilot-tool-args")?.textContent).toBe("query: мята\nsalientTerms: мята, 薄荷");
    // The model's text (the search payload's tags) is folded under Details, not in the opened banner's own text.
    const details = search!.querySelector<HTMLDetailsElement>(".vault-copilot-tool-details")!;
    expect(details.querySelector("summary")?.textContent).toBe("Details");
    expect(details.open).toBe(false);
    expect(details.querySelector(".vault-copilot-tool-result")?.textContent).toContain("<localSearch>");
    const outsideDetails = [...search!.querySelector(".vault-copilot-tool-body")!.children].filter((child) => child !== details).map((child) => child.textContent).join("\n");
    expect(outsideDetails).not.toContain("<");
  });

  it("a failed call reads '<tool> failed', says why in a sentence starting with a capital, and keeps the model's text behind Details", async () => {
    await session.open([{ toolCalls: [{ name: "readNote", arguments: JSON.stringify({ notePath: "Нет такой.md" }) }] }, { text: "Не нашёл." }]);
    await send("Прочитай");
    await waitFor(() => expect(answers()[0]?.textContent).toContain("Не нашёл."), patiently);
    const banner = bannerOf(answers()[0]!);
    expect([banner.line, banner.glyph]).toEqual(["Read note failed", "!"]);
    const sentence = banner.element.querySelector(".vault-copilot-tool-error")?.textContent ?? "";
    expect(sentence).toMatch(/^\p{Lu}/u);
    expect(sentence).toContain("Нет такой");
    expect(sentence).not.toContain('Tool "readNote" failed');
    expect(banner.element.querySelector(".vault-copilot-tool-details .vault-copilot-tool-result")?.textContent).toMatch(/^Tool "readNote" failed: /);
  });

  describe("in another language", () => {
    const de = (key: MessageKey, values?: MessageValues) => translate(languageFor("de"), key, values);
    const ja = (key: MessageKey, values?: MessageValues) => translate(languageFor("ja"), key, values);
    afterEach(() => window.localStorage.removeItem("language"));

    it("a failed call says why in the interface's language by the failure's kind, while the model reads the English sentence", async () => {
      window.localStorage.setItem("language", "de");
      await session.open(
        [
          { toolCalls: [{ name: "readNote", arguments: JSON.stringify({ notePath: "Нет такой.md" }) }] },
          replace(NOTE, "нет этих слов", "新しい"),
          { toolCalls: [{ name: "readNote", arguments: JSON.stringify({ notePath: 42 }) }] },
          { text: "Не получилось." },
        ],
        { notes: { [NOTE]: "черновик 草稿 🌱\n" } },
      );
      const box = screen.getByRole("textbox", { name: de("composer.message") });
      fireEvent.change(box, { target: { value: "Прочитай" } });
      fireEvent.keyDown(box, { key: "Enter" });
      const log = () => screen.getByRole("log", { name: de("conversation.label") });
      await waitFor(() => expect(log().textContent).toContain("Не получилось."), patiently);
      const sentences = [...log().querySelectorAll(".vault-copilot-tool-banner")].map((banner) => banner.querySelector(".vault-copilot-tool-error")?.textContent);
      expect(sentences).toEqual(["Keine Notiz passt zu „Нет такой.md“.", `Der zu ersetzende Text wurde in „${NOTE}“ nicht gefunden, daher wurde nichts geändert.`, "Das Modell hat Argumente geschickt, die das Werkzeug nicht verwenden kann (notePath); es wird gebeten, sie neu zu senden."]);
      // The model reads what it read before, in English, whatever the interface's language.
      expect(session.server.requests[1]!.rawBody).toContain('Tool \\"readNote\\" failed: No note matches \\"Нет такой.md\\"');
      expect(session.server.requests[2]!.rawBody).toContain("oldText was not found in");
    });

    it("an Undo that cannot be done says why in the interface's language, and changes nothing", async () => {
      window.localStorage.setItem("language", "ja");
      const { vault } = await session.open([replace("計画/Plan.md", "下書き", "完成"), { text: "完了。" }], { notes: { "計画/Plan.md": "状態: 下書き\n" } });
      const box = screen.getByRole("textbox", { name: ja("composer.message") });
      fireEvent.change(box, { target: { value: "仕上げて" } });
      fireEvent.keyDown(box, { key: "Enter" });
      const card = await screen.findByRole("region", { name: ja("approval.edit", { path: "計画/Plan.md" }) }, patiently);
      const accept = within(card).getByRole("button", { name: ja("approval.accept") });
      await waitFor(() => expect(accept.getAttribute("aria-disabled")).toBe("false"), patiently);
      fireEvent.click(accept);
      const log = () => screen.getByRole("log", { name: ja("conversation.label") });
      await waitFor(() => expect(log().textContent).toContain("完了。"), patiently);
      writeFileSync(join(vault.root, "計画/Plan.md"), "状態: 完成\n自分で書いた行 ✍️\n");
      const banner = log().querySelector<HTMLElement>(".vault-copilot-tool-banner")!;
      fireEvent.click(within(banner).getByRole("button", { name: ja("banner.undo") }));
      await waitFor(() => expect(within(banner).getByRole("status").textContent).toBe("Copilot による「計画/Plan.md」の直前の編集を元に戻せません。編集のあとでノートが変更されています。何も変更していません。"), patiently);
      expect(readFileSync(join(vault.root, "計画/Plan.md"), "utf8")).toBe("状態: 完成\n自分で書いた行 ✍️\n");
    });
  });
});
