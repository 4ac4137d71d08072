import type { ChatMode } from "../../settings/settingsSchema";

/** What each mode does, in one line, and questions that show it off. */
const MODES: Record<ChatMode, { explanation: string; examples: readonly [string, string, string] }> = {
  chat: {
    explanation: "Chat talks with the model; it sees the open note and what you add with @.",
    examples: ["Summarize the current note in three bullet points", "Suggest a clearer title for this note", "Explain the difference between a habit and a routine"],
  },
  "vault-qa": {
    explanation: "Vault QA answers from your notes and links the notes it used.",
    examples: ["What have I written about sleep?", "Which books did I take notes on this year?", "What did I decide in my last project meeting?"],
  },
  agent: {
    explanation: "Agent searches and reads your notes, and edits them once you accept.",
    examples: ["Find my notes about travel and list the places in them", "What did I work on last week? Look in my daily notes", "Add a short summary at the top of the current note"],
  },
};

/**
 * A chat with no message yet: what the current mode does, and three example questions. A click
 * puts one in the message box, to be changed or sent; it sends nothing by itself.
 */
export function EmptyChat({ mode, onExample }: { mode: ChatMode; onExample: (question: string) => void }) {
  const { explanation, examples } = MODES[mode];
  return (
    <div className="vault-copilot-empty">
      <p className="vault-copilot-empty-explanation">{explanation}</p>
      <ul className="vault-copilot-examples" aria-label="Example questions">
        {examples.map((example) => (
          <li key={example}>
            <button type="button" className="vault-copilot-example" onClick={() => onExample(example)}>
              {example}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
