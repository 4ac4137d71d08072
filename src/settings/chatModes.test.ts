import { parseChat } from "../history/chatNoteFormat";
import { parsePromptNote } from "../prompts/customPrompt";
import { CHAT_MODE_NAMES, isChatMode } from "./chatModes";
import { CHAT_MODES } from "./settingsSchema";

describe("the chat modes' one table", () => {
  it.each(CHAT_MODES.map((mode) => [mode]))("stores %s by its id: a prompt note's mode and a saved chat's read it back", (mode) => {
    expect(parsePromptNote("Подсказки/Сводка.md", `---\nmode: ${mode}\n---\nКратко.\n`).mode).toBe(mode);
    const chat = parseChat(`---\nchat-id: c\nmode: ${mode}\nmodel: m\n---\n\n## You\n\n你好\n\n## Copilot · 2026-12-01T10:00:00Z · ${mode} · m\n\nمرحبا\n`);
    expect(chat.mode).toBe(mode);
    expect(chat.messages[1]).toMatchObject({ mode, model: "m" });
  });

  it("takes a mode's name for no id: a prompt note that says \"Vault QA\" is refused, naming the ids it takes", () => {
    expect(Object.values(CHAT_MODE_NAMES).some((names) => isChatMode(names.label) || isChatMode(names.description))).toBe(false);
    expect(() => parsePromptNote("p/Q.md", `---\nmode: ${CHAT_MODE_NAMES["vault-qa"].label}\n---\nText.\n`)).toThrow('its mode "Vault QA" is not one of chat, vault-qa, agent');
  });
});
