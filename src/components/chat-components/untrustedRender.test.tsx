/**
 * The second pass over model output on its own: hostile HTML that a renderer let through (as if
 * the Markdown-level pass had missed it) is rendered into an inert document, checked there, and
 * reaches the view with nothing left that loads or runs. Chromium, where requests can be seen,
 * repeats this in test/e2e/untrustedRender.e2e.test.ts.
 */
import { App, Component, MarkdownRenderer } from "../../../test/obsidian/obsidian";
import { hostileAnswers } from "../../../test/helpers/hostileHtml";
import { createInertDocument, renderInert } from "./untrustedRender";

/** The hostile host: no request may ever name it. */
const HOST = "tracker.invalid";

/**
 * Puts `html` into the element as a renderer would: parsed as the body of an answer (after a
 * paragraph, so that `<meta>`, `<link>` and `<base>` stay in the body), then appended.
 */
const rawRenderer = (html: string) => (element: HTMLElement) => {
  const parsed = new DOMParser().parseFromString(`<p>Ответ 答案</p>${html}`, "text/html");
  element.append(...Array.from(parsed.body.childNodes));
  return Promise.resolve();
};

/** Renders `html` through the second pass into a live element of the page, as MarkdownContent does. */
async function renderIntoView(html: string): Promise<HTMLElement> {
  const view = document.body.createDiv();
  view.replaceChildren(...(await renderInert(rawRenderer(html), createInertDocument(document))));
  return view;
}

/** Every place in `root` that names the hostile host, other than a link's href (a link loads nothing until followed). */
function loadingReferences(root: Element): string[] {
  const found: string[] = [];
  for (const element of [root, ...Array.from(root.querySelectorAll("*"))]) {
    for (const attribute of Array.from(element.attributes)) {
      const isLink = element.localName === "a" && attribute.localName === "href";
      if (!isLink && attribute.value.includes(HOST)) found.push(`<${element.localName} ${attribute.name}="${attribute.value}">`);
    }
  }
  return found;
}

const FORBIDDEN_ELEMENTS = "img, picture, source, image, use, feImage, foreignObject, link, style, object, embed, iframe, meta, base, form, video, template";
const FORBIDDEN_ATTRIBUTES = "[onclick], [onmouseover], [onload], [ontoggle], [onerror], [srcset], [background], [ping], [formaction], [poster]";

const HOSTILE = hostileAnswers(`http://${HOST}`);

