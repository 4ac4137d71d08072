import type * as Obsidian from "obsidian";
import { Marked, type Tokens } from "marked";
import type { App } from "./app";
import { Component } from "./events";
import { requireDocument } from "./view";

/** What `Plugin.registerMarkdownCodeBlockProcessor` takes. */
export type CodeBlockProcessor = (source: string, el: HTMLElement, ctx: Obsidian.MarkdownPostProcessorContext) => Promise<unknown> | void;

/** Obsidian's MarkdownRenderChild: a component tied to an element of rendered Markdown. */
export class MarkdownRenderChild extends Component {
  constructor(public containerEl: HTMLElement) {
    super();
  }
}

interface WikiLinkToken extends Tokens.Generic {
  type: "wikiLink";
  raw: string;
  embed: boolean;
  /** The link without its alias: "Note", "Note#Heading". */
  target: string;
  alias: string | undefined;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

interface TagToken extends Tokens.Generic {
  type: "tag";
  raw: string;
  tag: string;
}

/** A tag as Obsidian reads one: "#" then letters, digits, "_", "-" or "/", not digits alone. */
const TAG = /^#([\p{L}\p{N}_/-]+)/u;

/** What Obsidian shows for a link without an alias: "Note > Heading" for "Note#Heading". */
function linkText(target: string): string {
  return target.replace(/#\^?/g, " > ").replace(/^ > /, "");
}

// One parser, configured once: GFM (tables, strikethrough, autolinks) with Obsidian's default of
// a line break for every newline, plus [[links]] and ![[embeds]].
const markdown = new Marked({ gfm: true, breaks: true });
markdown.use({
  extensions: [
    {
      name: "wikiLink",
      level: "inline",
      start: (source: string) => {
        const index = source.search(/!?\[\[/);
        return index === -1 ? undefined : index;
      },
      tokenizer: (source: string): WikiLinkToken | undefined => {
        const match = /^(!?)\[\[([^\]\n|]+)(?:\|([^\]\n]*))?\]\]/.exec(source);
        if (!match) return undefined;
        return { type: "wikiLink", raw: match[0], embed: match[1] === "!", target: match[2]!.trim(), alias: match[3] };
      },
      renderer: (token) => {
        const { embed, target, alias } = token as WikiLinkToken;
        const href = escapeHtml(target);
        if (embed) return `<span class="internal-embed" src="${href}" alt="${escapeHtml(alias ?? target)}"></span>`;
        return `<a class="internal-link" data-href="${href}" href="${href}" target="_blank" rel="noopener nofollow">${escapeHtml(alias ?? linkText(target))}</a>`;
      },
    },
    {
      name: "tag",
      level: "inline",
      // A tag starts a line or follows a space; "a#b" and URLs' fragments are not tags.
      start: (source: string) => {
        const match = /(^|\s)#[\p{L}\p{N}_/-]/u.exec(source);
        return match ? match.index + match[1]!.length : undefined;
      },
      tokenizer: (source: string): TagToken | undefined => {
        const match = TAG.exec(source);
        if (!match || /^\d+$/.test(match[1]!)) return undefined;
        return { type: "tag", raw: match[0], tag: match[0] };
      },
      renderer: (token) => {
        const tag = escapeHtml((token as TagToken).tag);
        return `<a href="${tag}" class="tag" target="_blank" rel="noopener nofollow">${tag}</a>`;
      },
    },
  ],
});

/**
 * Roughly what Obsidian's sanitizer does to raw HTML in Markdown: scripts go, and so do event
 * attributes and `javascript:` URLs; everything else stays (images keep their `src`, and load).
 */
function sanitize(root: ParentNode): void {
  for (const script of root.querySelectorAll("script")) script.remove();
  for (const element of root.querySelectorAll("*")) {
    for (const attribute of [...element.attributes]) {
      const name = attribute.name.toLowerCase();
      const scriptUrl = ["href", "src", "action", "formaction", "xlink:href"].includes(name) && /^\s*javascript:/i.test(attribute.value);
      if (name.startsWith("on") || scriptUrl) element.removeAttribute(attribute.name);
    }
  }
}

/** External links open outside, as Obsidian marks them. */
function markLinks(root: ParentNode, app: App, sourcePath: string): void {
  for (const link of root.querySelectorAll<HTMLAnchorElement>("a[href]")) {
    if (link.classList.contains("internal-link")) {
      const linkpath = (link.getAttribute("data-href") ?? "").split("#")[0] ?? "";
      if (linkpath !== "" && !app.metadataCache.getFirstLinkpathDest(linkpath, sourcePath)) link.classList.add("is-unresolved");
    } else if (/^[a-z][a-z0-9+.-]*:/i.test(link.getAttribute("href") ?? "")) {
      link.classList.add("external-link");
      link.setAttribute("target", "_blank");
      link.setAttribute("rel", "noopener nofollow");
    }
  }
}

const MAX_EMBED_DEPTH = 2;

/** Obsidian transcludes an embedded note: its text is rendered inside the embed. */
async function transclude(root: HTMLElement, app: App, sourcePath: string, component: Component, depth: number): Promise<void> {
  for (const embed of root.querySelectorAll<HTMLElement>("span.internal-embed")) {
    const linkpath = (embed.getAttribute("src") ?? "").split("#")[0] ?? "";
    const file = app.metadataCache.getFirstLinkpathDest(linkpath, sourcePath);
    if (!file) {
      embed.classList.add("is-unresolved");
      continue;
    }
    if (file.extension !== "md" || depth >= MAX_EMBED_DEPTH) continue;
    embed.classList.add("markdown-embed", "inline-embed", "is-loaded");
    const content = embed.createDiv("markdown-embed-content");
    await renderInto(app, await app.vault.cachedRead(file), content, file.path, component, depth + 1);
  }
}

function postProcessorContext(sourcePath: string, component: Component): Obsidian.MarkdownPostProcessorContext {
  return {
    docId: Math.random().toString(36).slice(2),
    sourcePath,
    frontmatter: null,
    addChild: (child) => void component.addChild(child as unknown as Component),
    getSectionInfo: () => null,
  };
}

/** Every registered post processor sees what was rendered, as in Obsidian (errors are logged, as Obsidian does). */
async function runPostProcessors(root: HTMLElement, app: App, sourcePath: string, component: Component): Promise<void> {
  const context = postProcessorContext(sourcePath, component);
  const ordered = [...app.markdownPostProcessors].sort((a, b) => (a.sortOrder ?? 0) - (b.sortOrder ?? 0));
  for (const postProcessor of ordered) {
    try {
      await postProcessor(root, context);
    } catch (error) {
      console.error("A Markdown post processor failed", error);
    }
  }
}

/** Code blocks in a language with a registered processor are handed to it, in a `div.block-language-<lang>`. */
async function runCodeBlockProcessors(root: HTMLElement, app: App, sourcePath: string, component: Component): Promise<void> {
  const context = postProcessorContext(sourcePath, component);
  const pending: Promise<unknown>[] = [];
  for (const code of root.querySelectorAll<HTMLElement>("pre > code")) {
    const language = [...code.classList].find((name) => name.startsWith("language-"))?.slice("language-".length);
    const processor = language ? app.markdownCodeBlockProcessors.get(language) : undefined;
    if (!language || !processor) continue;
    const block = root.ownerDocument.createElement("div");
    block.className = `block-language-${language}`;
    code.parentElement!.replaceWith(block);
    const source = (code.textContent ?? "").replace(/\n$/, "");
    pending.push(
      Promise.resolve()
        .then(() => processor(source, block, context))
        .catch((error: unknown) => console.error(`The "${language}" code block processor failed`, error)),
    );
  }
  await Promise.all(pending);
}

async function renderInto(app: App, text: string, el: HTMLElement, sourcePath: string, component: Component, depth: number): Promise<void> {
  requireDocument("MarkdownRenderer");
  // Parsed in an inert document and cleaned there: nothing of it runs or loads before that.
  const parsed = new DOMParser().parseFromString(markdown.parse(text, { async: false }), "text/html");
  sanitize(parsed.body);
  markLinks(parsed.body, app, sourcePath);
  el.append(...[...parsed.body.childNodes]);
  await transclude(el, app, sourcePath, component, depth);
  await runCodeBlockProcessors(el, app, sourcePath, component);
  await runPostProcessors(el, app, sourcePath, component);
}

/**
 * Obsidian's Markdown renderer, on the `marked` library: GFM, a line break per newline,
 * `[[links]]` as `a.internal-link` (with `is-unresolved` when no note matches), `![[embeds]]` as
 * `span.internal-embed` with the note transcluded, `#tags` as `a.tag`, fenced code as `pre > code.language-x` unless a
 * plugin registered a processor for `x` (then the processor renders it), every registered post
 * processor run on the result (as Dataview's inline queries are), and raw HTML kept but
 * cleaned of scripts and event attributes, as Obsidian's is.
 */
// (No `implements` check: its methods take the double's App and Component, which are not Obsidian's classes.)
export abstract class MarkdownRenderer extends MarkdownRenderChild {
  static render(app: App, markdown: string, el: HTMLElement, sourcePath: string, component: Component): Promise<void> {
    return renderInto(app, markdown, el, sourcePath, component, 0);
  }

  /** The deprecated form: Obsidian uses its global `app`, and so does the double (`window.app`). */
  static renderMarkdown(markdown: string, el: HTMLElement, sourcePath: string, component: Component): Promise<void> {
    const app = (globalThis as { app?: App }).app;
    if (!app) return Promise.reject(new Error("MarkdownRenderer.renderMarkdown needs the global `app` (set window.app, or call MarkdownRenderer.render)"));
    return renderInto(app, markdown, el, sourcePath, component, 0);
  }
}
