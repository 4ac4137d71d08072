import { specExample } from "../../test/helpers/commonmarkExamples";
import { parseMarkdownMetadata, splitFrontmatter } from "./markdownMetadata";

describe("parseMarkdownMetadata", () => {
  it("reads frontmatter tags, aliases and other properties", () => {
    const metadata = parseMarkdownMetadata("---\ntags: [project, \"#urgent\"]\naliases: Alpha one, A1\nstatus: draft\n---\nBody\n");
    expect(metadata.tags).toEqual(["#project", "#urgent"]);
    expect(metadata.aliases).toEqual(["Alpha one", "A1"]);
    expect(metadata.frontmatter.status).toBe("draft");
  });

  it("accepts the singular keys and space-separated tag strings", () => {
    const metadata = parseMarkdownMetadata("---\ntag: one two\nalias: [Solo]\n---\n");
    expect(metadata.tags).toEqual(["#one", "#two"]);
    expect(metadata.aliases).toEqual(["Solo"]);
  });

  it("finds inline tags, nested and Unicode, but not numbers, headings or URL fragments", () => {
    const metadata = parseMarkdownMetadata("#top and #area/sub #日本語 #2026 #y2026\nhttp://x.org/#frag a#b\n## Heading\n");
    expect(metadata.tags).toEqual(["#top", "#area/sub", "#日本語", "#y2026"]);
  });

  it("skips tags, links and headings in code", () => {
    const text = ["```", "# not a heading #nottag [[NotLink]]", "```", "`#inline [[Nope]]` #real [[Yes]]", "~~~", "[[Neither]]", "~~~"].join("\n");
    const metadata = parseMarkdownMetadata(text);
    expect(metadata.tags).toEqual(["#real"]);
    expect(metadata.links.map((l) => l.link)).toEqual(["Yes"]);
    expect(metadata.headings).toEqual([]);
  });

  it("skips tags, links and headings in a four-backtick block, past its inner three-backtick lines", () => {
    const text = ["````markdown", "```", "# Не заголовок #внутри [[Не ссылка]]", "```", "````", "# Заголовок #снаружи [[Ссылка]]"].join("\n");
    const metadata = parseMarkdownMetadata(text);
    expect(metadata.headings).toEqual([{ heading: "Заголовок #снаружи [[Ссылка]]", level: 1, line: 5 }]);
    expect(metadata.tags).toEqual(["#снаружи"]);
    expect(metadata.links.map((link) => link.link)).toEqual(["Ссылка"]);
  });

  it.each([124, 125, 147])("reads the spec's example %i as its code block, and the note after it", (number) => {
    const metadata = parseMarkdownMetadata(`${specExample(number).replace(/aaa/g, "# 見出し #コード [[リンク]]")}#後 [[後のノート]]\n`);
    expect(metadata.headings).toEqual([]);
    expect(metadata.tags).toEqual(["#後"]);
    expect(metadata.links.map((link) => link.link)).toEqual(["後のノート"]);
  });

  it("reads wikilinks, embeds and Markdown links to notes, not to the web", () => {
    const metadata = parseMarkdownMetadata("[[Note#Part|shown]] ![[image.png]] [text](folder/Other%20note.md) [web](https://example.org)\n");
    expect(metadata.links).toEqual([
      { link: "Note", original: "[[Note#Part|shown]]", embed: false },
      { link: "image.png", original: "![[image.png]]", embed: true },
      { link: "folder/Other note.md", original: "[text](folder/Other%20note.md)", embed: false },
    ]);
  });

  it("reads headings with their levels and line numbers, counting the frontmatter lines", () => {
    const metadata = parseMarkdownMetadata("---\na: 1\n---\n# Title\ntext\n### Deep ###\n#nospace\n");
    expect(metadata.headings).toEqual([
      { heading: "Title", level: 1, line: 3 },
      { heading: "Deep", level: 3, line: 5 },
    ]);
  });

  it("treats malformed frontmatter as no properties instead of failing", () => {
    const metadata = parseMarkdownMetadata("---\ntags: [unclosed\n---\n# Still parsed\n");
    expect(metadata.frontmatter).toEqual({});
    expect(metadata.headings.map((h) => h.heading)).toEqual(["Still parsed"]);
  });

  it("ignores a frontmatter block that is not an object", () => {
    expect(splitFrontmatter("---\n- a\n- b\n---\nrest").frontmatter).toEqual({});
    expect(splitFrontmatter("---\n- a\n---\nrest").body).toBe("rest");
  });

  it("returns empty metadata for an empty note", () => {
    expect(parseMarkdownMetadata("")).toEqual({ frontmatter: {}, tags: [], aliases: [], links: [], headings: [] });
  });
});
