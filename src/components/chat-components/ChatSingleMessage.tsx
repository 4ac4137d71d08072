import { Platform } from "obsidian";
import { memo, useState } from "react";
import type { ChatController } from "../../chat/ChatController";
import { answerText, questionShown, type AssistantMessage, type ChatMessage, type PendingApproval, type ToolCallPart, type UserMessage } from "../../chat/chatTypes";
import { chatUsage } from "../../chat/usageLine";
import { formatUsage, usageLabel } from "./usageText";
import type { TokenUsage } from "../../LLMProviders/tokenUsage";
import type { ChainErrorKind } from "../../LLMProviders/chainRunner/ChainEvents";
import { answerActions } from "./answerActions";
import { useAnswerLongPress } from "./answerLongPress";
import { ApprovalCard } from "./ApprovalCard";
import { shownChatError } from "./errorText";
import { IconButton } from "./IconButton";
import { useChatHost, type ChatHost } from "./ChatHost";
import { MarkdownContent } from "./MarkdownContent";
import { pageLink } from "../../documents/documentKinds";
import { ToolCallRoot } from "./toolCallRootManager";
import { t } from "../../i18n/t";
import { answerNoticeText } from "../coreNotices";

export interface ChatSingleMessageProps {
  message: ChatMessage;
  /** The last question or answer of the chat (Edit and Regenerate apply to it). */
  isLast: boolean;
  /** A reply is being made (actions that start one wait). */
  running: boolean;
  /** Approvals the running answer waits for (only the streaming answer gets any). */
  approvals: readonly PendingApproval[];
  controller: ChatController;
}

/**
 * One message of the conversation, an article named "You" or "Copilot". An answer is drawn from
 * its parts in order: text as Markdown, each tool call as its banner (a child mounted through
 * toolCallRootManager), then any approval it waits for, its error, its usage and its actions
 * (also a long press's menu on a touch screen).
 * Memoized: a message that did not change is not drawn again while another one streams.
 */
export const ChatSingleMessage = memo(function ChatSingleMessage(props: ChatSingleMessageProps) {
  const { message } = props;
  const longPress = useAnswerLongPress(props);
  return (
    <article className={`vault-copilot-message is-${message.role}`} aria-label={message.role === "user" ? t("message.you") : t("message.copilot")} data-message-id={message.id} {...longPress}>
      {message.role === "user" ? <UserMessageBody {...props} message={message} /> : <AssistantMessageBody {...props} message={message} />}
    </article>
  );
});

function UserMessageBody({ message, isLast, running, controller }: ChatSingleMessageProps & { message: UserMessage }) {
  const [editing, setEditing] = useState<string | null>(null);
  if (editing !== null) {
    const send = () => {
      setEditing(null);
      void controller.editLastQuestion(editing);
    };
    return (
      <div className="vault-copilot-edit-question">
        <textarea
          aria-label={t("message.editMessage")}
          value={editing}
          autoFocus
          onChange={(event) => setEditing(event.target.value)}
          onKeyDown={(event) => {
            // On a phone the keyboard's return key writes a new line; "Send edited message" sends.
            if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing && !Platform.isPhone) {
              event.preventDefault();
              send();
            } else if (event.key === "Escape") setEditing(null);
          }}
        />
        <div className="vault-copilot-message-actions">
          <button type="button" onClick={() => setEditing(null)}>
            {t("message.cancel")}
          </button>
          <button type="button" className="mod-cta" onClick={send}>
            {t("message.sendEdited")}
          </button>
        </div>
      </div>
    );
  }
  return (
    <>
      <div className="vault-copilot-user-text">{questionShown(message)}</div>
      {message.chips.length > 0 && (
        <ul className="vault-copilot-message-chips" aria-label={t("message.attached")}>
          {message.chips.map((chip) => (
            <li key={chip.id} className="vault-copilot-chip is-sent">
              {chip.label}
            </li>
          ))}
        </ul>
      )}
      {/* A question a prompt made is asked again with Regenerate; Edit is for words the user typed. */}
      {isLast && !running && message.shown === undefined && (
        <div className="vault-copilot-message-actions">
          <IconButton icon="pencil" label={t("message.edit")} onClick={() => setEditing(message.text)} />
        </div>
      )}
    </>
  );
}

