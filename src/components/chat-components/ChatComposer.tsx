import { Platform } from "obsidian";
import { useEffect, useImperativeHandle, useRef, useState, type ClipboardEvent, type KeyboardEvent, type MouseEvent, type Ref } from "react";
import type { ChatController } from "../../chat/ChatController";
import type { ChatState, ContextChip } from "../../chat/chatTypes";
import { baseName, folderChip, imageChip, noteChip, tagChip, webChip } from "../../chat/chipArtifacts";
import { mentionText, webAddress } from "../../chat/contextSuggestions";
import { isDocumentFile } from "../../documents/documentKinds";
import { attachImageFiles } from "./pastedImages";
import type { CustomPrompt } from "../../prompts/customPrompt";
import { matchPrompts } from "../../prompts/PromptLibrary";
import { useChatHost, type ContextSuggestion } from "./ChatHost";
import { t } from "../../i18n/t";
import { useChatState } from "./useChatState";

/** "@" and what follows it up to the caret, when it starts a word (a note's name may hold spaces). */
const MENTION = /(^|\s)@([^@\n]*)$/;
/** How many suggestions the "@" list shows. */
const MAX_SUGGESTIONS = 8;
/** "/" at the start of the box, and the prompt name typed after it. */
const SLASH = /^\/(\S*)$/;

/** One open list under the box: notes, folders and tags after "@", or the user's prompts after "/". */
type OpenList =
  | { kind: "context"; query: string; items: ContextSuggestion[]; selected: number }
  | { kind: "prompts"; query: string; items: CustomPrompt[]; selected: number };

/** What the view may do to the message box from outside it. */
export interface ComposerHandle {
  /** Puts text in the box (nothing is sent) and the caret at its end, ready for the user to edit or send. */
  fill(text: string): void;
}

/**
 * The message box and what goes with the next message: the context chips (the active note first,
 * removable), "@" suggestions of notes, folders and tags, and Send (Stop while a reply runs).
 * Enter sends, Shift+Enter makes a new line, nothing is sent while an input method is composing,
 * Up in an empty box brings back the last message, Escape stops a reply. On a phone Enter (the
 * keyboard's return key) only makes a new line: Send sends, and a list item is picked by a tap.
 */
