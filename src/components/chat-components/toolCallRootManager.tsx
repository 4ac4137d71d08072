import { createContext, memo, useContext, useEffect } from "react";
import type { ChatController } from "../../chat/ChatController";
import type { ToolCallPart } from "../../chat/chatTypes";
import { toolTexts } from "../toolTexts";
import { useChatHost, type ChatHost } from "./ChatHost";
import { ToolCallBanner, type ToolCallBannerProps } from "./ToolCallBanner";

/**
 * Tool-call banners are React children of their message, drawn in order with its text parts inside
 * the view's one React root (so under StrictMode and the ChatHost context), and this module is the
 * one place that mounts them: ChatSingleMessage draws a `ToolCallRoot` for each tool-call part.
 * React mounts and unmounts a banner with its message, so nothing is unmounted by hand, late or
 * on a timer, and a banner can never be rendered into a root that is gone (React's error #409,
 * which banners in roots of their own ran into).
 *
 * Each chat view has its own ToolCallRootManager (CopilotView makes it in onOpen): the banners
 * mounted in that view, by message, kept by the banners themselves as they mount and unmount.
 */
export class ToolCallRootManager {
  private readonly messages = new Map<string, Set<string>>();

  /** Records the banner of `toolCallId` as mounted; the returned function records it gone. */
  mount(messageId: string, toolCallId: string): () => void {
    let toolCalls = this.messages.get(messageId);
    if (!toolCalls) {
      toolCalls = new Set();
      this.messages.set(messageId, toolCalls);
    }
    toolCalls.add(toolCallId);
    return () => {
      const current = this.messages.get(messageId);
      current?.delete(toolCallId);
      if (current?.size === 0) this.messages.delete(messageId);
    };
  }

  /** The tool calls of a message whose banners are mounted. */
  getMessageToolCallRoots(messageId: string): ReadonlySet<string> {
    return this.messages.get(messageId) ?? new Set();
  }

  /** How many banners are mounted in the view: none once their messages are gone. */
  count(): number {
    let count = 0;
    for (const toolCalls of this.messages.values()) count += toolCalls.size;
    return count;
  }
}

export const ToolCallRootsContext = createContext<ToolCallRootManager | null>(null);

export interface ToolCallRootProps {
  messageId: string;
  part: ToolCallPart;
  /** The call waits for the user's approval (the card is below the answer). */
  awaitingApproval: boolean;
  /** The chat the message is in: told when the user undoes the call's edit. */
  controller: ChatController;
}

/**
 * One tool call's banner in its message. Memoized: parts are replaced when they change, so a
 * banner whose part and approval state are the same is not drawn again while the answer streams.
 */
export const ToolCallRoot = memo(function ToolCallRoot({ messageId, part, awaitingApproval, controller }: ToolCallRootProps) {
  const host = useChatHost();
  const roots = useContext(ToolCallRootsContext);
  if (!roots) throw new Error("Tool-call banners need a ToolCallRootsContext provider (CopilotView gives one).");
  const toolCallId = part.id;
  useEffect(() => roots.mount(messageId, toolCallId), [roots, messageId, toolCallId]);
  return (
    <div className="vault-copilot-tool-call">
      <ToolCallBanner {...bannerProps(host, part, (path) => controller.markEditUndone(messageId, toolCallId, path))} awaitingApproval={awaitingApproval} />
    </div>
  );
});

function bannerProps(host: ChatHost, part: ToolCallPart, onUndone: (path: string) => Promise<void>): ToolCallBannerProps {
  const metadata = host.toolMetadata(part.toolId);
  const texts = toolTexts(part.toolId, metadata, part.toolName);
  return {
    toolName: part.toolName,
    ...(part.toolId !== undefined ? { toolId: part.toolId } : {}),
    displayName: texts.name,
    wording: texts.wording,
    status: part.status,
    args: part.args,
    startedAt: part.startedAt,
    ...(part.durationMs !== undefined ? { durationMs: part.durationMs } : {}),
    ...(part.resultText !== undefined ? { resultText: part.resultText } : {}),
    ...(part.failure ? { failure: part.failure } : {}),
    output: part.output,
    ...(part.undone ? { undone: part.undone } : {}),
    onOpenNote: (path, event) => host.openLink(path, "", event.nativeEvent),
    // Only an undo of this very edit is marked: the banner, the chat's note and the next question say so.
    onUndoEdit: async (edit) => {
      const report = await host.undoEdit(edit);
      // The chat's note is written in the background; a failure there is reported by its writer.
      if (report.undone) void onUndone(edit.path);
      return report.message;
    },
  };
}
