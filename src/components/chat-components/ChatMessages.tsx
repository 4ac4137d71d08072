import { useLayoutEffect, useRef } from "react";
import type { ChatController } from "../../chat/ChatController";
import type { ChatState } from "../../chat/chatTypes";
import { ChatSingleMessage } from "./ChatSingleMessage";

/** How close to the bottom (px) still counts as "at the bottom" (following the stream). */
const FOLLOW_SLACK_PX = 32;
const NO_APPROVALS: ChatState["approvals"] = [];

/**
 * The conversation: a log named "Conversation". It follows a streaming answer while the reader is
 * at the bottom, keeps its place when they scroll up, and follows again once they are back. Its
 * own live announcements are off (they would read every token); the view announces a finished
 * answer once instead.
 */
export function ChatMessages({ state, controller }: { state: ChatState; controller: ChatController }) {
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const following = useRef(true);

  useLayoutEffect(() => {
    const element = scroller.current;
    const inner = content.current;
    if (!element || !inner) return;
    const follow = () => {
      if (following.current) element.scrollTop = element.scrollHeight;
    };
    const onScroll = () => {
      following.current = element.scrollHeight - element.scrollTop - element.clientHeight <= FOLLOW_SLACK_PX;
    };
    element.addEventListener("scroll", onScroll, { passive: true });
    // Rendered Markdown arrives after React's commit (Obsidian renders asynchronously): follow size changes too.
    const observer = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(follow);
    observer?.observe(inner);
    return () => {
      element.removeEventListener("scroll", onScroll);
      observer?.disconnect();
    };
  }, []);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && following.current) element.scrollTop = element.scrollHeight;
  }, [state.messages, state.approvals]);

  const lastAnswer = state.messages.at(-1);
  const lastQuestionIndex = state.messages.findLastIndex((message) => message.role === "user");
  return (
    <div className="vault-copilot-messages" ref={scroller} role="log" aria-label="Conversation" aria-live="off" tabIndex={0}>
      <div className="vault-copilot-messages-inner" ref={content}>
        {state.messages.length === 0 && (
          <div className="vault-copilot-empty">
            <p>Ask about anything, or about your notes. Type @ to add a note, folder or tag as context.</p>
          </div>
        )}
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
      </div>
    </div>
  );
}