function AssistantMessageBody({ message, isLast, running, approvals, controller }: ChatSingleMessageProps & { message: AssistantMessage }) {
  const host = useChatHost();
  const streaming = message.status === "streaming";
  const awaitingApproval = (part: ToolCallPart) => part.status === "running" && approvals.some((approval) => approval.proposal.toolId === part.toolId);

  const actions = answerActions(host, controller, message, isLast && !running);
  const text = answerText(message);
  // A rewrite is shown once, as the edit it proposes: its text is not drawn beside the diff.
  const shownParts = message.rewrite ? message.parts.filter((part) => part.type === "tool-call") : message.parts;
  const writingRewrite = Boolean(message.rewrite) && streaming && shownParts.length === 0 && message.parts.length > 0;
  return (
    <>
      {message.notices?.map((notice, index) => (
        <div key={index} className="vault-copilot-answer-notice">
          {answerNoticeText(notice)}
        </div>
      ))}
      {shownParts.map((part) =>
        part.type === "text" ? (
          <MarkdownContent key={part.id} text={part.text} streaming={streaming && part === message.parts.at(-1)} />
        ) : (
          <ToolCallRoot key={part.id} messageId={message.id} part={part} awaitingApproval={awaitingApproval(part)} controller={controller} />
        ),
      )}
      {streaming && message.parts.length === 0 && (
        <div className="vault-copilot-thinking" aria-hidden="true">
          {message.retryNotice ?? "…"}
        </div>
      )}
      {writingRewrite && (
        <div className="vault-copilot-thinking" role="status">
          {t("message.writingRewrite", { count: [...text].length })}
        </div>
      )}
      {streaming && message.retryNotice && message.parts.length > 0 && <div className="vault-copilot-retry-notice">{message.retryNotice}</div>}
      {approvals.map((approval) => (
        <ApprovalCard key={approval.id} approval={approval} onAnswer={(decision) => controller.answerApproval(approval.id, decision)} />
      ))}
      {message.sources && message.sources.length > 0 && <Sources message={message} host={host} />}
      {message.earlier && message.earlier.length > 0 && <EarlierVersions versions={message.earlier} />}
      {message.status === "error" && message.error && (
        <div className="vault-copilot-message-error" role="alert">
          <ErrorText error={message.error} />
          {SETTINGS_ERRORS.has(message.error.kind) && (
            <button type="button" onClick={() => host.openSettings()}>
              {t("message.openSettings")}
            </button>
          )}
          {isLast && !running && (
            <button type="button" onClick={() => void controller.retry()}>
              {t("message.retry")}
            </button>
          )}
        </div>
      )}
      {message.status === "stopped" && <div className="vault-copilot-message-stopped">{t("message.stopped")}</div>}
      {!streaming && (
        <div className="vault-copilot-message-footer">
          {message.usage && (message.usage.inputTokens > 0 || message.usage.outputTokens > 0) && <UsageLine usage={message.usage} model={message.model} />}
          {actions.length > 0 && (
            <div className="vault-copilot-message-actions">
              {actions.map((action) => (
                <IconButton key={action.label} icon={action.icon} label={action.label} onClick={action.run} />
              ))}
            </div>
          )}
        </div>
      )}
    </>
  );
}

/** The exchanges Regenerate and Edit replaced, oldest first: kept, and readable here (and in the chat's note). */
function EarlierVersions({ versions }: { versions: NonNullable<AssistantMessage["earlier"]> }) {
  return (
    <details className="vault-copilot-earlier">
      <summary>{t("message.earlier", { count: versions.length })}</summary>
      <ol>
        {versions.map((version, index) => (
          <li key={index}>
            {version.map((message) =>
              message.role === "user" ? (
                <p key={message.id} className="vault-copilot-earlier-question">
                  {questionShown(message)}
                </p>
              ) : (
                <MarkdownContent key={message.id} text={answerText(message)} streaming={false} />
              ),
            )}
          </li>
        ))}
      </ol>
    </details>
  );
}

/** A failed answer's reason: our sentence, and the provider's own words folded under "Details". */
function ErrorText({ error }: { error: { kind: ChainErrorKind; message: string } }) {
  const { text, raw } = shownChatError(error);
  return (
    <div className="vault-copilot-message-error-text">
      <span>{text}</span>
      {raw !== undefined && (
        <details className="vault-copilot-error-details">
          <summary>{t("message.details")}</summary>
          <pre>{raw}</pre>
        </details>
      )}
    </div>
  );
}

/** Errors the user mends in the settings (the key, the model's name, the server's address). */
const SETTINGS_ERRORS: ReadonlySet<ChainErrorKind> = new Set<ChainErrorKind>(["missing-api-key", "authentication", "model-not-found", "endpoint-not-found", "unreachable"]);

function Sources({ message, host }: { message: AssistantMessage; host: ChatHost }) {
  return (
    <details className="vault-copilot-sources">
      <summary>{t("message.sources", { count: message.sources!.length })}</summary>
      <ul>
        {message.sources!.map((source) => {
          // A PDF's passage opens the PDF at its page.
          const target = pageLink(source.path, source.page);
          return (
            <li key={`${target}#${source.heading ?? ""}`}>
              <a
                className="internal-link"
                href={target}
                data-href={target}
                onClick={(event) => {
                  event.preventDefault();
                  host.openLink(target, "", event.nativeEvent);
                }}
              >
                {source.title}
              </a>
              {source.page !== undefined && <span> › {t("message.sourcePage", { page: source.page })}</span>}
              {source.heading && <span> › {source.heading}</span>}
            </li>
          );
        })}
      </ul>
    </details>
  );
}

/** An answer's tokens (with cache reads) and, where the model's prices are entered, its cost. */
function UsageLine({ usage, model }: { usage: TokenUsage; model: string }) {
  const host = useChatHost();
  const priced = chatUsage([{ usage, model }], (name) => host.modelPrices(name));
  return (
    <span className="vault-copilot-usage" aria-label={usageLabel(priced)}>
      {formatUsage(priced)}
    </span>
  );
}
