import { specExample } from "../../../test/helpers/commonmarkExamples";
import { MAX_SECTION_CHARS, noteSections } from "./noteSections";

const paragraph = (word: string, count: number) => Array.from({ length: count }, (_, index) => `${word}${index}`).join(" ");

describe("noteSections", () => {
  it("cuts at headings, leaves frontmatter out and prefixes title and heading path", () => {
    const text = [
      "---",
      "secret: frontmatter-value",
      "---",
      "# Setup",
      paragraph("intro", 60),
      "## Linux",
      paragraph("linux", 60),
      "```",
      "# not a heading in code",
      "```",
      "# Usage",
      paragraph("usage", 60),
    ].join("\n");
    const sections = noteSections("Guides/Install guide.md", text);
    expect(sections.map((section) => section.heading)).toEqual(["Setup", "Setup > Linux", "Usage"]);
    expect(sections.map((section) => section.key)).toEqual(["Guides/Install guide.md#0", "Guides/Install guide.md#1", "Guides/Install guide.md#2"]);
    expect(sections[1]?.text.startsWith("Install guide\n\nSetup > Linux\n\nlinux0")).toBe(true);
    expect(sections[1]?.text).toContain("# not a heading in code");
    expect(sections.some((section) => section.text.includes("frontmatter-value"))).toBe(false);
  });

  it("keeps a four-backtick block whole past its inner three-backtick lines: the heading after it gets its real path", () => {
    const text = ["# Установка", paragraph("vvod", 60), "````markdown", "```", "# Не заголовок", "```", "````", "## Linux", paragraph("linux", 60)].join("\n");
    const sections = noteSections("Установка.md", text);
    expect(sections.map((section) => section.heading)).toEqual(["Установка", "Установка > Linux"]);
    expect(sections[0]?.text).toContain("# Не заголовок");
  });

  it.each([124, 125, 147])("cuts the spec's example %i only at the heading after its code block", (number) => {
    const code = specExample(number).replace(/aaa/g, "# 代码里的标题");
    const sections = noteSections("笔记.md", `# 开始\n${paragraph("a", 60)}\n${code}# 之后\n${paragraph("b", 60)}`);
    expect(sections.map((section) => section.heading)).toEqual(["开始", "之后"]);
  });

  it("cuts a long section at paragraph boundaries near the limit", () => {
    const paragraphs = Array.from({ length: 12 }, (_, index) => paragraph(`p${index}w`, 60));
    const sections = noteSections("Long.md", `# Big\n${paragraphs.join("\n\n")}`);
    expect(sections.length).toBeGreaterThan(2);
    for (const section of sections) {
      expect(section.heading).toBe("Big");
      expect(section.text.length).toBeLessThanOrEqual(MAX_SECTION_CHARS + 40);
    }
    // No paragraph is split between two sections.
    for (const text of paragraphs) expect(sections.filter((section) => section.text.includes(text))).toHaveLength(1);
  });

  it("merges tiny sections with the next one, and a tiny last one with the one before", () => {
    const sections = noteSections("Short.md", `# A\none line\n# B\n${paragraph("body", 60)}\n# C\ntail`);
    expect(sections).toHaveLength(1);
    expect(sections[0]?.heading).toBe("A");
    expect(sections[0]?.text).toContain("# B");
    expect(sections[0]?.text).toContain("tail");
  });

  it("gives an empty note one section with its title, and stable hashes that follow the text", () => {
    expect(noteSections("Empty idea.md", "").map((section) => section.text)).toEqual(["Empty idea"]);
    const one = noteSections("N.md", `# H\n${paragraph("x", 80)}`);
    const again = noteSections("N.md", `# H\n${paragraph("x", 80)}`);
    const changed = noteSections("N.md", `# H\n${paragraph("x", 80)}!`);
    expect(one[0]?.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(again[0]?.hash).toBe(one[0]?.hash);
    expect(changed[0]?.hash).not.toBe(one[0]?.hash);
  });
});
