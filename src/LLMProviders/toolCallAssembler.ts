/** A tool call put together from its streamed deltas; `argumentsText` is the raw JSON text. */
export interface AssembledToolCall {
  id: string;
  name: string;
  argumentsText: string;
}

/** One streamed piece of a tool call, as LangChain hands it on (`tool_call_chunks`). */
export interface ToolCallDelta {
  index?: number;
  id?: string;
  name?: string;
  args?: string;
}

/**
 * Assembles tool calls from stream deltas. The first delta of a call carries its id and name, the
 * following ones pieces of the arguments, matched by `index`. Arguments stay raw text: a call
 * whose JSON is broken must reach the tool runner as it is, so the model is told what was wrong
 * (a lenient parser would quietly "repair" a cut-off argument).
 */
export class ToolCallAssembler {
  private readonly calls = new Map<number, { id: string; name: string; argumentsText: string }>();
  private lastIndex = -1;

  constructor(private readonly fallbackId: (position: number) => string) {}

  add(delta: ToolCallDelta): void {
    // Some servers leave out `index`: a delta with an id starts a call, one without continues the last.
    const index = delta.index ?? (delta.id && !this.hasId(delta.id) ? this.lastIndex + 1 : Math.max(this.lastIndex, 0));
    this.lastIndex = Math.max(this.lastIndex, index);
    const call = this.calls.get(index) ?? { id: "", name: "", argumentsText: "" };
    if (delta.id && !call.id) call.id = delta.id;
    if (delta.name && !call.name) call.name = delta.name;
    if (delta.args) call.argumentsText += delta.args;
    this.calls.set(index, call);
  }

  get size(): number {
    return this.calls.size;
  }

  /** The calls in index order; a call the server sent without an id gets one. */
  result(): AssembledToolCall[] {
    return [...this.calls.entries()]
      .sort(([left], [right]) => left - right)
      .map(([, call], position) => ({ ...call, id: call.id || this.fallbackId(position) }));
  }

  private hasId(id: string): boolean {
    for (const call of this.calls.values()) if (call.id === id) return true;
    return false;
  }
}
