import { useEffect, useMemo, useRef, type MouseEvent, type TouchEvent } from "react";
import type { ChatController } from "../../chat/ChatController";
import type { ChatMessage } from "../../chat/chatTypes";
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
  /** What the press under way would offer, and where: set when the finger goes down. */
  const pressed = useRef<{ actions: readonly AnswerAction[]; doc: Document } | null>(null);
  const press = useMemo(() => new LongPress((at) => pressed.current && showAnswerMenu(pressed.current.actions, at, pressed.current.doc)), []);
  useEffect(() => () => press.cancel(), [press]);
  if (message.role !== "assistant" || message.status === "streaming") return {};

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
      pressed.current = { actions: answerActions(host, controller, message, isLast && !running), doc: event.currentTarget.ownerDocument };
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