export function ChatComposer({ controller, ref }: { controller: ChatController; ref?: Ref<ComposerHandle> }) {
  const host = useChatHost();
  // Its own fields only: a streaming answer's frames do not draw the box again.
  const running = useChatState(controller, "running");
  const chatId = useChatState(controller, "chatId");
  const [text, setText] = useState("");
  const [suggestions, setSuggestions] = useState<OpenList | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const request = useRef(0);
  /** The suggestions request whose first item Enter picked before it arrived. */
  const pickWhenReady = useRef(0);

  useImperativeHandle(ref, () => ({
    fill: (value: string) => {
      ++request.current;
      setText(value);
      setSuggestions(null);
      window.requestAnimationFrame(() => {
        const element = box.current;
        if (!element || element.value !== value) return;
        element.focus();
        element.setSelectionRange(value.length, value.length);
      });
    },
  }));

  const send = () => {
    if (running || !text.trim()) return;
    const message = text;
    setText("");
    setSuggestions(null);
    void controller.send(message);
  };

  const updateSuggestions = (value: string, caret: number) => {
    const ticket = ++request.current;
    const slash = SLASH.exec(value);
    if (slash) {
      const query = slash[1] ?? "";
      void host.prompts.list().then((prompts) => {
        if (ticket === request.current) setSuggestions({ kind: "prompts", query, items: matchPrompts(prompts, query).slice(0, MAX_SUGGESTIONS), selected: 0 });
      });
      return;
    }
    const match = MENTION.exec(value.slice(0, caret));
    if (!match) {
      setSuggestions(null);
      return;
    }
    const query = match[2] ?? "";
    void host.suggestContext(query, controller.getState().project).then((items) => {
      if (ticket !== request.current) return;
      const shown = items.slice(0, MAX_SUGGESTIONS);
      if (pickWhenReady.current === ticket && shown[0]) {
        choose(shown[0]);
        return;
      }
      // Past a space, words that match nothing are just words: no list, not even an empty one.
      if (shown.length === 0 && /\s/.test(query)) setSuggestions(null);
      else setSuggestions({ kind: "context", query, items: shown, selected: 0 });
    });
  };

  /** A mention being typed at the caret: "@" and a word with no space yet (Enter must not send it half-typed). */
  const mentionAtCaret = (): boolean => {
    const element = box.current;
    const value = element?.value ?? text;
    const match = MENTION.exec(value.slice(0, element?.selectionStart ?? value.length));
    return match !== null && !/\s/.test(match[2] ?? "");
  };

  /** Runs a prompt chosen after "/": the box empties, the prompt goes with the open note and its selection. */
  const runPrompt = (prompt: CustomPrompt) => {
    ++request.current;
    setText("");
    setSuggestions(null);
    if (!running) void host.prompts.run(prompt);
  };

  /** The mention typed so far becomes the chosen note's link (or folder, or tag) in the text, and its chip. */
  const choose = (suggestion: ContextSuggestion) => {
    ++request.current;
    pickWhenReady.current = 0;
    const element = box.current;
    // The box itself, not this render's state: a pick may land after later keys (Enter before the list arrived).
    const value = element?.value ?? text;
    const caret = element?.selectionStart ?? value.length;
    const before = value.slice(0, caret).replace(MENTION, (_whole, space: string) => `${space}${mentionText(suggestion)} `);
    const next = before + value.slice(caret);
    setText(next);
    setSuggestions(null);
    controller.addChip(chipOf(suggestion));
    window.requestAnimationFrame(() => {
      // Keys typed before this frame have moved on: the caret they left stays where it is.
      if (!element || element.value !== next) return;
      element.focus();
      element.setSelectionRange(before.length, before.length);
    });
  };

  /**
   * Images pasted become chips (their bytes stay in memory, nothing is written to the vault); a
   * web address pasted as the whole message also attaches its page (the text stays, to send or edit).
   */
  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = Array.from(event.clipboardData.files);
    if (files.length > 0) {
      event.preventDefault();
      void attachImageFiles(files, controller, (message) => host.notify(message));
      return;
    }
    const url = text.trim() === "" ? webAddress(event.clipboardData.getData("text/plain")) : null;
    if (url) controller.addChip(webChip(url));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // An input method (Chinese, Japanese, …) uses Enter to confirm its own text.
    if (event.nativeEvent.isComposing || event.key === "Process") return;
    if (event.key === "Enter" && Platform.isPhone) return;
    if (suggestions && suggestions.items.length > 0) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        const step = event.key === "ArrowDown" ? 1 : -1;
        setSuggestions({ ...suggestions, selected: (suggestions.selected + step + suggestions.items.length) % suggestions.items.length });
        return;
      }
      if (event.key === "Enter" || event.key === "Tab") {
        event.preventDefault();
        if (suggestions.kind === "prompts") runPrompt(suggestions.items[suggestions.selected]!);
        else choose(suggestions.items[suggestions.selected]!);
        return;
      }
    }
    if (event.key === "Escape") {
      if (suggestions) setSuggestions(null);
      else if (running) controller.stop();
      return;
    }
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      // A mention still being typed is finished by Enter (with the first suggestion, once it is there), never sent.
      if (mentionAtCaret()) pickWhenReady.current = request.current;
      else send();
      return;
    }
    if (event.key === "ArrowUp" && text === "") {
      const last = controller.getState().messages.findLast((message) => message.role === "user");
      if (last && last.role === "user") {
        event.preventDefault();
        setText(last.text);
      }
    }
  };

  const listId = `${chatId}-suggestions`;
  return (
    <div className="vault-copilot-composer">
      <ChipRow controller={controller} />
      {suggestions?.kind === "context" && (
        <OptionList
          id={listId}
          label={t("composer.contextSuggestions")}
          empty={t("composer.noContextMatch", { query: suggestions.query })}
          selected={suggestions.selected}
          options={suggestions.items.map((item) => ({ key: `${item.kind}:${item.value}`, kind: item.kind === "web" ? "page" : item.kind, text: item.label, onChoose: () => choose(item) }))}
        />
      )}
      {suggestions?.kind === "prompts" && (
        <OptionList
          id={listId}
          label={t("composer.prompts")}
          empty={suggestions.query ? t("composer.noPromptMatch", { query: suggestions.query }) : t("composer.noPrompts")}
          selected={suggestions.selected}
          options={suggestions.items.map((prompt) => ({ key: prompt.path, kind: prompt.edit ? "edit" : "prompt", text: prompt.description ? `${prompt.name} — ${prompt.description}` : prompt.name, onChoose: () => runPrompt(prompt) }))}
        />
      )}
      <div className="vault-copilot-input-row">
        <textarea
          ref={box}
          className="vault-copilot-input"
          aria-label={t("composer.message")}
          placeholder={t("composer.placeholder")}
          rows={3}
          value={text}
          aria-controls={suggestions ? listId : undefined}
          aria-activedescendant={suggestions && suggestions.items.length > 0 ? `${listId}-${suggestions.selected}` : undefined}
          onChange={(event) => {
            setText(event.target.value);
            updateSuggestions(event.target.value, event.target.selectionStart ?? event.target.value.length);
          }}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          onBlur={() => setSuggestions(null)}
        />
        {/* Send and Stop leave the focus in the message box: on a phone the keyboard stays up for the next message. */}
        {running ? (
          <button type="button" className="vault-copilot-stop" onMouseDown={keepFocus} onClick={() => controller.stop()}>
            {t("composer.stop")}
          </button>
        ) : (
          // Obsidian's call-to-action colours fade to unreadable when disabled (light theme): only an enabled Send gets them.
          <button type="button" className={`vault-copilot-send${text.trim() ? " mod-cta" : ""}`} disabled={!text.trim()} onMouseDown={keepFocus} onClick={send}>
            {t("composer.send")}
          </button>
        )}
      </div>
    </div>
  );
}

