/**
 * Model output is untrusted: a note the agent read may carry a prompt injection, and the answer
 * may then try to run code or leak data through the renderer. Before an answer reaches Obsidian's
 * MarkdownRenderer it is rewritten so that it cannot:
 *
 * - run code: a fenced block keeps its language only when it is a plain programming language
 *   (`dataviewjs`, `dataview`, `tasks`, `mermaid`, … would reach other plugins' processors, so
 *   they show as plain code); inline code starting with "=" or "$=" (Dataview's inline queries)
 *   gets a zero-width space in front; raw HTML is shown as text, except a few bare formatting tags;
 * - load anything by itself: images (`![alt](url)`, `![alt][ref]`) become links;
 * - transclude a note: `![[Note]]` becomes the link `[[Note]]`.
 *
 * Code (fenced and inline) is left as written otherwise. `sanitizeRenderedElement` then checks
 * the rendered DOM as a second line of defence.
 */

/** Languages that only get syntax colouring; anything else is shown as plain code. */
const PLAIN_CODE_LANGUAGES = new Set(
  (
    "bash c cpp c++ csharp cs css csv diff dockerfile go graphql h html http ini java javascript js json json5 jsx " +
    "kotlin latex lua makefile markdown md objectivec perl php plaintext powershell ps1 python py r regex ruby rb rust rs " +
    "scala scss sh shell sql swift text toml ts tsx txt typescript vb xml yaml yml zsh"
  ).split(" "),
);

/** Formatting tags allowed as raw HTML, bare (no attributes): they load and run nothing. */
const BARE_TAGS = new Set(["b", "i", "em", "strong", "u", "s", "sub", "sup", "kbd", "mark", "br", "small", "del", "ins"]);

const ZERO_WIDTH_SPACE = "\u200b";

/** The Markdown of an answer made safe to render (see the top of this file). */
export function neutralizeMarkdown(markdown: string): string {
  const lines = markdown.split("\n");
  let fence: string | null = null;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (fence !== null) {
      if (line.trim().length >= fence.length && line.trim() === fence[0]!.repeat(line.trim().length)) fence = null;
      continue;
    }
    const opening = /^(\s{0,3}>?\s{0,3})(`{3,}|~{3,})(.*)$/.exec(line);
    if (opening && !(opening[2]!.startsWith("`") && opening[3]!.includes("`"))) {
      fence = opening[2]!;
      lines[index] = `${opening[1]}${fence}${safeInfoString(opening[3]!)}`;
      continue;
    }
    lines[index] = neutralizeLine(line);
  }
  return lines.join("\n");
}

function safeInfoString(info: string): string {
  const language = info.trim().split(/\s+/)[0]?.toLowerCase() ?? "";
  return PLAIN_CODE_LANGUAGES.has(language) ? language : "";
}

/** One line outside fences: inline code spans kept (but Dataview's prefixes broken), the rest rewritten. */
function neutralizeLine(line: string): string {
  let result = "";
  let position = 0;
  while (position < line.length) {
    const tick = line.indexOf("`", position);
    if (tick === -1) break;
    const run = /^`+/.exec(line.slice(tick))![0];
    const close = line.indexOf(run, tick + run.length);
    // A closing run of exactly the same length ends the span.
    if (close === -1 || line[close + run.length] === "`") {
      result += rewriteText(line.slice(position, tick + run.length));
      position = tick + run.length;
      continue;
    }
    const code = line.slice(tick + run.length, close);
    result += rewriteText(line.slice(position, tick)) + run + (/^\s*\$?=/.test(code) ? ZERO_WIDTH_SPACE + code : code) + run;
    position = close + run.length;
  }
  return result + rewriteText(line.slice(position));
}

/** Text outside code: embeds become links, images become links, raw HTML becomes text. */
function rewriteText(text: string): string {
  return text
    .replace(/!(?=\[)/g, "")
    .replace(/<(\/?)([A-Za-z][\w-]*)([^>]*)>|</g, (match: string, slash: string | undefined, tag: string | undefined, rest: string | undefined) => {
      if (tag !== undefined && BARE_TAGS.has(tag.toLowerCase()) && /^\s*\/?\s*$/.test(rest ?? "")) return match;
      // An autolink (<https://…>) stays a link.
      if (tag !== undefined && !slash && /^(https?|mailto)$/i.test(tag) && (rest ?? "").startsWith(":")) return match;
      return `&lt;${match.slice(1)}`;
    });
}

/** Elements that fetch, run or embed something: never left in a rendered answer. */
const DANGEROUS_ELEMENTS = "script, iframe, frame, object, embed, style, link, meta, base, form, video, audio, source, track, picture, svg image";

/**
 * The rendered answer checked once more: anything that could run or fetch is removed, an image is
 * replaced by a link to it, an embed by a link to its note, event attributes and `javascript:`
 * links are dropped.
 */
export function sanitizeRenderedElement(root: HTMLElement): void {
  // Made in `root` (so in its document and window), then moved into place.
  for (const image of Array.from(root.querySelectorAll("img"))) {
    const source = image.getAttribute("src") ?? "";
    const link = root.createEl("a", { cls: "external-link", text: image.getAttribute("alt") || source });
    if (/^https?:/i.test(source)) link.setAttribute("href", source);
    image.replaceWith(link);
  }
  for (const embed of Array.from(root.querySelectorAll(".internal-embed"))) {
    const target = embed.getAttribute("src") ?? embed.textContent ?? "";
    const link = root.createEl("a", { cls: "internal-link", text: target, attr: { "data-href": target, href: target } });
    embed.replaceWith(link);
  }
  for (const element of Array.from(root.querySelectorAll(DANGEROUS_ELEMENTS))) element.remove();
  for (const element of Array.from(root.querySelectorAll("*"))) {
    for (const attribute of Array.from(element.attributes)) {
      const name = attribute.name.toLowerCase();
      const value = attribute.value.trim().toLowerCase();
      if (name.startsWith("on") || name === "srcset" || name === "formaction" || (name === "style" && value.includes("url("))) element.removeAttribute(attribute.name);
      else if ((name === "href" || name === "src" || name === "xlink:href") && /^(javascript|vbscript|data):/.test(value)) element.removeAttribute(attribute.name);
    }
  }
}
