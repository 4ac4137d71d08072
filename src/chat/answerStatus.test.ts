import { parseChat } from "../history/chatNoteFormat";
import { messagesFromRecord } from "../history/chatStateRecord";
import { ANSWER_STATUSES, liveStatus, savedStatus, savedStatusNamed } from "./answerStatus";

describe("an answer's status, live and saved", () => {
  it("gives every live status a word of its own in the note, and reads each word back as the chat holds it", () => {
    expect(new Set(ANSWER_STATUSES.map(savedStatus)).size).toBe(ANSWER_STATUSES.length);
    expect(ANSWER_STATUSES.map((status) => liveStatus(savedStatus(status)))).toEqual(["stopped", "done", "stopped", "error"]);
  });

  it("takes an answer heading's last word for a status only when the note writes it (never \"done\", never a model's name)", () => {
    expect(["partial", "stopped", "failed"].map(savedStatusNamed)).toEqual(["partial", "stopped", "failed"]);
    expect(["done", "qwen2.5:7b", "", undefined].map(savedStatusNamed)).toEqual([undefined, undefined, undefined, undefined]);
  });

  it("reads the words of notes saved before, each answer as it ended", () => {
    const headings = ["partial", "stopped", "failed", ""].map((word) => `## Copilot · 2026-12-01T10:00:00Z · agent · m${word ? ` · ${word}` : ""}\n\nОтвет`);
    const note = `---\nchat-id: c\nmode: agent\nmodel: m\n---\n\n${headings.join("\n\n")}\n`;
    expect(messagesFromRecord(parseChat(note)).map((message) => message.role === "assistant" && message.status)).toEqual(["stopped", "stopped", "error", "done"]);
  });
});
