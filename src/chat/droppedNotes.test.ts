import { droppedNoteLinks } from "./droppedNotes";

describe("droppedNoteLinks", () => {
  it("reads the file explorer's [[links]], one per line, headings and aliases left off", () => {
    const dragged = ["[[Заметки/Борщ]]", "[[中文/五月#标题]]", "[[notes (old)/May|the May note]]", "[[emoji 🦓/May]]"].join("\r\n");
    expect(droppedNoteLinks(dragged)).toEqual(["Заметки/Борщ", "中文/五月", "notes (old)/May", "emoji 🦓/May"]);
  });

  it("reads obsidian://open URLs, their file decoded as the URL encodes it, NFD kept as sent", () => {
    const nfd = "français/mai".normalize("NFD");
    const url = `obsidian://open?vault=${encodeURIComponent("Мой сейф")}&file=${encodeURIComponent(nfd)}`;
    expect(droppedNoteLinks(`${url}\nobsidian://open?vault=v&file=${encodeURIComponent("العربية/مايو")}`)).toEqual([nfd, "العربية/مايو"]);
  });

  it("leaves out text that names no note, and a note named twice", () => {
    const text = ["just some words", "[[Борщ]] and more", "obsidian://broken%%", "https://example.org/x", "[[Борщ]]", "  [[Борщ]]  ", ""].join("\n");
    expect(droppedNoteLinks(text)).toEqual(["Борщ"]);
  });
});
