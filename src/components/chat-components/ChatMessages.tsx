import { useLayoutEffect, useRef, useState } from "react";
import type { ChatController } from "../../chat/ChatController";
import type { ChatState } from "../../chat/chatTypes";
import type { TokenUsage } from "../../LLMProviders/tokenUsage";
import { chatUsage, formatUsage, usageLabel } from "../../chat/usageLine";
import { useChatHost } from "./ChatHost";
import { ChatSingleMessage } from "./ChatSingleMessage";
import { EmptyChat } from "./EmptyChat";

/** How close to the bottom (px) still counts as "at the bottom" (following the stream). */
const FOLLOW_SLACK_PX = 32;
const NO_APPROVALS: ChatState["approvals"] = [];

/** Keys that scroll the conversation when it has the focus: the user's own scrolling, as a wheel or a drag is. */
const SCROLL_KEYS = new Set(["ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End", " "]);

/**
 * The conversation: a log named "Conversation". It follows a streaming answer down to the end of
 * its footer (Copy, Insert, Regenerate, the sources), and stops following only when the user
 * scrolls (wheel, touch, the scroll bar, keys): a re-render that shrinks the content a moment
 * does not stop it. Away from the bottom, a "Newest" button goes back down and follows again, and
 * when the conversation gets shorter or taller (an on-screen keyboard opens or closes) the line at
 * its lower edge stays where it is, so the same place is back when the keyboard closes. Its
 * own live announcements are off (they would read every token); the view announces a finished
 * answer once instead.
 */
export function ChatMessages({ state, controller, onExample }: { state: ChatState; controller: ChatController; onExample: (question: string) => void }) {
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  /** Set by the user's own scrolling gestures; only then may a scroll stop the following. */
  const userScrolled = useRef(false);
  const [awayFromBottom, setAwayFromBottom] = useState(false);

  const toBottom = () => {
    const element = scroller.current;
    if (!element) return;
    userScrolled.current = false;
    element.scrollTop = element.scrollHeight;
  };

  useLayoutEffect(() => {
    const element = scroller.current;
    const inner = content.current;
    if (!element || !inner) return;
    const atBottom = () => element.scrollHeight - element.scrollTop - element.clientHeight <= FOLLOW_SLACK_PX;
    let height = element.clientHeight;
    const follow = () => {
      const shrunk = height - element.clientHeight;
      height = element.clientHeight;
      if (following.current) toBottom();
      else if (shrunk !== 0) element.scrollTop += shrunk;
    };
    const onScroll = () => {
      const bottom = atBottom();
      // Only the user's own scrolling starts or stops the following: content that shrinks a
      // moment (an answer's last block drawn again) clamps the scroll to the bottom, which is
      // not the user coming back down.
      if (userScrolled.current) following.current = bottom;
      setAwayFromBottom(!bottom && !following.current);
    };
    const onGesture = () => (userScrolled.current = true);
    const onKey = (event: KeyboardEvent) => {
      if (SCROLL_KEYS.has(event.key) && event.target === element) userScrolled.current = true;
    };
    // A press on the scroller itself (not on a message) is its scroll bar.
    const onPointerDown = (event: PointerEvent) => {
      if (event.target === element) userScrolled.current = true;
    };
    element.addEventListener("scroll", onScroll, { passive: true });
    element.addEventListener("wheel", onGesture, { passive: true });
    element.addEventListener("touchmove", onGesture, { passive: true });
    element.addEventListener("keydown", onKey);
    element.addEventListener("pointerdown", onPointerDown);
    // Rendered Markdown arrives after React's commit (Obsidian renders asynchronously), and the
    // view itself changes height (the message box grows, Related notes open): follow both.
    const observer = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(follow);
    observer?.observe(inner);
    observer?.observe(element);
    return () => {
      element.removeEventListener("scroll", onScroll);
      element.removeEventListener("wheel", onGesture);
      element.removeEventListener("touchmove", onGesture);
      element.removeEventListener("keydown", onKey);
      element.removeEventListener("pointerdown", onPointerDown);
      observer?.disconnect();
    };
  }, []);

  useLayoutEffect(() => {
    if (following.current) toBottom();
  }, [state.messages, state.approvals]);

  const lastAnswer = state.messages.at(-1);
  const lastQuestionIndex = state.messages.findLastIndex((message) => message.role === "user");
  return (
    <div className="vault-copilot-messages" ref={scroller} role="log" aria-label="Conversation" aria-live="off" tabIndex={0}>
      <div className="vault-copilot-messages-inner" ref={content}>
        {state.messages.length === 0 && <EmptyChat mode={state.mode} onExample={onExample} />}
        {state.messages.map((message, index) => (
          <ChatSingleMessage
            key={message.id}
            message={message}
            isLast={message === lastAnswer || index === lastQuestionIndex}
            running={state.running}
            approvals={message === lastAnswer && message.role === "assistant" && message.status === "streaming" ? state.approvals : NO_APPROVALS}
            controller={controller}
          />
        ))}
        <ChatTotal messages={state.messages} />
      </div>
      {awayFromBottom && (
        <button
          type="button"
          className="vault-copilot-newest clickable-icon"
          aria-label="Newest"
          onClick={() => {
            following.current = true;
            setAwayFromBottom(false);
            toBottom();
          }}
        >
          ↓ Newest
        </button>
      )}
    </div>
  );
}

/** The chat's tokens and cost so far, once two answers or more reported usage. */
function ChatTotal({ messages }: { messages: ChatState["messages"] }) {
  const host = useChatHost();
  const answers = messages.filter((message) => message.role === "assistant" && message.usage !== undefined);
  if (answers.length < 2) return null;
  const total = chatUsage(answers as ReadonlyArray<{ usage?: TokenUsage; model?: string }>, (model) => host.modelPrices(model));
  return (
    <div className="vault-copilot-chat-usage" aria-label={`Chat usage. ${usageLabel(total)}`}>
      This chat: {formatUsage(total)}
    </div>
  );
}
