import { LongestAnswerGuard, MAX_TOOL_ARGUMENT_CHARACTERS } from "./longestAnswer";

describe("LongestAnswerGuard", () => {
  it("goes by the server's own output count when it sends one, past the setting by a single token", () => {
    const guard = new LongestAnswerGuard(50);
    guard.arrived("短い", 50);
    expect(guard.passed).toBe(false);
    guard.arrived("", 51);
    expect(guard.passed).toBe(true);
  });

  it("goes by characters / 4 without a count, with room for tokens longer than four characters", () => {
    const guard = new LongestAnswerGuard(50);
    guard.arrived("x".repeat(300));
    expect(guard.passed).toBe(false);
    guard.arrived("x");
    expect(guard.passed).toBe(true);
    expect(guard.error(true).message).toBe("stopped: the answer passed the longest-answer limit (50 tokens); the part that arrived is kept.");
  });

  it("bounds tool-call arguments apart from the text: a whole note rewritten passes, a call past 32 Mi characters does not", () => {
    const guard = new LongestAnswerGuard(50);
    guard.argumentsArrived("новая строка ".repeat(800_000));
    expect(guard.passed).toBe(false);
    guard.argumentsArrived("x".repeat(MAX_TOOL_ARGUMENT_CHARACTERS));
    expect(guard.passed).toBe(true);
    expect(guard.error(true).message).toBe(`stopped: a tool call's arguments passed ${MAX_TOOL_ARGUMENT_CHARACTERS} characters; the part that arrived is kept.`);
  });
});
