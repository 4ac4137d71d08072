/**
 * The double's workspace as the chat view meets it: sidebars in the page, the active note and its
 * editor, links opened, editor commands, and Keymap's reading of modifier keys.
 */
import { App, ItemView, Keymap, MarkdownView, Platform, Plugin, TFile, type WorkspaceLeaf } from "./obsidian";

afterEach(() => document.body.empty());

const manifest = { id: "test-plugin", name: "Test", author: "", version: "1.0.0", minAppVersion: "1.0.0", description: "" };

class SideView extends ItemView {
  getViewType(): string {
    return "side";
  }
  getDisplayText(): string {
    return "Side";
  }
}

async function appWithNotes(): Promise<{ app: App; first: TFile; second: TFile }> {
  const app = new App();
  await app.vault.createFolder("Notes");
  const first = await app.vault.create("Notes/First.md", "line one\nline two");
  const second = await app.vault.create("Second.md", "second note");
  return { app, first, second };
}

describe("Workspace in a page", () => {
  it("shows a right leaf's view inside the right sidebar element, in the document", async () => {
    const app = new App();
    app.workspace.registerViewType("side", (leaf) => new SideView(leaf));
    const leaf = app.workspace.getRightLeaf(false);
    await leaf.setViewState({ type: "side" });
    const sidebar = document.querySelector<HTMLElement>(".workspace .workspace-split.mod-right-split")!;
    expect(sidebar).toBe(app.workspace.rightSplit.containerEl);
    expect(sidebar.contains(leaf.view!.containerEl)).toBe(true);
    expect(document.body.contains(leaf.view!.containerEl)).toBe(true);
    expect(sidebar.querySelector('.workspace-leaf > .workspace-leaf-content[data-type="side"]')).toBe(leaf.view!.containerEl);

    await leaf.close();
    expect(sidebar.childElementCount).toBe(0);
  });

  it("openFile makes the note active in a MarkdownView, with file-open and active-leaf-change", async () => {
    const { app, first, second } = await appWithNotes();
    const events: string[] = [];
    app.workspace.on("file-open", (file) => events.push(`file-open ${file instanceof TFile ? file.path : "none"}`));
    app.workspace.on("active-leaf-change", (leaf) => events.push(`leaf ${(leaf as WorkspaceLeaf).getViewState().type}`));
    expect(app.workspace.getActiveFile()).toBeNull();

    const leaf = await app.workspace.openFile(first);
    expect(app.workspace.getActiveFile()).toBe(first);
    const view = app.workspace.getActiveViewOfType(MarkdownView)!;
    expect(view.file).toBe(first);
    expect(view.editor.getValue()).toBe("line one\nline two");
    expect(document.querySelector(".mod-root")?.contains(view.containerEl)).toBe(true);

    await app.workspace.openFile(second);
    expect(app.workspace.getActiveFile()).toBe(second);
    expect(app.workspace.getLeaf(false)).toBe(leaf); // the same main leaf was reused
    // The same leaf showed the second note: it stayed the active leaf, so only "file-open" fired.
    expect(events).toEqual(["leaf markdown", "file-open Notes/First.md", "file-open Second.md"]);
  });

  it("keeps the active file while a sidebar leaf is active, but getActiveViewOfType(MarkdownView) is then null", async () => {
    const { app, first } = await appWithNotes();
    app.workspace.registerViewType("side", (leaf) => new SideView(leaf));
    await app.workspace.openFile(first);
    const side = app.workspace.getRightLeaf(false);
    await side.setViewState({ type: "side" });
    app.workspace.setActiveLeaf(side);
    expect(app.workspace.getActiveFile()).toBe(first);
    expect(app.workspace.getActiveViewOfType(MarkdownView)).toBeNull();
    expect(app.workspace.getActiveViewOfType(SideView)).toBe(side.view);
  });

  it("openLinkText records the call and opens the linked note; an unresolved link opens nothing", async () => {
    const { app, first } = await appWithNotes();
    await app.workspace.openLinkText("First#line two", "Chat.md", "tab");
    await app.workspace.openLinkText("Nowhere", "Chat.md");
    expect(app.workspace.openedLinks).toEqual([
      { linktext: "First#line two", sourcePath: "Chat.md", newLeaf: "tab" },
      { linktext: "Nowhere", sourcePath: "Chat.md", newLeaf: undefined },
    ]);
    expect(app.workspace.getActiveFile()).toBe(first);
  });

  it("records hover-link events and still hands them to listeners", () => {
    const app = new App();
    const heard: unknown[] = [];
    app.workspace.on("hover-link", (data) => heard.push(data));
    const data = { event: new MouseEvent("mouseover"), source: "vault-copilot", linktext: "Note", sourcePath: "" };
    app.workspace.trigger("hover-link", data);
    expect(app.workspace.hoverLinks).toEqual([data]);
    expect(heard).toEqual([data]);
  });
});

