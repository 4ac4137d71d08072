import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeChat, type ChatSetup } from "../../test/helpers/chatHarness";
import { startOpenAIServer, type OpenAIServer, type Script } from "../../test/helpers/openAIServer";
import { finalAnswerText, isAssistant, type ToolCallPart } from "../chat/chatTypes";
import { rewriteOf, withSelectionEdit } from "./selectionEdit";

const DRAFT = "# Draft\n\nThis sentense has a eror.\nThe second line stays.\n";
const SELECTION = "This sentense has a eror.";

describe("an edit prompt's answer applied to the selection", () => {
  let server: OpenAIServer | undefined;
  let chat: ChatSetup;
  let opened: ChatSetup | undefined;
  const open = async (script: Script) => {
    server = await startOpenAIServer(script);
    chat = makeChat(server, { notes: { "Notes/Draft.md": DRAFT }, settings: { defaultMode: "chat" } });
    opened = chat;
    return chat;
  };
  afterEach(async () => {
    await opened?.dispose();
    await server?.close();
    opened = undefined;
    server = undefined;
  });

  const note = () => readFileSync(join(chat.vault.root, "Notes/Draft.md"), "utf8");
  const sendEdit = () => {
    const tool = chat.registry.getAllTools().find((definition) => definition.metadata.id === "replaceInFile")?.tool;
    if (!tool) throw new Error("no replaceInFile");
    return chat.controller.send("Fix the grammar of the selected text (attached above).", {
      wrapRunner: (runner) => withSelectionEdit(runner, { path: "Notes/Draft.md", text: SELECTION }, tool, 60_000),
    });
  };

  it("streams the rewrite, shows it as a diff in the chat, and writes exactly it when accepted (undo kept)", async () => {
    const { controller, until, editHistory } = await open([{ text: "This sentence has an error." }]);
    const run = sendEdit();
    const waiting = await until((state) => state.approvals.length === 1);
    const approval = waiting.approvals[0]!;
    expect(approval.kind).toBe("edit");
    // Nothing is written while the diff waits; the answer has streamed.
    expect(note()).toBe(DRAFT);
    controller.answerApproval(approval.id, { approved: true });
    await run;
    expect(note()).toBe("# Draft\n\nThis sentence has an error.\nThe second line stays.\n");
    const answer = controller.getState().messages.findLast(isAssistant)!;
    expect(answer.status).toBe("done");
    const banner = answer.parts.find((part): part is ToolCallPart => part.type === "tool-call");
    expect(banner).toMatchObject({ toolName: "replaceInFile", status: "ok", output: { status: "applied", path: "Notes/Draft.md" } });
    // The conversation keeps the rewrite as the answer (not an empty one).
    expect(finalAnswerText(answer)).toBe("This sentence has an error.");
    expect((await editHistory.list()).map((entry) => entry.path)).toEqual(["Notes/Draft.md"]);
  });

  it("writes nothing when rejected", async () => {
    const { controller, until } = await open([{ text: "This sentence has an error." }]);
    const run = sendEdit();
    const waiting = await until((state) => state.approvals.length === 1);
    controller.answerApproval(waiting.approvals[0]!.id, { approved: false, reason: "not now" });
    await run;
    expect(note()).toBe(DRAFT);
    const banner = controller.getState().messages.findLast(isAssistant)!.parts.find((part) => part.type === "tool-call");
    expect(banner).toMatchObject({ output: { status: "rejected" } });
  });

  it("never writes over a note whose selection changed while the diff waited", async () => {
    const { controller, until } = await open([{ text: "This sentence has an error." }]);
    const run = sendEdit();
    const waiting = await until((state) => state.approvals.length === 1);
    const changed = DRAFT.replace(SELECTION, "Rewritten by hand meanwhile.");
    writeFileSync(join(chat.vault.root, "Notes/Draft.md"), changed);
    controller.answerApproval(waiting.approvals[0]!.id, { approved: true });
    await run;
    expect(note()).toBe(changed);
    const banner = controller.getState().messages.findLast(isAssistant)!.parts.find((part): part is ToolCallPart => part.type === "tool-call");
    expect(banner?.status).toBe("error");
  });

  it("takes off a code fence the model put around the rewrite, and keeps the selection's own spacing", () => {
    expect(rewriteOf("```markdown\nFixed text.\n```", "Broken text.")).toBe("Fixed text.");
    expect(rewriteOf("Fixed text.", "  Broken text.\n")).toBe("  Fixed text.\n");
    expect(rewriteOf("\nFixed\ntext.\n\n", "a\nb")).toBe("Fixed\ntext.");
  });

  it("takes off a fence of tildes or of four backticks, keeping the fence lines inside, and leaves text that only starts with a fence", () => {
    expect(rewriteOf("~~~ markdown title\nИсправленный текст.\n~~~", "x")).toBe("Исправленный текст.");
    expect(rewriteOf("````md\n修正した文。\n```js\ncode\n```\n````\r\n", "x")).toBe("修正した文。\n```js\ncode\n```");
    expect(rewriteOf("```\nنص\n```\nبعد", "x")).toBe("```\nنص\n```\nبعد");
  });
});
