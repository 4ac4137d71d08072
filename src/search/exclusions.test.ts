import { exclusionFilter } from "./exclusions";
import { globMatcher } from "./globMatcher";

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

  it("matches a pattern of many stars in time linear in the name (a backtracking matcher hangs here)", () => {
    const excluded = exclusionFilter({ excludedFolders: [], excludedPatterns: ["a*a*a*a*a*a*a*a*a*a*b", "**/a**a**a**a**a**a**a**a**c"] });
    const longName = `${"a".repeat(3_000)}.md`;
    expect(excluded(longName)).toBe(false);
    expect(excluded(`x/${"a/".repeat(1_000)}${longName}`)).toBe(false);
    expect(excluded(`${"a".repeat(3_000)}b`)).toBe(true);
    expect(excluded(`x/${"a".repeat(500)}/${"a".repeat(500)}c`)).toBe(true);
  });

  it("ignores blank entries", () => {
    expect(exclusionFilter({ excludedFolders: ["", " "], excludedPatterns: [""] })("a.md")).toBe(false);
  });
});

describe("globMatcher", () => {
  it("takes regular-expression characters literally and keeps ? to one character", () => {
    expect(globMatcher("a+b (1)?.md")("a+b (1)x.md")).toBe(true);
    expect(globMatcher("a+b (1)?.md")("aab (1)x.md")).toBe(false);
    expect(globMatcher("a?b")("a/b")).toBe(false);
  });

  it("matches stars as the settings describe them", () => {
    expect(["x.md", "a/x.md", "a/b/x.md"].map(globMatcher("**/x.md"))).toEqual([true, true, true]);
    expect(["ax.md", "a/bx.md"].map(globMatcher("**/x.md"))).toEqual([false, false]);
    expect(["a/x", "a/b/c"].map(globMatcher("a/*"))).toEqual([true, false]);
    expect(["a/x", "a/b/c", "a"].map(globMatcher("a/**"))).toEqual([true, true, false]);
    expect(["Inbox/z.md", "Inbox/", "Inboxes/z"].map(globMatcher("Inbox/"))).toEqual([true, true, false]);
    expect(["", "abc"].map(globMatcher("*"))).toEqual([true, true]);
    expect(globMatcher("Ab*C")("aBXxc")).toBe(true);
  });
});
