import { exclusionFilter, globToRegExp } from "./exclusions";

describe("exclusionFilter", () => {
  it("leaves out everything inside an excluded folder, ignoring case and slashes", () => {
    const excluded = exclusionFilter({ excludedFolders: ["/Archive/", "Work/Old"], excludedPatterns: [] });
    expect(["Archive/a.md", "archive/deep/b.md", "Work/Old/c.md"].map(excluded)).toEqual([true, true, true]);
    expect(["Archived.md", "Work/Older/d.md", "Work/e.md"].map(excluded)).toEqual([false, false, false]);
  });

  it("matches a pattern without a slash against every folder and file name", () => {
    const excluded = exclusionFilter({ excludedFolders: [], excludedPatterns: ["*.excalidraw.md", "templates"] });
    expect(["Drawing.excalidraw.md", "a/b/Sketch.excalidraw.md", "Templates/Daily.md", "x/templates/y.md"].map(excluded)).toEqual([true, true, true, true]);
    expect(["Notes.md", "my templates.md"].map(excluded)).toEqual([false, false]);
  });

  it("matches a pattern with a slash against the whole path", () => {
    const excluded = exclusionFilter({ excludedFolders: [], excludedPatterns: ["Journal/**", "**/drafts/*.md", "Inbox/"] });
    expect(["Journal/2026/a.md", "drafts/x.md", "p/q/drafts/y.md", "Inbox/z.md"].map(excluded)).toEqual([true, true, true, true]);
    expect(["Notes/Journal/a.md", "drafts/sub/x.md", "Inboxes/z.md"].map(excluded)).toEqual([false, false, false]);
  });

  it("ignores blank entries", () => {
    expect(exclusionFilter({ excludedFolders: ["", " "], excludedPatterns: [""] })("a.md")).toBe(false);
  });
});

describe("globToRegExp", () => {
  it("escapes regular-expression characters and keeps ? to one character", () => {
    expect(globToRegExp("a+b (1)?.md").test("a+b (1)x.md")).toBe(true);
    expect(globToRegExp("a+b (1)?.md").test("aab (1)x.md")).toBe(false);
  });
});
