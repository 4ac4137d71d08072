import { openChat, type ChatOptions, type OpenChat } from "../../src/app/openChat";
import type { ChatSetup } from "./chatHarness";

/**
 * A chat opened as the chat view opens one (`openChat`), not kept as a note: its chips are listed
 * in the vault of the chat's project while it is in one, and what it cannot read or send goes to
 * `onProblem` with its case.
 */
export function openProjectChat(chat: ChatSetup, onProblem: ChatOptions["onProblem"]): OpenChat {
  const { services } = chat;
  const opened: OpenChat = openChat(services, {
    defaults: () => ({ mode: "chat", model: chat.settings.provider.model }),
    listingVault: async () => {
      const project = opened.controller.getState().project;
      return project === null ? undefined : (await services.openProject(project)).vault;
    },
    keep: false,
    onProblem,
  });
  return opened;
}
