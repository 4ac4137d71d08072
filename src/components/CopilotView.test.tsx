/**
 * Opening the chat view: what the user waits for first is drawn first. The real CopilotView in
 * the Obsidian double, over the real services and the scripted server on 127.0.0.1. No act()
 * here: it would draw everything before the test looks, and when things are drawn is the point.
 */
import { screen, waitFor, within } from "@testing-library/react";
import { openChatView, type ChatViewSetup } from "../../test/helpers/chatViewHarness";
import { startOpenAIServer, type OpenAIServer } from "../../test/helpers/openAIServer";

const actEnvironment = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
let server: OpenAIServer | undefined;
let chat: ChatViewSetup | undefined;
let wasActEnvironment: boolean | undefined;

beforeEach(() => {
  wasActEnvironment = actEnvironment.IS_REACT_ACT_ENVIRONMENT;
  actEnvironment.IS_REACT_ACT_ENVIRONMENT = false;
});

afterEach(async () => {
  await chat?.close();
  chat = undefined;
  await server?.close();
  server = undefined;
  document.body.replaceChildren();
  actEnvironment.IS_REACT_ACT_ENVIRONMENT = wasActEnvironment;
});

describe("opening the chat view", () => {
  it("has the Message box drawn when it has opened, and asks the server for its models only after that first frame", async () => {
    server = await startOpenAIServer([]);
    const asked: Array<{ boxShown: boolean }> = [];
    chat = await openChatView(server, {
      settings: { defaultMode: "chat" },
      listServerModels: () => {
        asked.push({ boxShown: screen.queryByRole("textbox", { name: "Message" }) !== null });
        return Promise.resolve(["模型-二", "модель-3"]);
      },
    });
    // onOpen has returned: the box is in the page for the frame that shows the new leaf.
    expect(screen.getByRole("textbox", { name: "Message" })).toBeTruthy();
    expect(asked).toEqual([]);
    await waitFor(() => expect(asked).toEqual([{ boxShown: true }]));
    const picker = screen.getByRole("combobox", { name: "Model" });
    await waitFor(() => expect(within(picker).getAllByRole("option").map((option) => option.textContent)).toEqual([chat!.settings.provider.model, "模型-二", "модель-3"]));
  });
});
