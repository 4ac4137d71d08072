import type { ApprovalDecision, ApprovalPort, EditProposal, ToolCallApprovalPort, ToolCallProposal } from "../ports/approval";

/** Where an approval is asked: the chat whose run made the request. */
export interface ApprovalSink {
  requestEditApproval(proposal: EditProposal, signal: AbortSignal): Promise<ApprovalDecision>;
  requestToolCallApproval(proposal: ToolCallProposal, signal: AbortSignal): Promise<ApprovalDecision>;
}

/**
 * The approval ports the tools are built with. The tools are registered once, for every chat; the
 * question goes to the chat whose run is going on (the latest to attach, when several run at once),
 * and to `fallback` when none is — a tool run outside a chat still asks instead of writing.
 */
export class ApprovalBroker implements ApprovalPort, ToolCallApprovalPort {
  private readonly sinks: ApprovalSink[] = [];

  constructor(private readonly fallback: ApprovalSink) {}

  /** Routes questions to `sink` until the returned function is called. */
  attach(sink: ApprovalSink): () => void {
    this.sinks.push(sink);
    return () => {
      const index = this.sinks.lastIndexOf(sink);
      if (index !== -1) this.sinks.splice(index, 1);
    };
  }

  requestApproval(proposal: EditProposal, signal: AbortSignal): Promise<ApprovalDecision> {
    return this.current().requestEditApproval(proposal, signal);
  }

  requestToolCallApproval(proposal: ToolCallProposal, signal: AbortSignal): Promise<ApprovalDecision> {
    return this.current().requestToolCallApproval(proposal, signal);
  }

  private current(): ApprovalSink {
    return this.sinks.at(-1) ?? this.fallback;
  }
}
