/**
 * The chat view on a 390×844 phone in Chromium, with the demo's simulated on-screen keyboard
 * (`?mobile=1&keyboard=300`: while a text field has the focus, the visual viewport is 300 px
 * shorter and the keyboard covers the bottom of the screen), and what only phones do: the
 * keyboard's return key writes a new line, and a long press on an answer opens its menu.
 */
import type { Page } from "playwright-core";
import { conversation, lastAnswer, waitUntilIdle } from "./chatPage";
import { CHAT_VIEW_SELECTOR, screenshotPath } from "./demoHarness";
import { sendByTap as tapSend, usePhoneDemo } from "./phoneDemo";

jest.setTimeout(120_000);

const SCREEN = { width: 390, height: 844 };
const KEYBOARD_PX = 300;

/** A long answer (so the conversation scrolls), its lines numbered and in several scripts. */
function longAnswer(label: string): string {
  const lines = ["Розы", "玫瑰", "ورد", "กุหลาบ", "🌹 Cafe\u0301"].flatMap((word, index) => [`${label}.${index + 1} ${word}: ${"prune above an outward bud, ".repeat(3)}`, ""]);
  return [`## ${label}`, "", ...lines, `Last line of ${label}.`].join("\n");
}

describe("the chat view on a phone with an on-screen keyboard", () => {
  const phone = usePhoneDemo({ "Welcome.md": "# Welcome\n\nЗаметки о саде. 庭院笔记。\n", "Сад/Розы.md": "Обрезать розы ранней весной.\n" });
  const { queue, sessionErrors } = phone;
  const openPhone = (query: string, theme: "dark" | "light" = "dark") => phone.openPhone({ ...SCREEN, query, theme });

  /** Sends `text` with a tap on Send and waits for the reply to end. */
  async function sendByTap(page: Page, text: string): Promise<void> {
    await tapSend(page, text);
    await waitUntilIdle(page);
  }

  /** A conversation of three long answers, then the message box without the focus (the keyboard down). */
  async function longConversation(page: Page): Promise<void> {
    for (const label of ["A", "B", "C"]) {
      queue.push({ text: longAnswer(label) });
      await sendByTap(page, `Question ${label}: розы, 玫瑰?`);
      await lastAnswer(page).getByText(`Last line of ${label}.`).waitFor();
    }
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.waitForFunction(() => window.demo.keyboard?.isOpen() === false);
  }

  /**
   * Where things are: the visible viewport's height, the message box, the conversation (its box,
   * scroll and the element at its lower and upper edge) and the last line of the last answer.
   */
  function measure(page: Page) {
    return page.evaluate((selector) => {
      const view = document.querySelector(selector)!;
      const log = view.querySelector<HTMLElement>('[role="log"]')!;
      const box = view.querySelector<HTMLElement>('textarea[aria-label="Message"]')!.getBoundingClientRect();
      const logBox = log.getBoundingClientRect();
      const lastLine = [...log.querySelectorAll('article[aria-label="Copilot"]')].at(-1)!.querySelectorAll("p");
      const lastLineBox = lastLine[lastLine.length - 1]!.getBoundingClientRect();
      const textAt = (y: number) => document.elementFromPoint(logBox.left + logBox.width / 2, y)?.textContent?.slice(0, 40) ?? "";
      return {
        visibleHeight: window.visualViewport!.height,
        box: { top: box.top, bottom: box.bottom },
        log: { top: logBox.top, bottom: logBox.bottom, scrollTop: log.scrollTop, clientHeight: log.clientHeight, scrollHeight: log.scrollHeight },
        lastLine: { top: lastLineBox.top, bottom: lastLineBox.bottom },
        atLowerEdge: textAt(logBox.bottom - 12),
        atUpperEdge: textAt(logBox.top + 12),
      };
    }, CHAT_VIEW_SELECTOR);
  }

  /** Resolves once the message box sits right above the keyboard (open) or at the bottom of the screen (closed). */
  async function keyboardSettled(page: Page, open: boolean): Promise<void> {
    await page.waitForFunction(
      ([selector, bottom]) => {
        const box = document.querySelector(`${selector} textarea[aria-label="Message"]`)?.getBoundingClientRect();
        return box !== undefined && Math.abs(box.bottom + 8 - bottom) <= 2;
      },
      [CHAT_VIEW_SELECTOR, open ? SCREEN.height - KEYBOARD_PX : SCREEN.height] as const,
    );
  }

  it("at the end of the conversation, the message box and the last line stay above the keyboard, and closing it moves nothing", async () => {
    const page = await openPhone(`&keyboard=${KEYBOARD_PX}`);
    await longConversation(page);
    const before = await measure(page);
    expect(before.visibleHeight).toBe(SCREEN.height);
    expect(before.log.scrollTop + before.log.clientHeight).toBeGreaterThanOrEqual(before.log.scrollHeight - 1);

    await page.getByRole("textbox", { name: "Message" }).tap();
    await keyboardSettled(page, true);
    const open = await measure(page);
    expect(open.visibleHeight).toBe(SCREEN.height - KEYBOARD_PX);
    // The message box is whole, right above the keyboard; the last line is between the header and it.
    expect(open.box.bottom).toBeLessThanOrEqual(open.visibleHeight);
    expect(open.box.top).toBeGreaterThan(open.log.bottom - 1);
    expect(open.lastLine.bottom).toBeLessThanOrEqual(open.log.bottom);
    expect(open.lastLine.top).toBeGreaterThanOrEqual(open.log.top);
    expect(open.log.top).toBe(before.log.top);
    await page.keyboard.type("Сколько раз? 几次？");
    await page.screenshot({ path: screenshotPath("phone-keyboard-open.png") });

    await page.getByRole("button", { name: "Hide keyboard" }).tap();
    await keyboardSettled(page, false);
    const closed = await measure(page);
    expect(closed.box).toEqual(before.box);
    expect(closed.log).toEqual(before.log);
    expect([closed.atUpperEdge, closed.atLowerEdge]).toEqual([before.atUpperEdge, before.atLowerEdge]);
    await expect(page.getByRole("textbox", { name: "Message" }).inputValue()).resolves.toBe("Сколько раз? 几次？");
    await page.close();
  });

  it("scrolled up, the line next to the message box stays there while the keyboard is open, and the same place is back when it closes", async () => {
    const page = await openPhone(`&keyboard=${KEYBOARD_PX}`);
    await longConversation(page);
    // The person scrolls up (a wheel turn, as a finger's drag would): the conversation stops following its end.
    await page.evaluate(() => {
      const log = document.querySelector<HTMLElement>('[role="log"][aria-label="Conversation"]')!;
      log.dispatchEvent(new WheelEvent("wheel", { deltaY: -700 }));
      log.scrollTop = log.scrollHeight - log.clientHeight - 700;
    });
    await page.getByRole("button", { name: "Newest" }).waitFor();
    const before = await measure(page);

    await page.getByRole("textbox", { name: "Message" }).tap();
    await keyboardSettled(page, true);
    const open = await measure(page);
    expect(open.atLowerEdge).toBe(before.atLowerEdge);
    // The lower edge moved up by what the keyboard covers, and the text at it moved up with it.
    expect(open.log.scrollTop + open.log.clientHeight).toBeCloseTo(before.log.scrollTop + before.log.clientHeight, 0);

    await page.getByRole("button", { name: "Hide keyboard" }).tap();
    await keyboardSettled(page, false);
    const closed = await measure(page);
    expect(closed.log).toEqual(before.log);
    expect([closed.atUpperEdge, closed.atLowerEdge]).toEqual([before.atUpperEdge, before.atLowerEdge]);
    await page.close();
  });

  it('with the keyboard open, the "@" list shows whole between the header and the message box', async () => {
    const page = await openPhone(`&keyboard=${KEYBOARD_PX}`);
    const box = page.getByRole("textbox", { name: "Message" });
    await box.tap();
    await keyboardSettled(page, true);
    await box.fill("@");
    const list = page.getByRole("listbox", { name: "Context suggestions" });
    await list.getByRole("option").first().waitFor();
    const [listBox, header, visibleHeight] = await Promise.all([
      list.boundingBox(),
      page.getByRole("combobox", { name: "Mode", exact: true }).boundingBox(),
      page.evaluate(() => window.visualViewport!.height),
    ]);
    expect(listBox!.y).toBeGreaterThanOrEqual(header!.y + header!.height);
    expect(listBox!.y + listBox!.height).toBeLessThanOrEqual(visibleHeight);
    await page.close();
  });

  it("the keyboard's return key writes a new line on a phone; Send sends the lines and the keyboard stays up for the next message", async () => {
    const page = await openPhone(`&keyboard=${KEYBOARD_PX}`);
    const box = page.getByRole("textbox", { name: "Message" });
    await box.tap();
    await page.keyboard.type("Первая строка");
    await page.keyboard.press("Enter");
    await page.keyboard.type("第二行 🌹");
    const requestsBefore = phone.model().requests.length;
    await expect(box.inputValue()).resolves.toBe("Первая строка\n第二行 🌹");
    expect(await conversation(page).getByRole("article").count()).toBe(0);

    queue.push({ text: "Две строки получены." });
    await page.getByRole("button", { name: "Send" }).tap();
    await waitUntilIdle(page);
    await lastAnswer(page).getByText("Две строки получены.").waitFor();
    expect(await page.evaluate(() => [window.demo.keyboard?.isOpen(), document.activeElement?.getAttribute("aria-label")])).toEqual([true, "Message"]);
    expect(phone.model().requests).toHaveLength(requestsBefore + 1);
    expect(JSON.stringify(phone.model().requests.at(-1)!.body.messages)).toContain(JSON.stringify("Первая строка\n第二行 🌹").slice(1, -1));
    await page.close();
  });

  it("a long press on an answer opens its menu: Copy, Insert at cursor and Regenerate do what their buttons do", async () => {
    const page = await openPhone("");
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    queue.push({ text: "Обрезайте розы **ранней весной**.\n\n早春修剪。" });
    await sendByTap(page, "Когда?");
    const firstLine = lastAnswer(page).getByText("Обрезайте розы");
    await firstLine.waitFor();
    const cdp = await page.context().newCDPSession(page);
    const longPress = async () => {
      const at = (await firstLine.boundingBox())!;
      const point = { x: at.x + 20, y: at.y + at.height / 2 };
      await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [point] });
      const menu = page.getByRole("menu");
      // Held until the menu opens (after LONG_PRESS_MS), then lifted.
      await menu.waitFor();
      await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
      return menu;
    };

    let menu = await longPress();
    expect(await menu.getByRole("menuitem").allInnerTexts()).toEqual(["Copy", "Insert at cursor", "Regenerate"]);
    await menu.getByRole("menuitem", { name: "Copy" }).tap();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe("Обрезайте розы **ранней весной**.\n\n早春修剪。");

    menu = await longPress();
    await menu.getByRole("menuitem", { name: "Insert at cursor" }).tap();
    const noteText = await page.evaluate(() => window.app.workspace.getActiveViewOfType(window.demo.obsidian.MarkdownView)?.editor.getValue());
    expect(noteText).toContain("Обрезайте розы **ранней весной**.");

    queue.push({ text: "Второй вариант: в марте." });
    menu = await longPress();
    await menu.getByRole("menuitem", { name: "Regenerate" }).tap();
    await waitUntilIdle(page);
    await lastAnswer(page).getByText("Второй вариант: в марте.").waitFor();
    expect(await conversation(page).getByRole("article", { name: "Copilot" }).count()).toBe(1);
    await page.close();
  });

  it.each(["light", "dark"] as const)("a phone screenshot with the keyboard open, %s theme", async (theme) => {
    const page = await openPhone(`&keyboard=${KEYBOARD_PX}`, theme);
    queue.push({ text: "## Pruning roses\n\nPrune in **early spring**, just above an outward-facing bud, as [[Сад/Розы]] says.\n\nCut dead wood first." });
    await sendByTap(page, "When do I prune my roses?");
    await lastAnswer(page).getByText("Cut dead wood first.").waitFor();
    await page.getByRole("textbox", { name: "Message" }).tap();
    await keyboardSettled(page, true);
    await page.keyboard.type("And climbing roses?");
    await page.screenshot({ path: screenshotPath(`phone-keyboard-${theme}.png`) });
    await page.close();
  });

  it("logged no console errors in any page of the session", () => {
    expect(sessionErrors).toEqual([]);
  });
});
