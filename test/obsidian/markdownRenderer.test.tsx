/**
 * The double's MarkdownRenderer: what the chat view's tests rely on to prove that model output
 * reaches nothing that runs code or loads by itself, so it must render as Obsidian does.
 */
import { App, Component, MarkdownRenderer, Plugin } from "./obsidian";

afterEach(() => document.body.empty());

const manifest = { id: "test-plugin", name: "Test", author: "", version: "1.0.0", minAppVersion: "1.0.0", description: "" };

async function rendered(app: App, markdown: string, sourcePath = "Chat.md"): Promise<HTMLElement> {
  const el = document.body.createDiv();
  const component = new Component();
  component.load();
  await MarkdownRenderer.render(app, markdown, el, sourcePath, component);
  return el;
}

describe("MarkdownRenderer.render (on marked)", () => {
  it("renders GFM tables, fenced code with its language class, and a line break per newline", async () => {
    const el = await rendered(new App(), "| a | b |\n|---|---|\n| 1 | 2 |\n\n```ts\nconst x = 1;\n```\n\none\ntwo");
    expect([...el.querySelectorAll("table td")].map((cell) => cell.textContent)).toEqual(["1", "2"]);
    expect(el.querySelector("pre > code.language-ts")?.textContent).toBe("const x = 1;\n");
    expect(el.querySelector("p:last-child br")).not.toBeNull();
  });

  it("renders [[links]] as internal links, with alias and heading forms, and marks the unresolved ones", async () => {
    const app = new App();
    await app.vault.create("Note.md", "hello");
    const el = await rendered(app, "[[Note]] [[Note|the note]] [[Note#Heading]] [[Missing]]");
    const links = [...el.querySelectorAll<HTMLAnchorElement>("a.internal-link")];
    expect(links.map((link) => [link.getAttribute("data-href"), link.getAttribute("href"), link.textContent])).toEqual([
      ["Note", "Note", "Note"],
      ["Note", "Note", "the note"],
      ["Note#Heading", "Note#Heading", "Note > Heading"],
      ["Missing", "Missing", "Missing"],
    ]);
    expect(links.map((link) => link.classList.contains("is-unresolved"))).toEqual([false, false, false, true]);
  });

  it("transcludes an embedded note, as Obsidian does", async () => {
    const app = new App();
    await app.vault.create("Secret.md", "the **secret** text");
    const el = await rendered(app, "before ![[Secret]] after");
    const embed = el.querySelector<HTMLElement>("span.internal-embed")!;
    expect(embed.getAttribute("src")).toBe("Secret");
    expect(embed.querySelector(".markdown-embed-content strong")?.textContent).toBe("secret");
  });

  it("renders #tags as Obsidian's tag links, but not a number, a heading or a # inside a word", async () => {
    const el = await rendered(new App(), "# Title\n\nTagged #project/garden and #todo, not #123 nor a#b.");
    expect([...el.querySelectorAll("a.tag")].map((tag) => [tag.getAttribute("href"), tag.textContent])).toEqual([
      ["#project/garden", "#project/garden"],
      ["#todo", "#todo"],
    ]);
    expect(el.querySelector("h1")?.textContent).toBe("Title");
  });

  it("keeps images with their src, and external links marked as such", async () => {
    const el = await rendered(new App(), "![pixel](https://example.invalid/p.png) [site](https://example.invalid/)");
    expect(el.querySelector("img")?.getAttribute("src")).toBe("https://example.invalid/p.png");
    expect(el.querySelector("a.external-link")?.getAttribute("target")).toBe("_blank");
  });

  it("removes scripts, event attributes and javascript: URLs from raw HTML, and keeps the rest", async () => {
    const el = await rendered(
      new App(),
      '<script>window.ran = true</script>\n\n<img src="https://example.invalid/x.png" onerror="window.ran = true">\n\n<a href="javascript:alert(1)" title="t">x</a> <b onclick="x()">bold</b>',
    );
    expect(el.querySelector("script")).toBeNull();
    expect(el.querySelector("img")?.getAttribute("onerror")).toBeNull();
    expect(el.querySelector("img")?.getAttribute("src")).toBe("https://example.invalid/x.png");
    expect(el.querySelector("a")?.getAttribute("href")).toBeNull();
    expect(el.querySelector("a")?.getAttribute("title")).toBe("t");
    expect(el.querySelector("b")?.getAttribute("onclick")).toBeNull();
    expect((window as unknown as { ran?: boolean }).ran).toBeUndefined();
  });

  it("hands code blocks of a registered language to the plugin's processor, until the plugin unloads", async () => {
    const app = new App();
    const plugin = new Plugin(app, manifest);
    await plugin.enable();
    const seen: { source: string; sourcePath: string }[] = [];
    plugin.registerMarkdownCodeBlockProcessor("dataviewjs", (source, el, ctx) => {
      seen.push({ source, sourcePath: ctx.sourcePath });
      el.setText("processed");
    });
    const el = await rendered(app, "```dataviewjs\ndv.paragraph(1)\n```\n\n```js\nplain()\n```");
    expect(seen).toEqual([{ source: "dv.paragraph(1)", sourcePath: "Chat.md" }]);
    expect(el.querySelector(".block-language-dataviewjs")?.textContent).toBe("processed");
    expect(el.querySelector("pre > code.language-js")).not.toBeNull();
    expect(() => plugin.registerMarkdownCodeBlockProcessor("dataviewjs", () => undefined)).toThrow("already registered");

    plugin.unload();
    const after = await rendered(app, "```dataviewjs\ndv.paragraph(2)\n```");
    expect(seen).toHaveLength(1);
    expect(after.querySelector("pre > code.language-dataviewjs")).not.toBeNull();
  });

  it("runs every registered post processor on what it rendered (how Dataview finds inline queries), until the plugin unloads", async () => {
    const app = new App();
    const plugin = new Plugin(app, manifest);
    await plugin.enable();
    const inlineQueries: string[] = [];
    plugin.registerMarkdownPostProcessor((el, ctx) => {
      for (const code of el.querySelectorAll("code")) if (code.textContent?.startsWith("=")) inlineQueries.push(`${code.textContent} in ${ctx.sourcePath}`);
    });
    await rendered(app, "Name: `= this.file.name` and `plain`");
    expect(inlineQueries).toEqual(["= this.file.name in Chat.md"]);
    plugin.unload();
    await rendered(app, "`= again`");
    expect(inlineQueries).toHaveLength(1);
  });

  it("renderMarkdown (deprecated) uses the global app, and says so when there is none", async () => {
    const el = document.body.createDiv();
    await expect(MarkdownRenderer.renderMarkdown("x", el, "", new Component())).rejects.toThrow("global `app`");
  });
});
