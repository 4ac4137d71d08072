/**
 * The chat view on a phone, in Chromium: the demo as Obsidian on a phone (`?mobile=1`, a
 * touch-enabled page 360 to 430 px wide), driven by taps against the scripted model server and a
 * vault whose notes are named in several scripts. Everything a finger can tap is at least the
 * touch size Obsidian gives its controls on a phone (44 px) both ways, shown without hovering,
 * and nothing scrolls sideways: the conversation with a tool banner, an approval card, the "@"
 * and "/" lists, Related notes, Chat history with its row menu, and the settings tab.
 */
import type { Page } from "playwright-core";
import { lastAnswer, waitUntilIdle } from "./chatPage";
import { CHAT_VIEW_SELECTOR, screenshotPath } from "./demoHarness";
import { sendByTap, usePhoneDemo } from "./phoneDemo";
import { sidewaysOverflow, tooSmall, touchTargets } from "./touchTargets";

jest.setTimeout(180_000);

const NOTES: Record<string, string> = {
  "Welcome.md": "# Welcome\n\nStart with [[Сад/Розы]], [[庭院/玫瑰花园的修剪计划]] and [[สวน/การตัดแต่งกิ่งกุหลาบในฤดูใบไม้ผลิ]].\n",
  "Сад/Розы.md": "# Розы\n\nОбрезать розы ранней весной, над наружной почкой. #сад\n",
  "庭院/玫瑰花园的修剪计划.md": "# 玫瑰\n\n早春修剪玫瑰，剪在向外的芽上方。\n",
  "مطبخ/حساء الطماطم.md": "حساء الطماطم: يُطهى مع الريحان عشرين دقيقة.\n",
  "สวน/การตัดแต่งกิ่งกุหลาบในฤดูใบไม้ผลิ.md": "ตัดแต่งกิ่งกุหลาบในต้นฤดูใบไม้ผลิเหนือตาที่หันออกด้านนอก\n",
  // The name decomposed (NFD), as macOS writes it.
  "🌹 Cafe\u0301 roses.md": "Cafe\u0301 🌹: roses by the door.\n",
  "copilot/prompts/Summarize.md": "---\ndescription: Summarize the open note in three lines\n---\nSummarize {{activeNote}}.\n",
};

/** An answer as wide as answers get: a heading, links, a line of code and a table no phone can hold, an unbroken Thai sentence. */
const WIDE_ANSWER = [
  "## Обрезка роз 🌹",
  "",
  "Prune in early spring, see [[Сад/Розы]] and [[庭院/玫瑰花园的修剪计划]].",
  "",
  "```ts",
  `const ${"veryLongIdentifier".repeat(12)} = prune(roses);`,
  "```",
  "",
  `| ${["Сорт", "品种", "الصنف", "พันธุ์", "Месяц", "Высота", "Цвет", "Запах"].join(" | ")} |`,
  `|${" --- |".repeat(8)}`,
  `| ${["Глория Дей", "和平", "السلام", "สันติภาพ", "март", "120 см", "жёлто-розовый", "сильный"].join(" | ")} |`,
  "",
  "การตัดแต่งกิ่งกุหลาบในต้นฤดูใบไม้ผลิเหนือตาที่หันออกด้านนอกทำให้พุ่มโปร่งและแข็งแรง",
].join("\n");

/** The controls every chat on a phone shows, by the names a screen reader reads. */
const ALWAYS_THERE = ["Mode", "Model", "New chat", "Chat history", "Message"];

