import { useEffect, useMemo, useRef, type MouseEvent, type TouchEvent } from "react";
import type { ChatController } from "../../chat/ChatController";
import { answerText, type ChatMessage } from "../../chat/chatTypes";
import { answerActions, showAnswerMenu, type AnswerAction } from "./answerActions";
import { useChatHost } from "./ChatHost";
import { LongPress, type PressPoint } from "./longPress";

/** Where a long press is the control's own (a link opens, a banner folds, text is typed): no answer menu there. */
const OWN_PRESS = "a, button, input, textarea, select, summary, label, [role='button'], .vault-copilot-approval";

export interface AnswerPressHandlers {
  onTouchStart?: (event: TouchEvent) => void;
  onTouchMove?: (event: TouchEvent) => void;
  onTouchEnd?: (event: TouchEvent) => void;
  onTouchCancel?: (event: TouchEvent) => void;
  onContextMenu?: (event: MouseEvent) => void;
}

/**
 * Touch handlers for an answer's article: a finger resting on a finished answer opens Obsidian's
 * menu with its actions (Copy, Insert at cursor, Regenerate), the same ones its buttons offer.
 * A question, an answer still streaming and a mouse's right click get nothing.
 */
export function useAnswerLongPress({ message, isLast, running, controller }: { message: ChatMessage; isLast: boolean; running: boolean; controller: ChatController }): AnswerPressHandlers {
  const host = useChatHost();
  const actions = useRef<readonly AnswerAction[]>([]);
  const finished = message.role === "assistant" && message.status !== "streaming";
  const text = finished ? answerText(message) : "";
  actions.current = finished ? answerActions(host, controller, text, isLast && !running && (text !== "" || message.status !== "error")) : [];
  const documentOf = useRef<Document | null>(null);
  const press = useMemo(() => new LongPress((at) => documentOf.current && showAnswerMenu(actions.current, at, documentOf.current)), []);
  useEffect(() => () => press.cancel(), [press]);
  if (!finished) return {};

  const point = (event: TouchEvent): PressPoint | null => {
    const touch = event.touches[0] ?? event.changedTouches[0];
    return touch ? { x: touch.clientX, y: touch.clientY } : null;
  };
  return {
    onTouchStart: (event) => {
      const target = event.target as Element;
      const at = point(event);
      // A second finger is a pinch, not a press.
      if (!at || event.touches.length > 1 || target.closest?.(OWN_PRESS)) {
        press.cancel();
        return;
      }
      documentOf.current = event.currentTarget.ownerDocument;
      press.start(at);
    },
    onTouchMove: (event) => {
      const at = point(event);
      if (at) press.move(at);
    },
    onTouchEnd: (event) => {
      // The finger lifting after the menu opened is not a tap on what lay under it.
      if (press.end()) event.preventDefault();
    },
    onTouchCancel: () => press.cancel(),
    onContextMenu: (event) => {
      // Android's own long press: the answer's menu instead of the system's (a mouse's right click is left alone).
      if (press.system({ x: event.clientX, y: event.clientY })) event.preventDefault();
    },
  };
}
