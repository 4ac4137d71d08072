import { useLayoutEffect, useRef } from "react";
import type { ChatController } from "../../chat/ChatController";
import type { ChatState } from "../../chat/chatTypes";
import type { TokenUsage } from "../../LLMProviders/tokenUsage";
import { chatUsage, formatUsage, usageLabel } from "../../chat/usageLine";
import { useChatHost } from "./ChatHost";
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
        <ChatTotal messages={state.messages} />
      </div>
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
