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
 * Code (fenced and inline) is left as written otherwise. Fences are read as `markdown/fences.ts`
 * reads them, in block quotes and list items too. The rendered answer is then checked once
 * more, in an inert document, before it reaches the view (untrustedRender.ts).
 */

import { followFence, type OpenFence } from "../../markdown/fences";

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
  let fence: OpenFence | null = null;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const followed = followFence(line, fence);
    fence = followed.open;
    if (followed.role === "open" && followed.open !== null) lines[index] = safeOpeningLine(line, followed.contentStart, followed.open);
    else if (followed.role === "text") lines[index] = neutralizeLine(line);
  }
  return lines.join("\n");
}

/** An opening fence line as written (container marks, indentation, the fence), its info string cut to a plain language or nothing. */
function safeOpeningLine(line: string, contentStart: number, fence: OpenFence): string {
  const indentation = /^[ \t]*/.exec(line.slice(contentStart))?.[0] ?? "";
  const language = fence.info.split(/\s+/)[0]?.toLowerCase() ?? "";
  const lineEnd = line.endsWith("\r") ? "\r" : "";
  return `${line.slice(0, contentStart)}${indentation}${fence.character.repeat(fence.length)}${PLAIN_CODE_LANGUAGES.has(language) ? language : ""}${lineEnd}`;
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
