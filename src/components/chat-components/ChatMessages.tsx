import { useLayoutEffect, useRef, useState } from "react";
import type { ChatController } from "../../chat/ChatController";
import type { ChatState } from "../../chat/chatTypes";
import type { TokenUsage } from "../../LLMProviders/tokenUsage";
import { chatUsage } from "../../chat/usageLine";
import { formatUsage, usageLabel } from "./usageText";
import { useChatHost } from "./ChatHost";
import { useChatState } from "./useChatState";
import { ChatSingleMessage } from "./ChatSingleMessage";
import { EmptyChat } from "./EmptyChat";
import { t } from "../../i18n/t";

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
export function ChatMessages({ controller, onExample }: { controller: ChatController; onExample: (question: string) => void }) {
  const messages = useChatState(controller, "messages");
  const approvals = useChatState(controller, "approvals");
  const running = useChatState(controller, "running");
  const mode = useChatState(controller, "mode");
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
    let lastTop = element.scrollTop;
    const follow = () => {
      const shrunk = height - element.clientHeight;
      height = element.clientHeight;
      if (following.current) toBottom();
      else {
        if (shrunk !== 0) element.scrollTop += shrunk;
        // Content that grew back under a place the user keeps is away from the bottom again.
        setAwayFromBottom(!atBottom());
      }
    };
    const onScroll = () => {
      const bottom = atBottom();
      const movedDown = element.scrollTop > lastTop;
      lastTop = element.scrollTop;
      // Only the user's own scrolling starts or stops the following, and only coming down starts
      // it: content that shrinks a moment (a finished answer drawn again) clamps the scroll to the
      // bottom by moving it up, which is not the user coming back down.
      if (userScrolled.current) following.current = bottom && (following.current || movedDown);
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

  // Where there is a ResizeObserver it follows the content once the frame's layout is done; a
  // scroll here, right after React's commit, would lay the page out once more every frame of a
  // streaming answer (reading scrollHeight forces it), and a keystroke's frame would wait for it.
  useLayoutEffect(() => {
    if (following.current && typeof ResizeObserver === "undefined") toBottom();
  }, [messages, approvals]);

  const lastAnswer = messages.at(-1);
  const lastQuestionIndex = messages.findLastIndex((message) => message.role === "user");
  return (
    <div className="vault-copilot-messages" ref={scroller} role="log" aria-label={t("conversation.label")} aria-live="off" tabIndex={0}>
      <div className="vault-copilot-messages-inner" ref={content}>
        {messages.length === 0 && <EmptyChat mode={mode} onExample={onExample} />}
        {messages.map((message, index) => (
          <ChatSingleMessage
            key={message.id}
            message={message}
            isLast={message === lastAnswer || index === lastQuestionIndex}
            running={running}
            approvals={message === lastAnswer && message.role === "assistant" && message.status === "streaming" ? approvals : NO_APPROVALS}
            controller={controller}
          />
        ))}
        <ChatTotal messages={messages} />
      </div>
      {awayFromBottom && (
        <button
          type="button"
          className="vault-copilot-newest clickable-icon"
          aria-label={t("conversation.newest")}
          onClick={() => {
            following.current = true;
            setAwayFromBottom(false);
            toBottom();
          }}
        >
          {t("conversation.newestButton")}
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
    <div className="vault-copilot-chat-usage" aria-label={t("usage.chatLabel", { usage: usageLabel(total) })}>
      {t("usage.chatTotal", { usage: formatUsage(total) })}
    </div>
  );
}
