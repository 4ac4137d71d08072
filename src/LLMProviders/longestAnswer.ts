import { ModelError } from "../net/modelErrors";

/**
 * How far the estimate from characters may run past the setting before an answer is stopped:
 * characters / 4 is a rough count (a token of code or of a long word holds more), and a server
 * that keeps to `max_tokens` itself must never be cut short by a low estimate.
 */
const ESTIMATE_SLACK = 1.5;

/**
 * Tool-call arguments are bounded apart from the answer's text: a note the agent rewrites whole
 * may be far longer than any answer worth reading, so only a ceiling past what any edit needs
 * (32 Mi characters) stops a server that streams one call's arguments for good.
 */
export const MAX_TOOL_ARGUMENT_CHARACTERS = 32 * 1024 * 1024;

/**
 * The longest-answer setting (`maxTokens`) enforced on what arrives, for servers that ignore it:
 * counts the streamed text as the server's own output count when it sends one, else as
 * characters / 4, and says when the answer passed the setting (or its tool calls' arguments
 * passed MAX_TOOL_ARGUMENT_CHARACTERS).
 */
export class LongestAnswerGuard {
  private characters = 0;
  private argumentCharacters = 0;
  private reported = 0;

  constructor(readonly maxTokens: number) {}

  /** Text arrived; `outputTokens` is the server's count so far, when it sent one while the answer still streams. */
  arrived(text: string, outputTokens?: number): void {
    this.characters += text.length;
    if (outputTokens !== undefined) this.reported = Math.max(this.reported, outputTokens);
  }

  /** A piece of a tool call's arguments arrived. */
  argumentsArrived(text: string): void {
    this.argumentCharacters += text.length;
  }

  get passed(): boolean {
    return this.textPassed || this.argumentCharacters > MAX_TOOL_ARGUMENT_CHARACTERS;
  }

  error(receivedAnything: boolean): ModelError {
    const kept = receivedAnything ? "; the part that arrived is kept" : "";
    const what = this.textPassed ? `the answer passed the longest-answer limit (${this.maxTokens} tokens)` : `a tool call's arguments passed ${MAX_TOOL_ARGUMENT_CHARACTERS} characters`;
    return new ModelError("answer-too-long", `stopped: ${what}${kept}.`);
  }

  private get textPassed(): boolean {
    return this.reported > this.maxTokens || this.characters / 4 > this.maxTokens * ESTIMATE_SLACK;
  }
}
