import { useSyncExternalStore } from "react";
import type { ChatController } from "../../chat/ChatController";
import type { ChatState } from "../../chat/chatTypes";

/**
 * One field of the chat's state, drawn again only when that field changes. A streaming answer
 * changes `messages` once a frame; the parts of the view that do not draw messages (the header,
 * the message box, Related notes) read their own fields, so a frame of the stream leaves them
 * alone and a keystroke in the box does not wait behind them.
 */
export function useChatState<Key extends keyof ChatState>(controller: ChatController, key: Key): ChatState[Key] {
  return useSyncExternalStore(controller.subscribe, () => controller.getState()[key]);
}
