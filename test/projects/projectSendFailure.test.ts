/**
 * @jest-environment node
 *
 * A message sent in a chat whose project is gone, or whose project note is broken, is not sent:
 * the chat tells why with the English sentence (the CLI prints it) and beside it the case with
 * its values, for a view in another language. A chat opened as the view opens it (`openChat`),
 * real folder, the scripted OpenAI server (which must not be asked).
 */
import type { ChatProblem, OpenChat } from "../../src/app/openChat";
import { makeChat, type ChatSetup } from "../helpers/chatHarness";
import { openProjectChat } from "../helpers/projectChat";
import { startOpenAIServer, type OpenAIServer } from "../helpers/openAIServer";
import { PROJECT_NAME, projectVaultNotes } from "../helpers/projectVault";

jest.setTimeout(30_000);

const BROKEN = "Сломанный 壊れた 🧩";

describe("a message in a project that cannot be opened", () => {
  let server: OpenAIServer;
  let chat: ChatSetup;
  let opened: OpenChat;
  const told: { message: string; reason: ChatProblem | undefined }[] = [];

  beforeEach(async () => {
    server = await startOpenAIServer(() => ({ text: "Не должен отвечать." }));
    chat = makeChat(server, {
      notes: { ...projectVaultNotes(), [`copilot/projects/${BROKEN}.md`]: "---\nmode: говорить\n---\nИнструкции.\n" },
      settings: { defaultMode: "chat" },
    });
    told.length = 0;
    opened = openProjectChat(chat, (message, reason) => told.push({ message, reason }));
  });
  afterEach(async () => {
    await opened.close();
    await chat.dispose();
    await server.close();
  });

  it("a project no note names: the name, the folder and the projects it holds", async () => {
    await opened.controller.setProject("Нет такого ไม่มี");
    await opened.controller.send("Что нового?");
    expect(told).toEqual([
      {
        message: `No project named "Нет такого ไม่มี" in the projects folder "copilot/projects" (its projects: "${PROJECT_NAME}").`,
        reason: { about: "send", case: { code: "no-project", name: "Нет такого ไม่มี", folder: "copilot/projects", known: [PROJECT_NAME] } },
      },
    ]);
    expect(server.requests).toHaveLength(0);
    expect(opened.controller.getState().messages).toEqual([]);
  });

  it("a broken project note: its path and its problem's case", async () => {
    await opened.controller.setProject(BROKEN);
    await opened.controller.send("Что нового?");
    expect(told).toEqual([
      {
        message: `The project "copilot/projects/${BROKEN}.md" was not loaded: its mode "говорить" is not one of chat, vault-qa, agent.`,
        reason: { about: "send", case: { code: "project-broken", path: `copilot/projects/${BROKEN}.md`, problem: { code: "mode-invalid", mode: '"говорить"', modes: "chat, vault-qa, agent" } } },
      },
    ]);
    expect(server.requests).toHaveLength(0);
  });
});
