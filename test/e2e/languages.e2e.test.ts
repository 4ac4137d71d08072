/**
 * The interface in Obsidian's language, in Chromium: the demo with `?lang=zh` and `?lang=ja`
 * (what `getLanguage()` returns), a vault and answers written in other scripts, and the scripted
 * model server. The chat view, an answer with a tool banner opened and an approval card, Chat
 * history and the settings tab show no English word, in their visible text or in the names a
 * screen reader reads. "English word" is built from the English table: a word of English's
 * messages that the language's own table does not also use (product names, "API", "URL", "MCP"
 * and code like "nomic-embed-text" appear in both, so they are not counted).
 */
import type { Locator, Page } from "playwright-core";
import { en } from "../../src/i18n/en";
import { ja } from "../../src/i18n/ja";
import type { Message, Translation } from "../../src/i18n/messages";
import { zh } from "../../src/i18n/zh";
import { CHAT_VIEW_SELECTOR, screenshotPath } from "./demoHarness";
import { useScriptedDemo } from "./scriptedDemo";

jest.setTimeout(180_000);

/** The model's name: the model picker shows it as it is, in every language. */
const MODEL = "qwen3-8b-instruct";

const NOTES: Record<string, string> = {
  "Сад/Розы.md": "# Розы\n\nОбрезать розы ранней весной, над наружной почкой. #сад\n",
  "庭院/玫瑰花园的修剪计划.md": "# 玫瑰\n\n早春修剪玫瑰，剪在向外的芽上方。[[Сад/Розы]]\n",
  "สวน/กุหลาบ.md": "ตัดแต่งกิ่งกุหลาบในต้นฤดูใบไม้ผลิ 🌹\n",
  "مطبخ/حساء الطماطم.md": "حساء الطماطم: يُطهى مع الريحان عشرين دقيقة.\n",
};

function texts(message: Message | undefined): string[] {
  if (message === undefined) return [];
  return typeof message === "string" ? [message] : Object.values(message);
}