describe("MarkdownView and its Editor", () => {
  it("writes an edit made through the editor to the note, and reloads when the note changes elsewhere", async () => {
    const { app, first } = await appWithNotes();
    await app.workspace.openFile(first);
    const view = app.workspace.getActiveViewOfType(MarkdownView)!;
    view.editor.setCursor({ line: 1, ch: 4 });
    view.editor.replaceSelection(" inserted");
    await view.saved();
    expect(await app.vault.read(first)).toBe("line one\nline inserted two");
    expect(view.editorView.state.doc.toString()).toBe("line one\nline inserted two");

    await app.vault.process(first, (text) => text.toUpperCase());
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(view.editor.getValue()).toBe("LINE ONE\nLINE INSERTED TWO");
    expect(view.editorView.state.doc.toString()).toBe("LINE ONE\nLINE INSERTED TWO");
  });

  it("takes typing and the selection from its CodeMirror editor, a textbox named Note editor", async () => {
    const { app, first } = await appWithNotes();
    await app.workspace.openFile(first);
    const view = app.workspace.getActiveViewOfType(MarkdownView)!;
    const editor = view.editorView;
    expect(editor.contentDOM.getAttribute("role")).toBe("textbox");
    expect(editor.contentDOM.getAttribute("aria-label")).toBe("Note editor");
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: "alpha beta" }, userEvent: "input.type" });
    editor.dispatch({ selection: { anchor: 6, head: 10 } });
    expect(view.editor.getSelection()).toBe("beta");
    expect(view.editor.getCursor("from")).toEqual({ line: 0, ch: 6 });
    await view.saved();
    expect(await app.vault.read(first)).toBe("alpha beta");
  });

  it("Editor positions, ranges and selections", () => {
    const { editor } = new MarkdownView(new App().workspace.getLeaf(true));
    editor.setValue("ab\ncde\nf");
    expect(editor.lineCount()).toBe(3);
    expect(editor.getLine(1)).toBe("cde");
    expect(editor.posToOffset({ line: 1, ch: 2 })).toBe(5);
    expect(editor.offsetToPos(5)).toEqual({ line: 1, ch: 2 });
    editor.setSelection({ line: 1, ch: 3 }, { line: 0, ch: 1 });
    expect(editor.getSelection()).toBe("b\ncde");
    expect(editor.listSelections()).toEqual([{ anchor: { line: 1, ch: 3 }, head: { line: 0, ch: 1 } }]);
    expect(editor.getCursor("from")).toEqual({ line: 0, ch: 1 });
    expect(editor.getRange({ line: 0, ch: 0 }, { line: 1, ch: 1 })).toBe("ab\nc");
    editor.replaceRange("X", { line: 2, ch: 0 }, { line: 2, ch: 1 });
    expect(editor.getValue()).toBe("ab\ncde\nX");
  });
});

describe("Plugin.runCommand (the command palette)", () => {
  it("calls an editor command with the active MarkdownView's editor, and refuses it without one", async () => {
    const { app, first } = await appWithNotes();
    const plugin = new Plugin(app, manifest);
    await plugin.enable();
    const selections: string[] = [];
    plugin.addCommand({ id: "take-selection", name: "Take selection", editorCallback: (editor, context) => selections.push(`${editor.getSelection()} in ${context.file?.path}`) });
    let plainRuns = 0;
    plugin.addCommand({ id: "plain", name: "Plain", callback: () => plainRuns++ });

    expect(await plugin.runCommand("take-selection")).toBe(false);
    await app.workspace.openFile(first);
    app.workspace.getActiveViewOfType(MarkdownView)!.editor.setSelection({ line: 0, ch: 5 }, { line: 0, ch: 8 });
    expect(await plugin.runCommand("test-plugin:take-selection")).toBe(true);
    expect(await plugin.runCommand("plain")).toBe(true);
    expect(await plugin.runCommand("unknown")).toBe(false);
    expect(selections).toEqual(["one in Notes/First.md"]);
    expect(plainRuns).toBe(1);
  });
});

describe("Keymap", () => {
  afterEach(() => (Platform.isMacOS = false));

  it("isModEvent: Ctrl (Cmd on macOS) is a tab, with Alt a split, with Alt+Shift a window; a middle click is a tab", () => {
    expect(Keymap.isModEvent(new MouseEvent("click"))).toBe(false);
    expect(Keymap.isModEvent(null)).toBe(false);
    expect(Keymap.isModEvent(new MouseEvent("click", { ctrlKey: true }))).toBe("tab");
    expect(Keymap.isModEvent(new MouseEvent("click", { ctrlKey: true, altKey: true }))).toBe("split");
    expect(Keymap.isModEvent(new KeyboardEvent("keydown", { ctrlKey: true, altKey: true, shiftKey: true }))).toBe("window");
    expect(Keymap.isModEvent(new MouseEvent("auxclick", { button: 1 }))).toBe("tab");
    expect(Keymap.isModEvent(new MouseEvent("click", { metaKey: true }))).toBe(false);
    Platform.isMacOS = true;
    expect(Keymap.isModEvent(new MouseEvent("click", { metaKey: true }))).toBe("tab");
    expect(Keymap.isModifier(new MouseEvent("click", { metaKey: true }), "Mod")).toBe(true);
  });
});
