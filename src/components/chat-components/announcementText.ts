import { answerText, type ChatState } from "../../chat/chatTypes";
import { t } from "../../i18n/t";
import { errorReason } from "./errorText";

/** What a screen reader hears of a finished answer or an approval asked, in the interface's language. */
export function announcementText(announcement: NonNullable<ChatState["announcement"]>): string {
  const { about } = announcement;
  if ("approval" in about) {
    const { approval } = about;
    if (approval.kind === "tool-call") return t("announce.wantsRun", { tool: approval.proposal.toolName, source: approval.proposal.source });
    return t(approval.proposal.before === null ? "announce.wantsCreate" : "announce.wantsEdit", { path: approval.proposal.path });
  }
  const { answer } = about;
  if (answer.status === "done") return t("announce.answered", { text: answerText(answer) });
  if (answer.status === "stopped") return t("announce.stopped");
  return t("announce.failed", { reason: answer.error ? errorReason(answer.error) : t("announce.unknownError") });
}
