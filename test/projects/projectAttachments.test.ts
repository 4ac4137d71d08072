/**
 * @jest-environment node
 *
 * A project's scope holds for what is attached besides notes typed by hand. In a chat opened the
 * one way the view and the CLI open one (`openChat`), images, PDFs and canvases are read only from
 * inside the project: an image, PDF or canvas chip of a file outside it is refused, and an image a
 * project note embeds from outside is left out, while the project's own images and PDFs go. Through the CLI, `--attach`
 * of a vault file outside the project ends the command with exit 1 and one line before anything
 * is read or sent, with `--project` and when `--continue` goes on with a chat in the project.
 * Real folder, the scripted OpenAI server (which checks each image as the API does).
 */
import type { ChatProblem, OpenChat } from "../../src/app/openChat";
import { imageChip, noteChip } from "../../src/chat/chipArtifacts";
import { withImageSupport } from "../../src/LLMProviders/modelChoice";
import { OutsideProjectError } from "../../src/projects/ScopedVault";
import { makeChat, type ChatSetup } from "../helpers/chatHarness";
import { openProjectChat } from "../helpers/projectChat";
import { pngImage } from "../helpers/imageFiles";
import { unicodePdf } from "../helpers/pdfFiles";
import { openAIImages } from "../helpers/imageWireChecks";
import { startOpenAIServer, type OpenAIServer } from "../helpers/openAIServer";
import { PROJECT_NAME, projectVaultNotes } from "../helpers/projectVault";
import { runCli } from "../helpers/runCli";
import { makeTempVault, type TempVault } from "../helpers/tempVault";

jest.setTimeout(60_000);

/** The project's own image, and one outside it (its name in Cyrillic with an emoji, its folder outside). */
const INSIDE_IMAGE_PATH = "Тезис/рисунок 图.png";
const OUTSIDE_IMAGE_PATH = "Личное/фото 🔒.png";
const INSIDE_IMAGE = pngImage(40, 30, [10, 200, 40]);
const OUTSIDE_IMAGE = pngImage(50, 20, [220, 20, 20]);
/** The project's own PDF and, outside it, a PDF and a canvas. */
const INSIDE_PDF_PATH = "Тезис/Статья.pdf";
const OUTSIDE_PDF_PATH = "Личное/Выписка 💳.pdf";
const OUTSIDE_CANVAS_PATH = "Личное/Планы.canvas";
const OUTSIDE_CANVAS = JSON.stringify({ nodes: [{ id: "a", type: "text", text: "Отпуск في الصيف", x: 0, y: 0, width: 10, height: 10 }], edges: [] });
/** A project note that embeds both. */
const FIGURES_NOTE_PATH = "Тезис/Рисунки.md";
const FIGURES_NOTE = "# Рисунки\n\nСхема выборки: ![[рисунок 图.png]]\n\nИ ещё: ![[фото 🔒.png]]\n";

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const imagesSent = (server: OpenAIServer) => server.requests.flatMap((request) => openAIImages(request.body.messages).map((image) => image.data));

