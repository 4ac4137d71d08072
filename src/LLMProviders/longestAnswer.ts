import { ModelError } from "./modelErrors";

/**
 * How far the estimate from characters may run past the setting before an answer is stopped:
 * characters / 4 is a rough count (a token of code or of a long word holds more), and a server
 * that keeps to `max_tokens` itself must never be cut short by a low estimate.
 */
const ESTIMATE_SLACK = 1.5;

/**
 * The longest-answer setting (`maxTokens`) enforced on what arrives, for servers that ignore it:
 * counts the streamed output (text and tool-call arguments) as the server's own output count
 * when it sends one, else as characters / 4, and says when the answer passed the setting.
 */
export class LongestAnswerGuard {
  private characters = 0;
  private reported = 0;

  constructor(readonly maxTokens: number) {}

  /** A streamed piece arrived; `outputTokens` is the server's count so far, when it sent one. */
  arrived(text: string, outputTokens?: number): void {
    this.characters += text.length;
    if (outputTokens !== undefined) this.reported = Math.max(this.reported, outputTokens);
  }

  get passed(): boolean {
    return this.reported > this.maxTokens || this.characters / 4 > this.maxTokens * ESTIMATE_SLACK;
  }

  error(receivedAnything: boolean): ModelError {
    const kept = receivedAnything ? "; the part that arrived is kept" : "";
    return new ModelError("answer-too-long", `stopped: the answer passed the longest-answer limit (${this.maxTokens} tokens)${kept}.`);
  }
}
