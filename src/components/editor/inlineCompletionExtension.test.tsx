import { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { waitFor } from "@testing-library/react";
// The Obsidian double: its import gives the page Obsidian's DOM helpers (createSpan, which the widget uses).
import "obsidian";
import { FakeScheduler } from "../../../test/helpers/fakeScheduler";
import { startOpenAIServer, type OpenAIServer, type ScriptedResponse } from "../../../test/helpers/openAIServer";
import { makeTempVault, type TempVault } from "../../../test/helpers/tempVault";
import { DEFAULT_SETTINGS } from "../../constants";
import { completer } from "../../editor/completer";
import { CompletionUsage } from "../../editor/completionUsage";
import { MapSecretStore } from "../../ports/SecretStore";
import { FsDataStore } from "../../vault/fsDataStore";
import { GHOST_TEXT_CLASS, inlineCompletionExtension } from "./inlineCompletionExtension";

const NOTE = "# 日记\n\nПосле обеда мы";
const SUGGESTION = "пошли в парк 🌳.";

/**
 * The extension in a real CodeMirror editor (jsdom) over a scripted server and a real data folder;
 * the pause runs on a scheduler that moves only when told. Keys are the browser's keydown events
 * on the editor's content, as CodeMirror receives them.
 */
describe("the inline completion extension in a CodeMirror editor", () => {
  let server: OpenAIServer;
  let folder: TempVault;
  let usage: CompletionUsage;
  let scheduler: FakeScheduler;
  let view: EditorView;
  let answers: ScriptedResponse[];
  let notices: string[];

  beforeEach(async () => {
    answers = [];
    notices = [];
    server = await startOpenAIServer(() => answers.shift() ?? { status: 500, message: "no completion scripted" });
    folder = makeTempVault();
    usage = new CompletionUsage(new FsDataStore(folder.root));
    scheduler = new FakeScheduler();
    const settings = { ...DEFAULT_SETTINGS.completion, enabled: true, model: { ...DEFAULT_SETTINGS.completion.model, preset: "custom" as const, baseUrl: server.baseUrl, model: "small" } };
    const extension = inlineCompletionExtension({
      policy: () => ({ enabled: true, pauseMs: 600, onMobile: false, dailyRequestCap: 500, prices: settings.model.prices }),
      mobile: false,
      scheduler,
      usage,
      complete: completer({ settings: () => settings, secrets: new MapSecretStore(), fetch: globalThis.fetch }),
      notify: (message) => notices.push(message),
      notePath: () => "Журнал/Дневник.md",
    });
    view = new EditorView({ parent: document.body, state: EditorState.create({ doc: NOTE, selection: { anchor: NOTE.length }, extensions: [extension] }) });
  });

  afterEach(async () => {
    view.destroy();
    await usage.flushed();
    await server.close();
    folder.remove();
    // A failed request would have been told to the user: none is expected here.
    expect(notices).toEqual([]);
  });

  const ghost = () => view.contentDOM.querySelector(`.${GHOST_TEXT_CLASS}`)?.textContent ?? null;

  /** The user types `text` at the end of the note, pauses, and the suggestion is shown in full. */
  async function typeAndPause(text: string, answer: string): Promise<void> {
    answers.push({ text: answer });
    const end = view.state.doc.length;
    view.dispatch({ changes: { from: end, insert: text }, selection: { anchor: end + text.length }, userEvent: "input.type" });
    scheduler.advance(600);
    await waitFor(() => expect(ghost()).toBe(answer));
  }

  /** Presses a key in the editor; true when something in the editor took it (the browser will not act on it). */
  function press(key: string): boolean {
    const event = new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true });
    view.contentDOM.dispatchEvent(event);
    return event.defaultPrevented;
  }

  it("Tab puts the shown suggestion into the note and keeps the key from the browser (focus stays in the note)", async () => {
    await typeAndPause(" ", SUGGESTION);
    expect(press("Tab")).toBe(true);
    expect(view.state.doc.toString()).toBe(`${NOTE} ${SUGGESTION}`);
    expect(view.state.selection.main.head).toBe(view.state.doc.length);
    expect(ghost()).toBeNull();
  });

  it("with no suggestion shown, Tab is left to the editor and the app (indenting, moving focus)", () => {
    expect(press("Tab")).toBe(false);
    expect(view.state.doc.toString()).toBe(NOTE);
  });

  it("a selection set again where the cursor already is keeps the suggestion and asks nothing new, and completion goes on working", async () => {
    await typeAndPause(" ", SUGGESTION);
    view.dispatch({ selection: { anchor: view.state.doc.length } });
    scheduler.advance(600);
    expect(ghost()).toBe(SUGGESTION);
    expect(server.requests).toHaveLength(1);
    // Other text typed ends that suggestion; the next pause asks again (the extension did not fail inside the update).
    await typeAndPause("ушли", " домой.");
    expect(server.requests).toHaveLength(2);
  });

  it("asks only after typing: a click that moves the cursor, or text changed by something else (a sync), asks nothing", async () => {
    // Clicks (as the mouse sets a selection: "select.pointer") at the heading's end and back at the last line's end.
    // Nothing waits to ask after any of these: no pause is timed at all.
    view.dispatch({ selection: { anchor: "# 日记".length }, userEvent: "select.pointer" });
    expect(scheduler.pending).toBe(0);
    view.dispatch({ selection: { anchor: view.state.doc.length }, userEvent: "select.pointer" });
    expect(scheduler.pending).toBe(0);
    // A sync writes a line into the note, the cursor at its end (no user event).
    view.dispatch({ changes: { from: view.state.doc.length, insert: "\nС телефона: 🌧 и" }, selection: { anchor: view.state.doc.length + "\nС телефона: 🌧 и".length } });
    expect(scheduler.pending).toBe(0);
    expect(server.requests).toHaveLength(0);
    // Typing then asks after its pause, as ever.
    await typeAndPause(" и", " пошли домой.");
    expect(server.requests).toHaveLength(1);
  });

  it("the editor losing focus takes the suggestion away, and Tab then inserts nothing", async () => {
    await typeAndPause(" ", SUGGESTION);
    view.contentDOM.dispatchEvent(new FocusEvent("blur"));
    expect(ghost()).toBeNull();
    expect(press("Tab")).toBe(false);
    expect(view.state.doc.toString()).toBe(`${NOTE} `);
  });
});
