/**
 * A message that could not be sent because the chat's project is gone or its note is broken,
 * and prompt and project notes that did not load, as the user reads them: in English the core's
 * own sentence, in another language the sentence for its case (names, paths and the parser's own
 * words as written). The real CopilotView on the Obsidian double over a real folder, and the
 * notes' problems as the loaders report them.
 */
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { chatViewSession } from "../../test/helpers/chatViewSession";
import { PROJECT_NAME, projectVaultNotes } from "../../test/helpers/projectVault";
import { makeTempVault } from "../../test/helpers/tempVault";
import { loadPrompts } from "../prompts/customPrompt";
import { loadProjects } from "../projects/projectNote";
import { FsVault } from "../vault/FsVault";
import { noteLoadText } from "./coreNotices";

jest.setTimeout(20_000);

const BROKEN = "Сломанный 壊れた 🧩";
const session = chatViewSession({ settings: { defaultMode: "chat" }, notes: { ...projectVaultNotes(), [`copilot/projects/${BROKEN}.md`]: "---\nmode: говорить\n---\nИнструкции.\n" } });
const notices = () => [...document.body.querySelectorAll(".notice")].map((notice) => notice.textContent);

/** Sends a message in the chat view with the chat in `project`; resolves once the Notice is shown. */
async function sendIn(project: string): Promise<void> {
  const chat = await session.open([{ text: "Не должен отвечать." }]);
  await act(() => chat.view.getController()!.setProject(project));
  const box = screen.getAllByRole("textbox")[0]!;
  fireEvent.change(box, { target: { value: "Что нового?" } });
  fireEvent.keyDown(box, { key: "Enter" });
  await waitFor(() => expect(notices()).toHaveLength(1));
  expect(session.server.requests).toHaveLength(0);
}

describe("a message that could not be sent, in the chat view", () => {
  afterEach(() => window.localStorage.removeItem("language"));

  it("in English, the Notice reads the core's sentence", async () => {
    await sendIn("Нет такого ไม่มี");
    expect(notices()).toEqual([`Vault Copilot: No project named "Нет такого ไม่มี" in the projects folder "copilot/projects" (its projects: "${PROJECT_NAME}").`]);
  });

  it("in German, a project that is gone", async () => {
    window.localStorage.setItem("language", "de");
    await sendIn("Нет такого ไม่มี");
    expect(notices()).toEqual([`Vault Copilot: Im Projektordner „copilot/projects“ gibt es kein Projekt namens „Нет такого ไม่มี“ (vorhandene Projekte: ${PROJECT_NAME}).`]);
  });

  it("in Japanese, a project whose note is broken", async () => {
    window.localStorage.setItem("language", "ja");
    await sendIn(BROKEN);
    expect(notices()).toEqual([`Vault Copilot：プロジェクト「copilot/projects/${BROKEN}.md」を読み込めませんでした：モード "говорить" は chat, vault-qa, agent のどれでもありません。`]);
  });
});

describe("prompt and project notes that did not load", () => {
  async function problems() {
    const folder = makeTempVault({
      "copilot/prompts/Перевод 翻訳.md": "---\nedit: да\n---\nTranslate {{selection}}.\n",
      "copilot/prompts/Пустой.md": "---\ndescription: ничего\n---\n   \n",
      "copilot/projects/مشروع.md": "---\ntags: ['#12']\n---\n",
      "copilot/projects/Cafe\u0301.md": "---\nfolders: [a\n---\n",
    });
    try {
      const vault = new FsVault(folder.root);
      const prompts = (await loadPrompts(vault, "copilot/prompts")).problems.map((problem) => noteLoadText("prompt", problem));
      const projects = (await loadProjects(vault, "copilot/projects")).problems.map((problem) => noteLoadText("project", problem));
      return [...prompts, ...projects];
    } finally {
      folder.remove();
    }
  }
  afterEach(() => window.localStorage.removeItem("language"));

  it("in English, read the loaders' sentences", async () => {
    expect(await problems()).toEqual([
      'The prompt "copilot/prompts/Перевод 翻訳.md" was not loaded: its "edit" is not true or false.',
      'The prompt "copilot/prompts/Пустой.md" was not loaded: it has no prompt text.',
      expect.stringMatching(/^The project "copilot\/projects\/Cafe\u0301\.md" was not loaded: its frontmatter is not valid YAML \(.+\)\.$/),
      'The project "copilot/projects/مشروع.md" was not loaded: its tag "#12" is not a tag.',
    ]);
  });

  it("in Russian and in Chinese, say each reason by its case", async () => {
    window.localStorage.setItem("language", "ru");
    expect(await problems()).toEqual([
      "Промпт «copilot/prompts/Перевод 翻訳.md» не загружен: его «edit» — не true и не false.",
      "Промпт «copilot/prompts/Пустой.md» не загружен: в нём нет текста промпта.",
      expect.stringMatching(/^Проект «copilot\/projects\/Cafe\u0301\.md» не загружен: его свойства — не корректный YAML \(.+\)\.$/),
      "Проект «copilot/projects/مشروع.md» не загружен: его тег «#12» — не тег.",
    ]);
    window.localStorage.setItem("language", "zh");
    expect(await problems()).toEqual([
      "提示词“copilot/prompts/Перевод 翻訳.md”未能加载：它的“edit”不是 true 或 false。",
      "提示词“copilot/prompts/Пустой.md”未能加载：它没有提示词正文。",
      expect.stringMatching(/^项目“copilot\/projects\/Cafe\u0301\.md”未能加载：它的属性不是有效的 YAML（.+）。$/),
      "项目“copilot/projects/مشروع.md”未能加载：它的标签“#12”不是有效的标签。",
    ]);
  });
});
