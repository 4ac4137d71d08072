import { ContextManager } from "../context/ContextManager";
import { emptyUsage } from "../LLMProviders/tokenUsage";
import type { ChainRunInput } from "../LLMProviders/chainRunner/ChainEvents";
import type { ConversationTurn } from "../context/PromptContextTypes";
import { budgetOf, DEFAULT_CONTEXT_WINDOW_TOKENS, estimateTokens, fitHistoryToContext, fitTurns } from "./fitHistory";

const turn = (index: number, words: number): ConversationTurn => ({
  userMessage: `Вопрос ${index}`,
  attachments: [],
  assistantMessage: `${"ответ ".repeat(words)}${index}`,
});

describe("fitting a chat's history to the model's context window", () => {
  it("counts a character a token outside ASCII, four ASCII characters a token", () => {
    expect(estimateTokens("abcd")).toBe(1);
    expect(estimateTokens("abcde")).toBe(2);
    expect(estimateTokens("香菜怎么种")).toBe(5);
    expect(estimateTokens("สวัสดี")).toBe(6);
    expect(estimateTokens("🌿")).toBe(1);
  });

  it("keeps every turn that fits, and drops whole turns, oldest first, when they do not", () => {
    const turns = Array.from({ length: 8 }, (_, index) => turn(index + 1, 100));
    const budget = { contextWindowTokens: 4000, answerTokens: 1000 };
    const fitted = fitTurns(turns, { text: "Новый вопрос", attachments: [] }, budget);
    expect(fitted.dropped).toBeGreaterThan(0);
    expect(fitted.dropped + fitted.turns.length).toBe(8);
    expect(fitted.turns).toEqual(turns.slice(fitted.dropped));
    // What is kept fits; one more turn would not.
    const free = 4000 * 0.9 - 1000 - estimateTokens("Новый вопрос");
    const cost = (kept: ConversationTurn[]) => kept.reduce((sum, entry) => sum + estimateTokens(entry.userMessage) + estimateTokens(entry.assistantMessage), 0);
    expect(cost(fitted.turns)).toBeLessThanOrEqual(free);
    expect(cost(turns.slice(fitted.dropped - 1))).toBeGreaterThan(free);
    expect(fitTurns(turns, { text: "Новый вопрос", attachments: [] }, budgetOf({ maxTokens: 4096 }))).toEqual({ turns, dropped: 0 });
  });

  it("counts the attachments a turn brought and the new question's own", () => {
    const turns = [turn(1, 10), { ...turn(2, 10), attachments: [{ id: "note:a.md", kind: "note" as const, title: "a", content: "書".repeat(3000) }] }, turn(3, 10)];
    const budget = { contextWindowTokens: 4000, answerTokens: 500 };
    expect(fitTurns(turns, { text: "q", attachments: [] }, budget).dropped).toBe(2);
    const big = [{ id: "note:b.md", kind: "note" as const, title: "b", content: "字".repeat(3000) }];
    expect(fitTurns([turn(1, 30)], { text: "q", attachments: big }, budget).dropped).toBe(1);
    expect(fitTurns([turn(1, 30)], { text: "q", attachments: [] }, budget).dropped).toBe(0);
  });

  it("counts an attached image by its pixels (width × height / 750), not by the short line that names it", () => {
    const photo = { name: "фото.png", mimeType: "image/png" as const, width: 2000, height: 1500, bytes: 900_000, data: "" };
    const withPhoto = { ...turn(2, 10), attachments: [{ id: "image:фото.png", kind: "image" as const, title: "фото.png", content: "[image фото.png 2000×1500, 900 KB]", images: [photo] }] };
    // 4000 tokens for the image: with about 2,600 tokens free for the history, the turn holding it goes (and the one before).
    const budget = { contextWindowTokens: 4000, answerTokens: 1000 };
    expect(fitTurns([turn(1, 10), withPhoto, turn(3, 10)], { text: "q", attachments: [] }, budget).dropped).toBe(2);
    expect(fitTurns([turn(1, 10), { ...withPhoto, attachments: [] }, turn(3, 10)], { text: "q", attachments: [] }, budget).dropped).toBe(0);
  });

  it("uses the model's own window, or 128k where its settings name none", () => {
    expect(budgetOf({ maxTokens: 4096 })).toEqual({ contextWindowTokens: DEFAULT_CONTEXT_WINDOW_TOKENS, answerTokens: 4096 });
    expect(budgetOf({ maxTokens: 512, contextWindowTokens: 8000 })).toEqual({ contextWindowTokens: 8000, answerTokens: 512 });
  });

  it("a runner sent the fitted history says first how many exchanges it left out, and records its turn in the chat's conversation", async () => {
    const conversation = new ContextManager(Array.from({ length: 5 }, (_, index) => turn(index + 1, 300)));
    const seen: { events: unknown[]; turns: number } = { events: [], turns: 0 };
    const runner = fitHistoryToContext(
      {
        run: (input: ChainRunInput) => {
          seen.turns = input.conversation.getTurns().length;
          input.conversation.recordTurn({ userMessage: input.userMessage, attachments: [], assistantMessage: "ok" });
          return Promise.resolve({ status: "completed" as const, text: "ok", steps: 1, toolCalls: [], usage: emptyUsage() });
        },
      },
      () => ({ contextWindowTokens: 4000, answerTokens: 1000 }),
    );
    await runner.run({ userMessage: "Ещё?", conversation, signal: new AbortController().signal, onEvent: (event) => seen.events.push(event) });
    expect(seen.turns).toBeGreaterThan(0);
    expect(seen.turns).toBeLessThan(5);
    const dropped = 5 - seen.turns;
    expect(seen.events).toEqual([
      {
        type: "notice",
        message: `${dropped} earlier exchanges of this chat were left out of the request to fit the model's context window (4,000 tokens); the model does not see them.`,
        case: { code: "history-left-out", dropped, contextWindow: 4000 },
      },
    ]);
    expect(conversation.getTurns()).toHaveLength(6);
  });
});