describe("the second pass over a rendered answer", () => {
  afterEach(() => document.body.replaceChildren());

  it("renders into a document without a window, never into the page, and hands the nodes over only after the check", async () => {
    const seen: Array<{ sameDocument: boolean; window: unknown }> = [];
    const nodes = await renderInert((element) => {
      seen.push({ sameDocument: element.ownerDocument === document, window: element.ownerDocument.defaultView });
      return rawRenderer(`<p>ok</p><img src="http://${HOST}/pixel" alt="pixel">`)(element);
    }, createInertDocument(document));
    expect(seen).toEqual([{ sameDocument: false, window: null }]);
    // Still in the inert document, already checked: the image is a link.
    expect(nodes.every((node) => node.ownerDocument !== document)).toBe(true);
    const view = document.body.createDiv();
    view.replaceChildren(...nodes);
    expect(view.querySelector("img")).toBeNull();
    expect(view.querySelector("a")?.getAttribute("href")).toBe(`http://${HOST}/pixel`);
  });

  it("serves many renders from one inert document and keeps nothing of them there, a failed one included", async () => {
    const inert = createInertDocument(document);
    const first = await renderInert(rawRenderer("<p>一</p>"), inert);
    const second = await renderInert(rawRenderer("<p>二</p>"), inert);
    await expect(renderInert(() => Promise.reject(new Error("the renderer failed")), inert)).rejects.toThrow("the renderer failed");
    expect(inert.body.childNodes).toHaveLength(0);
    expect([...first, ...second].map((node) => node.textContent)).toEqual(["Ответ 答案", "一", "Ответ 答案", "二"]);
  });

  it.each(HOSTILE)("removes %s", async (_name, html) => {
    // Without the check, the rendered answer would load from the hostile host.
    const unchecked = document.implementation.createHTMLDocument("").body.createDiv();
    await rawRenderer(html)(unchecked);
    expect(loadingReferences(unchecked).length + unchecked.querySelectorAll(`${FORBIDDEN_ELEMENTS}, ${FORBIDDEN_ATTRIBUTES}`).length).toBeGreaterThan(0);
    const view = await renderIntoView(html);
    expect(loadingReferences(view)).toEqual([]);
    expect(view.querySelectorAll(FORBIDDEN_ELEMENTS)).toHaveLength(0);
    expect(view.querySelector(FORBIDDEN_ATTRIBUTES)).toBeNull();
  });

  it("drops links with script schemes, however spelled", async () => {
    const view = await renderIntoView(`<a href="java\tscript:alert(1)">a</a><a href=" JAVASCRIPT:alert(1)">b</a><a href="data:text/html,<script>1</script>">c</a><a href="https://example.org/页">d</a>`);
    expect(Array.from(view.querySelectorAll("a")).map((link) => link.getAttribute("href"))).toEqual([null, null, null, "https://example.org/页"]);
  });

  it("keeps text, formatting, links and the drawing of icons", async () => {
    const view = await renderIntoView(
      [
        `<h2 data-heading="Заголовок">Заголовок 標題</h2>`,
        `<p><strong>粗体</strong> <em>مائل</em> <code>x</code> <a class="internal-link" data-href="Notes/Ünïcode" href="Notes/Ünïcode">Ünïcode</a></p>`,
        `<div class="callout"><svg class="svg-icon lucide-pencil" viewBox="0 0 24 24"><path d="M12 20h9"></path><circle cx="1" cy="1" r="1"></circle></svg></div>`,
        `<ul><li class="task-list-item"><input type="checkbox" class="task-list-item-checkbox">งาน</li></ul>`,
        `<pre><code class="language-js"><span class="token keyword">const</span> a = 1;</code></pre>`,
        `<img src="https://example.org/chart.png" alt="Схема 图 🦓">`,
      ].join(""),
    );
    expect(view.querySelector("h2")?.textContent).toBe("Заголовок 標題");
    expect(view.querySelector("strong")?.textContent).toBe("粗体");
    expect(view.querySelector("a.internal-link")?.getAttribute("data-href")).toBe("Notes/Ünïcode");
    expect(view.querySelector("svg.svg-icon path")?.getAttribute("d")).toBe("M12 20h9");
    expect(view.querySelector("svg circle")).not.toBeNull();
    expect(view.querySelector("input.task-list-item-checkbox")).not.toBeNull();
    expect(view.querySelector("code.language-js .token.keyword")?.textContent).toBe("const");
    const image = Array.from(view.querySelectorAll("a")).find((link) => link.textContent === "Схема 图 🦓");
    expect(image?.getAttribute("href")).toBe("https://example.org/chart.png");
  });

  it("keeps what Obsidian's renderer gives (internal links, code, listeners a post processor added) through the move", async () => {
    const app = new App();
    app.vault.seedFile("Каталог/Заметка.md", "текст", { ctime: 0, mtime: 0 });
    const clicks: string[] = [];
    // As Obsidian's copy button on a code block: an element with its own listener.
    app.markdownPostProcessors.push((element: HTMLElement) => {
      for (const block of Array.from(element.querySelectorAll("pre"))) {
        const button = block.createEl("button", { text: "Copy" });
        button.addEventListener("click", () => void clicks.push(block.textContent ?? ""));
      }
    });
    const component = new Component();
    const view = document.body.createDiv();
    const markdown = "See [[Каталог/Заметка]].\n\n```js\nconst 数 = 1;\n```";
    view.replaceChildren(...(await renderInert((element) => MarkdownRenderer.render(app, markdown, element, "", component), createInertDocument(document))));
    const link = view.querySelector("a.internal-link");
    expect(link?.getAttribute("data-href")).toBe("Каталог/Заметка");
    expect(link?.classList.contains("is-unresolved")).toBe(false);
    expect(view.querySelector("pre > code.language-js")?.textContent).toContain("const 数 = 1;");
    view.querySelector("button")!.click();
    expect(clicks).toEqual([expect.stringContaining("const 数 = 1;")]);
  });
});