/** A press that must not take the focus from the message box. */
function keepFocus(event: MouseEvent): void {
  event.preventDefault();
}

interface ListOption {
  key: string;
  kind: "note" | "folder" | "tag" | "image" | "page" | "prompt" | "edit";
  text: string;
  onChoose: () => void;
}

/** The list under the message box (a listbox the box points into with aria-activedescendant). */
function OptionList({ id, label, empty, selected, options }: { id: string; label: string; empty: string; selected: number; options: ListOption[] }) {
  return (
    <ul className="vault-copilot-suggestions" id={id} role="listbox" aria-label={label}>
      {options.length === 0 && <li className="vault-copilot-suggestion-empty">{empty}</li>}
      {options.map((option, index) => (
        <li
          key={option.key}
          id={`${id}-${index}`}
          role="option"
          aria-selected={index === selected}
          className={`vault-copilot-suggestion is-${option.kind}${index === selected ? " is-selected" : ""}`}
          onMouseDown={(event) => {
            event.preventDefault();
            option.onChoose();
          }}
        >
          <span className="vault-copilot-suggestion-kind">{t(`composer.kind.${option.kind}`)}</span> {option.text}
        </li>
      ))}
    </ul>
  );
}

function ChipRow({ controller }: { controller: ChatController }) {
  const activeNote = useChatState(controller, "activeNote");
  const chips = useChatState(controller, "chips");
  const project = useChatState(controller, "project");
  const outside = useOutsideProject(project, activeNote, chips);
  if (!activeNote && chips.length === 0) return null;
  return (
    <ul className="vault-copilot-chips" aria-label={t("composer.context")}>
      {activeNote &&
        (activeNote.included ? (
          <li className="vault-copilot-chip is-active-note" title={activeNote.path}>
            <span>{baseName(activeNote.path)}</span>
            <span className="vault-copilot-chip-hint">{t(outside.has(activeNote.path) ? "composer.currentNoteOutside" : "composer.currentNote")}</span>
            <button type="button" className="vault-copilot-chip-remove" aria-label={t("composer.removeChip", { name: baseName(activeNote.path) })} onClick={() => controller.includeActiveNote(false)}>
              ×
            </button>
          </li>
        ) : (
          <li className="vault-copilot-chip is-off">
            <button type="button" onClick={() => controller.includeActiveNote(true)}>
              {t("composer.addCurrentNote", { name: baseName(activeNote.path) })}
            </button>
          </li>
        ))}
      {chips.map((chip) => (
        <ChipItem key={chip.id} chip={chip} outside={outside.has(chip.target)} onRemove={() => controller.removeChip(chip.id)} />
      ))}
    </ul>
  );
}

/**
 * Inside a project, the notes and vault images of the chips that lie outside it: a note attached
 * by hand goes with the message, an image, PDF or canvas does not (they are read only inside the
 * project), and the chip says which; the model's tools still cannot reach either.
 */
function useOutsideProject(project: ChatState["project"], activeNote: ChatState["activeNote"], chips: readonly ContextChip[]): ReadonlySet<string> {
  const host = useChatHost();
  const [outside, setOutside] = useState<ReadonlySet<string>>(new Set());
  const paths = [...(activeNote ? [activeNote.path] : []), ...chips.filter((chip) => chip.kind === "note" || chip.kind === "selection" || (chip.kind === "image" && !chip.pasted)).map((chip) => chip.target)];
  const key = `${project ?? ""}\u0000${paths.join("\u0000")}`;
  useEffect(() => {
    let live = true;
    if (project === null || paths.length === 0) setOutside(new Set());
    else {
      host.projects.outside(project, paths).then(
        (found) => live && setOutside(new Set(found)),
        () => undefined,
      );
    }
    return () => {
      live = false;
    };
    // The key holds the project and the paths (the array itself is new at every render).
  }, [host, key]);
  return outside;
}

function ChipItem({ chip, outside, onRemove }: { chip: ContextChip; outside: boolean; onRemove: () => void }) {
  return (
    <li className={`vault-copilot-chip is-${chip.kind}${outside ? " is-outside-project" : ""}`} title={chip.target}>
      <span>{chip.label}</span>
      {/* A note attached by hand still goes; an image, PDF or canvas is read only from inside the project. */}
      {outside && <span className="vault-copilot-chip-hint">{t(chip.kind === "image" || isDocumentFile(chip.target) ? "composer.outsideProjectNotSent" : "composer.outsideProject")}</span>}
      <button type="button" className="vault-copilot-chip-remove" aria-label={t("composer.removeChip", { name: chip.label })} onClick={onRemove}>
        ×
      </button>
    </li>
  );
}

function chipOf(suggestion: ContextSuggestion): ContextChip {
  if (suggestion.kind === "folder") return folderChip(suggestion.value);
  if (suggestion.kind === "tag") return tagChip(suggestion.value);
  if (suggestion.kind === "image") return imageChip(suggestion.value);
  if (suggestion.kind === "web") return webChip(suggestion.value);
  return noteChip(suggestion.value);
}
