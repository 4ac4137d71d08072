import { ContextManager } from "../context/ContextManager";
import type { AssistantMessage, ChatMessage, ToolCallPart, UserMessage } from "./chatTypes";
import { questionContext, untoldUndoneEdits } from "./undoneEdits";

const question = (id: string, undoneEdits?: string[]): UserMessage => ({ id, role: "user", text: id, chips: [], artifacts: [], sentAt: 0, ...(undoneEdits ? { undoneEdits } : {}) });
const edit = (id: string, undone?: string): ToolCallPart => ({ type: "tool-call", id, toolName: "replaceInFile", args: {}, status: "ok", startedAt: 0, ...(undone ? { undone: { path: undone } } : {}) });
const answer = (id: string, ...parts: ToolCallPart[]): AssistantMessage => ({ id, role: "assistant", parts, status: "done", mode: "agent", model: "m", startedAt: 0 });

/** A note name with a decomposed letter (NFD) and one in Thai: kept as they are. */
const NFD = "Cafe\u0301/Menu.md";
const THAI = "บันทึก/วันนี้.md";

describe("edits the user undid", () => {
  it("are untold until a question tells them, counted per note: a note edited and undone twice is told twice", () => {
    const messages: ChatMessage[] = [question("q1"), answer("a1", edit("c1", NFD), edit("c2")), question("q2", [NFD]), answer("a2", edit("c3", NFD), edit("c4", THAI))];
    expect(untoldUndoneEdits(messages)).toEqual([NFD, THAI]);
    expect(untoldUndoneEdits([...messages, question("q3", [NFD, THAI])])).toEqual([]);
  });

  it("reach the model as a block before the question, and a second undo of the same note is a block of its own, not taken for the first", () => {
    const first = question("q2", [NFD]);
    const messages: ChatMessage[] = [question("q1"), answer("a1", edit("c1", NFD)), first, answer("a2", edit("c2", NFD))];
    const second = question("q3", [NFD]);
    const [block1] = questionContext(messages, first);
    const [block2] = questionContext(messages, second);
    expect(block1).toMatchObject({ kind: "text", source: NFD, content: `The user undid the edit of ${NFD}: the note is back as it was before that edit.` });
    expect(block2?.id).not.toBe(block1?.id);
    // The first block is in the library by the third question; the second still goes as this turn's context.
    const conversation = new ContextManager([{ userMessage: "q2", attachments: [block1!], assistantMessage: "a2" }]);
    const envelope = conversation.buildEnvelope({ system: "s", userMessage: "q3", attachments: questionContext(messages, second) });
    expect(envelope.contextLibrary).toEqual([block1]);
    expect(envelope.turnContext).toEqual([block2]);
  });
});