describe("a project's scope for images, PDFs and canvases, in a chat opened as the view opens it", () => {
  let server: OpenAIServer;
  let chat: ChatSetup;
  let opened: OpenChat;
  const told: string[] = [];
  const cases: (ChatProblem | undefined)[] = [];

  beforeEach(async () => {
    server = await startOpenAIServer(() => ({ text: "Вижу." }));
    chat = makeChat(server, {
      notes: { ...projectVaultNotes(), [FIGURES_NOTE_PATH]: FIGURES_NOTE },
      files: {
        [INSIDE_IMAGE_PATH]: INSIDE_IMAGE,
        [OUTSIDE_IMAGE_PATH]: OUTSIDE_IMAGE,
        [INSIDE_PDF_PATH]: unicodePdf(["Выборка: 120 человек", "Итоги 结论"]),
        [OUTSIDE_PDF_PATH]: unicodePdf(["Баланс 9 999 ₽"]),
        [OUTSIDE_CANVAS_PATH]: new TextEncoder().encode(OUTSIDE_CANVAS),
      },
      settings: { defaultMode: "chat" },
    });
    Object.assign(chat.settings, withImageSupport(chat.settings, chat.settings.provider.model, true));
    told.length = 0;
    cases.length = 0;
    opened = openProjectChat(chat, (message, reason) => {
      told.push(message);
      cases.push(reason);
    });
    await opened.controller.setProject(PROJECT_NAME, { mode: "chat" });
  });
  afterEach(async () => {
    await opened.close();
    await chat.dispose();
    await server.close();
  });

  it("refuses an image chip outside the project, leaves out an image a project note embeds from outside, and sends the project's own", async () => {
    opened.controller.addChip(imageChip(OUTSIDE_IMAGE_PATH));
    await opened.controller.send("Что на фото?");
    expect(told).toEqual([`${OUTSIDE_IMAGE_PATH}: it is outside the chat's project, so it was not sent`]);
    // The view is told the case beside the sentence, to say it in its own language.
    expect(cases).toEqual([{ about: "chip", case: { code: "outside-project", path: OUTSIDE_IMAGE_PATH } }]);
    expect(server.requests).toHaveLength(1);
    expect(imagesSent(server)).toEqual([]);

    opened.controller.addChip(noteChip(FIGURES_NOTE_PATH));
    await opened.controller.send("Что на рисунках?");
    expect(told.slice(1)).toEqual([`${OUTSIDE_IMAGE_PATH}: it is outside the chat's project, so it was not sent`]);
    expect(server.requests).toHaveLength(2);
    expect(imagesSent(server)).toEqual([base64(INSIDE_IMAGE)]);
    expect(JSON.stringify(server.requests.map((request) => request.body.messages))).not.toContain(base64(OUTSIDE_IMAGE));
  });

  it("refuses a PDF or canvas chip outside the project, and sends the project's own PDF by its pages", async () => {
    opened.controller.addChip(noteChip(OUTSIDE_PDF_PATH));
    opened.controller.addChip(noteChip(OUTSIDE_CANVAS_PATH));
    opened.controller.addChip(noteChip(INSIDE_PDF_PATH));
    await opened.controller.send("О чём статья?");
    expect(told).toEqual([
      `${OUTSIDE_PDF_PATH}: it is outside the chat's project, so it was not sent`,
      `${OUTSIDE_CANVAS_PATH}: it is outside the chat's project, so it was not sent`,
    ]);
    expect(cases).toEqual([OUTSIDE_PDF_PATH, OUTSIDE_CANVAS_PATH].map((path) => ({ about: "chip", case: { code: "outside-project", path } })));
    expect(server.requests).toHaveLength(1);
    const sent = JSON.stringify(server.requests[0]!.body.messages);
    expect(sent).toContain(JSON.stringify("[page 1]\nВыборка: 120 человек\n\n[page 2]\nИтоги 结论").slice(1, -1));
    expect(sent).not.toContain("Баланс");
    expect(sent).not.toContain("Отпуск");
  });

  it("the project's vault refuses the bytes of a file outside it, as it refuses its text", async () => {
    const { vault } = await chat.services.openProject(PROJECT_NAME);
    expect(await vault.readBinary(INSIDE_IMAGE_PATH)).toEqual(new Uint8Array(INSIDE_IMAGE));
    await expect(vault.readBinary(OUTSIDE_IMAGE_PATH)).rejects.toBeInstanceOf(OutsideProjectError);
  });
});

describe("--attach inside a project", () => {
  let vault: TempVault;
  let server: OpenAIServer;

  beforeEach(async () => {
    vault = makeTempVault({ ...projectVaultNotes(), [INSIDE_IMAGE_PATH]: INSIDE_IMAGE, [OUTSIDE_IMAGE_PATH]: OUTSIDE_IMAGE });
    server = await startOpenAIServer(() => ({ text: "Готово." }));
  });
  afterEach(async () => {
    await server.close();
    vault.remove();
  });

  const chatFlags = () => ["chat", "--vault", vault.root, "--base-url", server.baseUrl, "--model", "vision-model"];

  it.each([
    ["a note", "Личное/Дневник 2026.md"],
    ["an image", OUTSIDE_IMAGE_PATH],
  ])("of %s outside the project ends the command with exit 1 and one line, and nothing is sent", async (_kind, path) => {
    const result = await runCli([...chatFlags(), "--project", PROJECT_NAME, "--attach", path, "Что там?"]);
    expect(result).toEqual({
      status: 1,
      stdout: "",
      stderr: `vault-copilot: --attach: "${path}" is outside the project "${PROJECT_NAME}"; inside a project only its own files can be attached\n`,
    });
    expect(server.requests).toHaveLength(0);
  });

  it("of the project's own image sends it", async () => {
    const result = await runCli([...chatFlags(), "--project", PROJECT_NAME, "--attach", INSIDE_IMAGE_PATH, "Что на рисунке?"]);
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: "" });
    expect(imagesSent(server)).toEqual([base64(INSIDE_IMAGE)]);
  });

  it("holds for a chat --continue goes on with in the project, without --project", async () => {
    const saved = await runCli([...chatFlags(), "--project", PROJECT_NAME, "--save", "Первый вопрос"]);
    expect(saved.status).toBe(0);
    const path = /saved to (.+)\n/.exec(saved.stderr)?.[1] ?? "";
    const result = await runCli([...chatFlags(), "--continue", path, "--attach", "Работа/Зарплата.md", "Второй вопрос"]);
    expect({ status: result.status, stderr: result.stderr }).toEqual({
      status: 1,
      stderr: `vault-copilot: --attach: "Работа/Зарплата.md" is outside the project "${PROJECT_NAME}"; inside a project only its own files can be attached\n`,
    });
    expect(server.requests).toHaveLength(1);
  });
});
