import type { App } from "../obsidian/obsidian";
import { Plugin } from "../obsidian/obsidian";

/** One time another plugin's code would have run on rendered Markdown. */
export interface CanaryCall {
  kind: "code-block" | "inline-query";
  language?: string;
  source: string;
  sourcePath: string;
}

/** The languages of code blocks that run code in a real vault (Dataview, DataviewJS, Templater, JS Engine). */
const CODE_RUNNING_LANGUAGES = ["dataview", "dataviewjs", "tasks", "js-engine", "templater"];

/**
 * `?canary=1`: a second plugin standing where Dataview and friends would, recording every time
 * rendered Markdown reaches them: code blocks in their languages, and inline queries (inline code
 * starting with "=" or "$="), which Dataview finds with a post processor on everything rendered.
 * Tests of the chat view assert that an answer carrying such things records nothing.
 */
export async function enableCanaryPlugin(app: App): Promise<CanaryCall[]> {
  const calls: CanaryCall[] = [];
  const canary = new Plugin(app, { id: "demo-canary", name: "Demo canary", author: "", version: "1.0.0", minAppVersion: "1.0.0", description: "" });
  await canary.enable();
  for (const language of CODE_RUNNING_LANGUAGES) {
    canary.registerMarkdownCodeBlockProcessor(language, (source, el, ctx) => {
      calls.push({ kind: "code-block", language, source, sourcePath: ctx.sourcePath });
      el.setText(`[${language} would have run here]`);
    });
  }
  canary.registerMarkdownPostProcessor((el, ctx) => {
    for (const code of el.querySelectorAll("code")) {
      const text = code.textContent ?? "";
      if (code.parentElement?.tagName !== "PRE" && /^\$?=/.test(text)) calls.push({ kind: "inline-query", source: text, sourcePath: ctx.sourcePath });
    }
  });
  return calls;
}
