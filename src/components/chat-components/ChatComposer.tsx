import { useRef, useState, type KeyboardEvent } from "react";
import type { ChatController } from "../../chat/ChatController";
import type { ChatState, ContextChip } from "../../chat/chatTypes";
import { baseName, folderChip, noteChip, tagChip } from "../../chat/chipArtifacts";
import { useChatHost, type ContextSuggestion } from "./ChatHost";

/** "@" and what follows it up to the caret, when it starts a word. */
const MENTION = /(^|\s)@([^\s@]*)$/;
/** How many suggestions the "@" list shows. */
const MAX_SUGGESTIONS = 8;

/**
 * The message box and what goes with the next message: the context chips (the active note first,
 * removable), "@" suggestions of notes, folders and tags, and Send (Stop while a reply runs).
 * Enter sends, Shift+Enter makes a new line, nothing is sent while an input method is composing,
 * Up in an empty box brings back the last message, Escape stops a reply.
 */
export function ChatComposer({ state, controller }: { state: ChatState; controller: ChatController }) {
  const host = useChatHost();
  const [text, setText] = useState("");
  const [suggestions, setSuggestions] = useState<{ query: string; items: ContextSuggestion[]; selected: number } | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const request = useRef(0);

  const send = () => {
    if (state.running || !text.trim()) return;
    const message = text;
    setText("");
    setSuggestions(null);
    void controller.send(message);
  };

  const updateSuggestions = (value: string, caret: number) => {
    const match = MENTION.exec(value.slice(0, caret));
    if (!match) {
      setSuggestions(null);
      return;
    }
    const query = match[2] ?? "";
    const ticket = ++request.current;
    void host.suggestContext(query).then((items) => {
      if (ticket === request.current) setSuggestions({ query, items: items.slice(0, MAX_SUGGESTIONS), selected: 0 });
    });
  };

  const choose = (suggestion: ContextSuggestion) => {
    const element = box.current;
    const caret = element?.selectionStart ?? text.length;
    const before = text.slice(0, caret).replace(MENTION, (_whole, space: string) => space);
    setText(before + text.slice(caret));
    setSuggestions(null);
    controller.addChip(chipOf(suggestion));
    window.requestAnimationFrame(() => {
      element?.focus();
      element?.setSelectionRange(before.length, before.length);
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // An input method (Chinese, Japanese, …) uses Enter to confirm its own text.
    if (event.nativeEvent.isComposing || event.key === "Process") return;
    if (suggestions && suggestions.items.length > 0) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        const step = event.key === "ArrowDown" ? 1 : -1;
        setSuggestions({ ...suggestions, selected: (suggestions.selected + step + suggestions.items.length) % suggestions.items.length });
        return;
      }
      if (event.key === "Enter" || event.key === "Tab") {
        event.preventDefault();
        choose(suggestions.items[suggestions.selected]!);
        return;
      }
    }
    if (event.key === "Escape") {
      if (suggestions) setSuggestions(null);
      else if (state.running) controller.stop();
      return;
    }
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      send();
      return;
    }
    if (event.key === "ArrowUp" && text === "") {
      const last = state.messages.findLast((message) => message.role === "user");
      if (last && last.role === "user") {
        event.preventDefault();
        setText(last.text);
      }
    }
  };

  const listId = `${state.chatId}-suggestions`;
  return (
    <div className="vault-copilot-composer">
      <ChipRow state={state} controller={controller} />
      {suggestions && (
        <ul className="vault-copilot-suggestions" id={listId} role="listbox" aria-label="Context suggestions">
          {suggestions.items.length === 0 && <li className="vault-copilot-suggestion-empty">No note, folder or tag matches “{suggestions.query}”.</li>}
          {suggestions.items.map((item, index) => (
            <li
              key={`${item.kind}:${item.value}`}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === suggestions.selected}
              className={`vault-copilot-suggestion is-${item.kind}${index === suggestions.selected ? " is-selected" : ""}`}
              onMouseDown={(event) => {
                event.preventDefault();
                choose(item);
              }}
            >
              <span className="vault-copilot-suggestion-kind">{item.kind}</span> {item.label}
            </li>
          ))}
        </ul>
      )}
      <div className="vault-copilot-input-row">
        <textarea
          ref={box}
          className="vault-copilot-input"
          aria-label="Message"
          placeholder="Ask Copilot… (@ adds context)"
          rows={3}
          value={text}
          aria-controls={suggestions ? listId : undefined}
          aria-activedescendant={suggestions && suggestions.items.length > 0 ? `${listId}-${suggestions.selected}` : undefined}
          onChange={(event) => {
            setText(event.target.value);
            updateSuggestions(event.target.value, event.target.selectionStart ?? event.target.value.length);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => setSuggestions(null)}
        />
        {state.running ? (
          <button type="button" className="vault-copilot-stop" onClick={() => controller.stop()}>
            Stop
          </button>
        ) : (
          <button type="button" className="vault-copilot-send mod-cta" disabled={!text.trim()} onClick={send}>
            Send
          </button>
        )}
      </div>
    </div>
  );
}

function ChipRow({ state, controller }: { state: ChatState; controller: ChatController }) {
  const { activeNote, chips } = state;
  if (!activeNote && chips.length === 0) return null;
  return (
    <ul className="vault-copilot-chips" aria-label="Context for the next message">
      {activeNote &&
        (activeNote.included ? (
          <li className="vault-copilot-chip is-active-note" title={activeNote.path}>
            <span>{baseName(activeNote.path)}</span>
            <span className="vault-copilot-chip-hint"> (current note)</span>
            <button type="button" className="vault-copilot-chip-remove" aria-label={`Remove ${baseName(activeNote.path)} from the context`} onClick={() => controller.includeActiveNote(false)}>
              ×
            </button>
          </li>
        ) : (
          <li className="vault-copilot-chip is-off">
            <button type="button" onClick={() => controller.includeActiveNote(true)}>
              + {baseName(activeNote.path)} (current note)
            </button>
          </li>
        ))}
      {chips.map((chip) => (
        <ChipItem key={chip.id} chip={chip} onRemove={() => controller.removeChip(chip.id)} />
      ))}
    </ul>
  );
}

function ChipItem({ chip, onRemove }: { chip: ContextChip; onRemove: () => void }) {
  return (
    <li className={`vault-copilot-chip is-${chip.kind}`} title={chip.target}>
      <span>{chip.label}</span>
      <button type="button" className="vault-copilot-chip-remove" aria-label={`Remove ${chip.label} from the context`} onClick={onRemove}>
        ×
      </button>
    </li>
  );
}

function chipOf(suggestion: ContextSuggestion): ContextChip {
  if (suggestion.kind === "folder") return folderChip(suggestion.value);
  if (suggestion.kind === "tag") return tagChip(suggestion.value);
  return noteChip(suggestion.value);
}
