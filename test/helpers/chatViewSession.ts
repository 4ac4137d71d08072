import { act } from "@testing-library/react";
import { openChatView, type ChatViewSetup } from "./chatViewHarness";
import { startOpenAIServer, type OpenAIServer, type Script } from "./openAIServer";

export interface ChatViewSession {
  /** Starts the scripted server and opens the chat view over it (one per test). */
  open(script: Script, options?: Parameters<typeof openChatView>[1]): Promise<ChatViewSetup>;
  /** The server and the view of the running test. */
  readonly server: OpenAIServer;
  readonly chat: ChatViewSetup;
}

/**
 * For a test file of the chat view (jsdom): each test opens its view with `open`, and after each
 * test the view is closed (as Obsidian closes its leaf), the server stopped and the page emptied.
 */
export function chatViewSession(defaults: Parameters<typeof openChatView>[1] = {}): ChatViewSession {
  let server: OpenAIServer | undefined;
  let chat: ChatViewSetup | undefined;
  afterEach(async () => {
    await act(async () => {
      await chat?.close();
    });
    chat = undefined;
    await server?.close();
    server = undefined;
    document.body.replaceChildren();
  });
  return {
    async open(script, options = {}) {
      const started = await startOpenAIServer(script);
      server = started;
      chat = await act(() => openChatView(started, { ...defaults, ...options }));
      return chat;
    },
    get server() {
      if (!server) throw new Error("no server: call open() first");
      return server;
    },
    get chat() {
      if (!chat) throw new Error("no chat view: call open() first");
      return chat;
    },
  };
}
