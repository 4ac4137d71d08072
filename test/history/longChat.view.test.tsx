/**
 * A long chat in the chat view, for a model with a small context window: a request carries only
 * the latest exchanges that fit, the oldest left out first, and the answer shows a line saying how
 * many were left out. The chat itself (and its note) keeps every exchange.
 */
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { chatViewSession } from "../helpers/chatViewSession";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

jest.setTimeout(30_000);

const session = chatViewSession({ settings: { defaultMode: "chat" } });
/** About 700 tokens an answer (Han and Arabic). */
const longAnswer = (index: number) => `答${index}: ${"长文 نص طويل ".repeat(80)}`;

async function send(text: string, answered: string): Promise<void> {
  const box = screen.getByRole("textbox", { name: "Message" });
  fireEvent.change(box, { target: { value: text } });
  fireEvent.keyDown(box, { key: "Enter" });
  await waitFor(() => expect(screen.getByRole("log", { name: "Conversation" }).textContent).toContain(answered));
  await waitFor(() => expect(screen.getByRole("button", { name: "Send" })).toBeTruthy());
}

it("sends only the latest exchanges that fit the model's window, and says in the chat how many it left out", async () => {
  const chat = await session.open((request) => ({ text: request.index < 5 ? longAnswer(request.index + 1) : "Итог готов." }));
  for (let index = 1; index <= 5; index++) await send(`Вопрос ${index}`, `答${index}:`);
  const notices = () => [...document.querySelectorAll(".vault-copilot-answer-notice")].map((element) => element.textContent);
  // In the default window (128k) the whole chat went with every request.
  expect(notices()).toEqual([]);
  expect(session.server.requests.at(-1)?.body.messages.filter((message) => message.role === "user")).toHaveLength(5);

  // The model's window, as its settings say it, is small now.
  chat.settings.provider = { ...chat.settings.provider, contextWindowTokens: 4000, maxTokens: 1000 };
  await send("Вопрос 6", "Итог готов.");
  const sent = (session.server.requests.at(-1)?.body.messages ?? []).filter((message) => message.role === "user").map((message) => message.content);
  const kept = sent.length - 1;
  expect(kept).toBeGreaterThan(0);
  expect(kept).toBeLessThan(5);
  expect(sent.slice(0, kept)).toEqual(Array.from({ length: kept }, (_, index) => `Вопрос ${5 - kept + index + 1}`));
  const articles = within(screen.getByRole("log", { name: "Conversation" })).getAllByRole("article");
  expect(articles).toHaveLength(12);
  expect(articles.at(-1)?.querySelector(".vault-copilot-answer-notice")?.textContent).toBe(
    `${5 - kept} earlier exchanges of this chat were left out of the request to fit the model's context window (4,000 tokens); the model does not see them.`,
  );
  expect(notices()).toHaveLength(1);
});
