import { Prec, StateEffect, StateField, type EditorState, type Extension } from "@codemirror/state";
import { Decoration, EditorView, keymap, ViewPlugin, WidgetType, type ViewUpdate } from "@codemirror/view";
import { CompletionSession, type CompletionSessionPorts, type EditorSnapshot, type Ghost } from "../../editor/CompletionSession";
import { ghostAfterTyping, nextWord } from "../../editor/ghostText";

/** The class of the ghost text's element (the demo's tests and the stylesheet find it by this name). */
export const GHOST_TEXT_CLASS = "vault-copilot-ghost-text";

/** What the extension needs besides the editor: the session's ports but the ghost's own, and the note's title. */
export interface InlineCompletionPorts extends Omit<CompletionSessionPorts, "show" | "clear"> {
  /** The note's name for the editor's state (Obsidian's editorInfoField). */
  notePath(state: EditorState): string;
}

const setGhost = StateEffect.define<Ghost | null>();

/**
 * The ghost text, kept in the editor's state so that it maps through changes: typing its own next
 * characters shortens it (ghostAfterTyping), any other change or a cursor moved away ends it.
 */
const ghostField = StateField.define<Ghost | null>({
  create: () => null,
  update(ghost, transaction) {
    for (const effect of transaction.effects) if (effect.is(setGhost)) return effect.value;
    if (!ghost) return null;
    let kept: Ghost | null = ghost;
    if (transaction.docChanged) {
      let changes = 0;
      transaction.changes.iterChanges((fromA, toA, _fromB, _toB, inserted) => {
        changes++;
        kept = fromA === toA ? ghostAfterTyping(ghost, fromA, inserted.toString()) : null;
      });
      if (changes !== 1) kept = null;
    }
    const cursor = transaction.state.selection.main;
    return kept && cursor.empty && cursor.head === kept.at ? kept : null;
  },
  provide: (field) =>
    EditorView.decorations.from(field, (ghost) => (ghost ? Decoration.set([Decoration.widget({ widget: new GhostWidget(ghost.text), side: 1 }).range(ghost.at)]) : Decoration.none)),
});

/** The suggestion drawn after the cursor: text only (textContent), never part of the note until accepted. */
class GhostWidget extends WidgetType {
  constructor(readonly text: string) {
    super();
  }

  override eq(other: GhostWidget): boolean {
    return other.text === this.text;
  }

  toDOM(): HTMLElement {
    return createSpan({ cls: GHOST_TEXT_CLASS, text: this.text });
  }

  override ignoreEvent(): boolean {
    return false;
  }
}

/** Puts `text` of the ghost into the note at the cursor, and shows what is left of it (if anything). */
function accept(view: EditorView, text: string): boolean {
  const ghost = view.state.field(ghostField, false);
  if (!ghost) return false;
  const rest = ghost.text.slice(text.length);
  const at = ghost.at + text.length;
  view.dispatch({
    changes: { from: ghost.at, insert: text },
    selection: { anchor: at },
    effects: setGhost.of(rest ? { at, text: rest } : null),
    userEvent: "input.complete",
    scrollIntoView: true,
  });
  return true;
}

function snapshotOf(state: EditorState, path: string): EditorSnapshot {
  const cursor = state.selection.main;
  return { text: state.doc.toString(), cursor: cursor.head, selection: state.selection.ranges.some((range) => !range.empty), path };
}

/** Keys that dismiss nothing by themselves (modifiers), and the keys the keymap handles. */
const NEUTRAL_KEYS = new Set(["Shift", "Control", "Alt", "Meta", "CapsLock", "Tab", "Escape", "Dead", "Process", "Compose"]);

/**
 * Inline completion for a CodeMirror 6 editor (what `registerEditorExtension` takes): one
 * CompletionSession per editor, fed every change of text or cursor; ghost text as a widget after
 * the cursor; Tab accepts it all, Ctrl/Cmd+→ one word, Escape or any other key dismisses it,
 * typing its own characters keeps it. Nothing is asked while an input method composes (Chinese,
 * Japanese, Korean input): the composed text arrives as one change when it is done.
 */
export function inlineCompletionExtension(ports: InlineCompletionPorts): Extension {
  const plugin = ViewPlugin.fromClass(
    class {
      readonly session: CompletionSession;

      constructor(readonly view: EditorView) {
        this.session = new CompletionSession({
          ...ports,
          show: (ghost) => {
            const cursor = view.state.selection.main;
            if (cursor.empty && cursor.head === ghost.at) view.dispatch({ effects: setGhost.of(ghost) });
          },
          clear: () => {
            if (view.state.field(ghostField, false)) view.dispatch({ effects: setGhost.of(null) });
          },
        });
      }

      update(update: ViewUpdate): void {
        if (!update.docChanged && !update.selectionSet) return;
        if (update.view.composing) {
          this.session.dismiss();
          return;
        }
        // A ghost the field still holds is still right where the cursor is (typed over by its own
        // letters, or the selection set again in place): nothing to clear, nothing new to ask. The
        // field dropped any other, so the session never needs to dispatch during this update.
        const kept = update.state.field(ghostField, false) !== null;
        // Typing and deleting (and taking a suggestion) ask after a pause; a click, an arrow key or a change made by something else does not.
        const typed = update.transactions.some((transaction) => transaction.isUserEvent("input") || transaction.isUserEvent("delete"));
        this.session.changed(snapshotOf(update.state, ports.notePath(update.state)), kept ? "kept" : typed ? "typed" : "moved");
      }

      destroy(): void {
        this.session.dispose();
      }
    },
    {
      eventHandlers: {
        blur() {
          this.session.dismiss();
        },
        keydown(event) {
          if (NEUTRAL_KEYS.has(event.key) || event.key.length === 1) return false;
          if ((event.ctrlKey || event.metaKey) && event.key === "ArrowRight") return false;
          // Arrows, Home, Page Down, Backspace, Enter…: the suggestion goes before the key acts.
          if (this.view.state.field(ghostField, false)) this.view.dispatch({ effects: setGhost.of(null) });
          return false;
        },
      },
    },
  );
  return [
    ghostField,
    plugin,
    Prec.highest(
      keymap.of([
        { key: "Tab", run: (view) => accept(view, view.state.field(ghostField, false)?.text ?? "") },
        { key: "Mod-ArrowRight", run: (view) => accept(view, nextWord(view.state.field(ghostField, false)?.text ?? "")) },
        {
          key: "Escape",
          run: (view) => {
            if (!view.state.field(ghostField, false)) return false;
            view.dispatch({ effects: setGhost.of(null) });
            return true;
          },
        },
      ]),
    ),
  ];
}