describe("the chat view on a phone", () => {
  // Known to take tools (as after Test connection), so new chats start in Agent.
  const { queue, sessionErrors, openPhone: open } = usePhoneDemo(NOTES, { modelTakesTools: true });
  const openPhone = (width: number, theme: "dark" | "light" = "dark") => open({ width, theme });

  /** The view's tap targets that are too small or not shown without hovering, and what scrolls sideways. */
  async function layoutProblems(page: Page, scope = CHAT_VIEW_SELECTOR): Promise<{ small: string[]; hidden: string[]; sideways: string[] }> {
    const targets = await touchTargets(page, scope);
    return {
      small: tooSmall(targets),
      hidden: targets.filter((target) => !target.shown).map((target) => `${target.tag} "${target.name}"`),
      sideways: await sidewaysOverflow(page, scope),
    };
  }

  const fine = { small: [], hidden: [], sideways: [] };

  it.each([360, 390, 430])("at %i px every control is a 44 px touch target shown without hovering, and nothing scrolls sideways", async (width) => {
    const page = await openPhone(width);
    const view = page.locator(CHAT_VIEW_SELECTOR);
    // Each state as it looks, for a person to review (outside the repository: screenshotPath).
    const shoot = (state: string) => page.screenshot({ path: screenshotPath(`phone-${width}-${state}.png`) });
    expect(await layoutProblems(page)).toEqual(fine);
    const names = (await touchTargets(page, CHAT_VIEW_SELECTOR)).map((target) => target.name);
    expect(names).toEqual(expect.arrayContaining(ALWAYS_THERE));

    // An agent turn: a search banner, then a wide answer with its actions.
    queue.push({ toolCalls: [{ name: "localSearch", arguments: JSON.stringify({ query: "обрезка роз", salientTerms: ["розы", "玫瑰"] }) }] }, { text: WIDE_ANSWER });
    const question = `Когда обрезать розы? 什么时候修剪玫瑰？ ${width}`;
    await sendByTap(page, question);
    await waitUntilIdle(page);
    const banner = lastAnswer(page).getByRole("group").filter({ hasText: "Searched your notes" });
    await banner.locator("summary").first().tap();
    await banner.getByRole("link").first().waitFor();
    expect(await layoutProblems(page)).toEqual(fine);
    await shoot("answer");
    const answerControls = (await touchTargets(page, CHAT_VIEW_SELECTOR)).map((target) => target.name);
    expect(answerControls).toEqual(expect.arrayContaining(["Copy", "Insert at cursor", "Regenerate", "Edit"]));

    // An approval card: its diff, the reason box, Reject and Accept.
    queue.push(
      { toolCalls: [{ name: "replaceInFile", arguments: JSON.stringify({ path: "Сад/Розы.md", oldText: "ранней весной", newText: "поздней зимой, в сухой день без мороза" }) }] },
      { text: "Оставил как было." },
    );
    await sendByTap(page, "Обрезать зимой");
    const card = lastAnswer(page).getByRole("region", { name: "Edit Сад/Розы.md?" });
    await card.waitFor();
    await card.getByRole("button", { name: "Accept", disabled: false }).waitFor();
    expect(await layoutProblems(page)).toEqual(fine);
    await shoot("approval");
    await card.getByRole("button", { name: "Reject" }).tap();
    await waitUntilIdle(page);

    // The "@" list, then the "/" list, over the message box.
    const box = page.getByRole("textbox", { name: "Message" });
    await box.fill("@สวน");
    await page.getByRole("listbox", { name: "Context suggestions" }).getByRole("option").first().waitFor();
    expect(await layoutProblems(page)).toEqual(fine);
    await shoot("mention");
    await box.fill("/");
    await page.getByRole("listbox", { name: "Prompts" }).getByRole("option", { name: /Summarize/ }).waitFor();
    expect(await layoutProblems(page)).toEqual(fine);
    await shoot("prompts");
    await box.fill("");

    // Related notes of the open note (Welcome), opened under the conversation.
    await view.getByText("Related notes", { exact: true }).tap();
    await view.getByRole("list", { name: "Related notes" }).getByRole("listitem").first().waitFor();
    expect(await layoutProblems(page)).toEqual(fine);
    await shoot("related");
    await view.getByText("Related notes", { exact: true }).tap();

    // Chat history: the saved chat's row and its menu.
    await page.getByRole("button", { name: "Chat history" }).tap();
    const saved = page.getByRole("region", { name: "Saved chats" });
    const actions = saved.getByRole("button", { name: `Actions for ${question.replace("?", "")}`, exact: true });
    await actions.waitFor();
    await actions.tap();
    await saved.getByRole("menuitem", { name: "Rename" }).waitFor();
    expect(await layoutProblems(page)).toEqual(fine);
    await shoot("history");
    await page.close();
  });

  it.each([360, 390, 430])("at %i px the settings tab scrolls only up and down, and the tool list's switches are 44 px targets", async (width) => {
    const page = await openPhone(width);
    await page.evaluate(() => void window.demo.openSettings());
    const settings = page.getByRole("dialog", { name: "Settings" });
    await settings.locator("[data-tool-id='readNote']").waitFor();
    expect(await sidewaysOverflow(page, ".mod-settings-container .modal")).toEqual([]);
    const toolList = await touchTargets(page, ".mod-settings-container .vault-copilot-tools-host");
    expect(toolList.length).toBeGreaterThan(10);
    expect(tooSmall(toolList)).toEqual([]);
    await page.screenshot({ path: screenshotPath(`phone-${width}-settings.png`) });
    await page.close();
  });

  it("the Related notes view of its own has 44 px rows and scrolls only up and down", async () => {
    const page = await openPhone(390);
    await page.evaluate(() => window.demo.plugin?.runCommand("open-related-notes"));
    const view = page.locator(".vault-copilot-related-view");
    await view.getByRole("list", { name: "Related notes" }).getByRole("listitem").first().waitFor();
    expect(await layoutProblems(page, ".vault-copilot-related-view")).toEqual(fine);
    await page.close();
  });

  describe.each(["light", "dark"] as const)("a phone screenshot, %s theme", (theme) => {
    it("an answer to a question, with its banner and actions", async () => {
      const page = await openPhone(390, theme);
      queue.push(
        { toolCalls: [{ name: "localSearch", arguments: JSON.stringify({ query: "обрезать розы", salientTerms: ["розы", "обрезать"] }) }] },
        {
          text: "## Pruning roses\n\nPrune in **early spring**, as [[Сад/Розы]] says:\n\n1. Cut dead wood first.\n2. Cut just above an outward-facing bud.\n3. Open the centre of the bush to light and air.\n",
        },
      );
      await sendByTap(page, "When and how do I prune my roses?");
      await waitUntilIdle(page);
      await lastAnswer(page).getByRole("heading", { name: "Pruning roses" }).waitFor();
      await lastAnswer(page).getByText(/Searched your notes · [1-9]\d* notes? found/).waitFor();
      expect(await layoutProblems(page)).toEqual(fine);
      await page.screenshot({ path: screenshotPath(`phone-answer-${theme}.png`) });
      await page.close();
    });
  });

  it("logged no console errors in any page of the session", () => {
    expect(sessionErrors).toEqual([]);
  });
});
