import type { ChatMode } from "../../settings/settingsSchema";
import { t } from "../../i18n/t";

/** What each mode does, in one line, and three questions that show it off (empty.<mode>.* in the tables). */
function modeTexts(mode: ChatMode): { explanation: string; examples: readonly string[] } {
  return {
    explanation: t(`empty.${mode}.explanation`),
    examples: [t(`empty.${mode}.example1`), t(`empty.${mode}.example2`), t(`empty.${mode}.example3`)],
  };
}

/**
 * A chat with no message yet: what the current mode does, and three example questions. A click
 * puts one in the message box, to be changed or sent; it sends nothing by itself.
 */
export function EmptyChat({ mode, onExample }: { mode: ChatMode; onExample: (question: string) => void }) {
  const { explanation, examples } = modeTexts(mode);
  return (
    <div className="vault-copilot-empty">
      <p className="vault-copilot-empty-explanation">{explanation}</p>
      <ul className="vault-copilot-examples" aria-label={t("empty.examples")}>
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