/** The words of a table's messages, lower case, placeholders left out. */
function wordsOf(messages: Iterable<Message | undefined>): Set<string> {
  const words = new Set<string>();
  for (const message of messages) {
    for (const text of texts(message)) {
      for (const match of text.replace(/\{\{[^}]*\}\}|\{\w+\}/g, " ").matchAll(/[A-Za-z][A-Za-z'’]*/g)) words.add(match[0].toLowerCase());
    }
  }
  return words;
}

/** English's words that `table` does not use itself. */
function englishOnly(table: Translation): Set<string> {
  const own = wordsOf(Object.values(table));
  return new Set([...wordsOf(Object.values(en))].filter((word) => !own.has(word)));
}

/** The visible text of `scope` and the accessible names and placeholders of its visible elements. */
async function shownText(scope: Locator): Promise<string[]> {
  return scope.evaluate((root) => {
    const found: string[] = [(root as HTMLElement).innerText];
    for (const element of root.querySelectorAll("*")) {
      if (!(element as HTMLElement).checkVisibility?.()) continue;
      for (const attribute of ["aria-label", "placeholder", "aria-valuetext"]) {
        const value = element.getAttribute(attribute);
        if (value) found.push(value);
      }
    }
    return found;
  });
}

/** The English words in what `scope` shows, each with the line it came from. */
async function englishLeft(scope: Locator, english: ReadonlySet<string>): Promise<string[]> {
  const left: string[] = [];
  for (const text of await shownText(scope)) {
    // Code stays as it is in every language: template variables ({{selection}}) and paths or time zones (copilot/chats, Europe/Berlin).
    for (const line of text.replaceAll(MODEL, "").replace(/\{\{[^}]*\}\}|[\w.-]*\/[\w./-]*/g, " ").split("\n")) {
      const words = [...line.matchAll(/[A-Za-z][A-Za-z'’]*/g)].map((match) => match[0].toLowerCase()).filter((word) => english.has(word));
      if (words.length > 0) left.push(`${words.join(", ")} ← ${line.trim()}`);
    }
  }
  return [...new Set(left)];
}

describe.each([
  ["zh", zh],
  ["ja", ja],
] as const)("the demo in %s", (code, table) => {
  const scripted = useScriptedDemo(NOTES, { modelName: MODEL, modelTakesTools: true });
  const { queue } = scripted;
  let page: Page;
  const consoleErrors: string[] = [];
  const english = englishOnly(table);
  const name = (key: keyof typeof en) => texts(table[key])[0]!;

  beforeAll(async () => {
    const opened = await scripted.openPage({ query: `?lang=${code}`, width: 420 });
    page = opened.page;
    consoleErrors.push(...opened.consoleErrors);
    page.on("console", (message) => message.type() === "error" && consoleErrors.push(message.text()));
    await page.getByRole("log", { name: name("conversation.label") }).waitFor();
  });

  const view = () => page.locator(CHAT_VIEW_SELECTOR);
  const shoot = (state: string) => page.screenshot({ path: screenshotPath(`language-${code}-${state}.png`) });
  const send = async (text: string) => {
    await page.getByRole("textbox", { name: name("composer.message") }).fill(text);
    await page.getByRole("button", { name: name("composer.send") }).click();
  };
  const lastAnswer = () => page.getByRole("log", { name: name("conversation.label") }).getByRole("article", { name: name("message.copilot") }).last();

  it("finds English words where they are: the English table's words are the check's", () => {
    // The check would catch an untranslated control: English's own words are in its list.
    for (const word of ["send", "history", "notes", "reject", "accept", "rename"]) expect(english.has(word)).toBe(true);
    // And does not count what every language writes the same way.
    for (const word of ["copilot", "obsidian", "mcp", "openai"]) expect(english.has(word)).toBe(false);
  });

  it("shows the empty chat with no English word", async () => {
    await page.getByRole("button", { name: name("header.newChat") }).waitFor();
    expect(await englishLeft(view(), english)).toEqual([]);
    await shoot("empty");
  });

  it("shows an answer with its search banner opened, and an approval card, with no English word", async () => {
    queue.push({ toolCalls: [{ name: "localSearch", arguments: JSON.stringify({ query: "обрезка роз", salientTerms: ["розы", "玫瑰"] }) }] }, { text: "早春修剪玫瑰，见 [[Сад/Розы]]。" });
    await send("什么时候修剪玫瑰？ Когда обрезать розы?");
    await page.getByRole("button", { name: name("composer.send") }).waitFor();
    const banner = lastAnswer().getByRole("group").filter({ hasText: texts(table["tool.localSearch.done"])[0]! });
    await banner.locator("summary").first().click();
    await banner.getByRole("link").first().waitFor();
    expect(await englishLeft(view(), english)).toEqual([]);
    await shoot("answer");

    queue.push(
      { toolCalls: [{ name: "replaceInFile", arguments: JSON.stringify({ path: "Сад/Розы.md", oldText: "ранней весной", newText: "поздней зимой, в сухой день" }) }] },
      { text: "好的，保持原样。" },
    );
    await send("改成冬末 Обрезать зимой");
    const card = lastAnswer().getByRole("region", { name: texts(table["approval.edit"])[0]!.replace("{path}", "Сад/Розы.md") });
    await card.waitFor();
    await card.getByRole("button", { name: name("approval.accept"), disabled: false }).waitFor();
    expect(await englishLeft(view(), english)).toEqual([]);
    await shoot("approval");
    await card.getByRole("button", { name: name("approval.reject") }).click();
    await page.getByRole("button", { name: name("composer.send") }).waitFor();
    expect(await englishLeft(view(), english)).toEqual([]);
  });

  it("shows Chat history with no English word", async () => {
    await page.getByRole("button", { name: name("header.history") }).click();
    const saved = page.getByRole("region", { name: name("history.saved") });
    await saved.getByRole("listitem").first().waitFor();
    await saved.getByRole("button", { name: texts(table["history.actions"])[0]!.replace("{title}", "什么时候修剪玫瑰？ Когда обрезать розы"), exact: true }).click();
    await saved.getByRole("menuitem", { name: name("history.rename") }).waitFor();
    expect(await englishLeft(view(), english)).toEqual([]);
    await shoot("history");
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: name("header.history") }).click();
  });

  it("shows the settings tab with no English word", async () => {
    await page.evaluate(() => void window.demo.openSettings());
    const tab = page.locator(".mod-settings-container .vertical-tab-content-container");
    await tab.locator("[data-tool-id='readNote']").waitFor();
    expect(await englishLeft(tab, english)).toEqual([]);
    await shoot("settings");
  });

  it("logged no console errors", () => {
    expect(consoleErrors).toEqual([]);
  });
});
