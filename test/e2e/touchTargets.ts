/**
 * What a phone test measures in the page: the controls a finger can tap, with the size of the
 * area that takes the tap, and anything that makes the page scroll sideways.
 */
import type { Page } from "playwright-core";

/** The touch size Obsidian gives controls on a phone (`--touch-size-m`). */
export const TOUCH_SIZE_PX = 44;

export interface TouchTarget {
  /** The control's accessible name (or its text), for messages. */
  name: string;
  tag: string;
  /** The area that takes the tap: the control's box, or for a checkbox the label it belongs to. */
  width: number;
  height: number;
  /** Visible without hovering (not transparent, not hidden). */
  shown: boolean;
}

/**
 * Every control inside `scope` (a CSS selector) that a finger can tap: buttons, selects, text
 * fields, folds (summary), list options and menu items, and links that stand alone. A link inside
 * a sentence is text, not a target (as WCAG counts it), and is left out; so are controls not
 * drawn at all (display: none, or inside a closed fold). `shown` then tells a control drawn but
 * transparent or hidden, as one that only appears on hover is.
 */
export async function touchTargets(page: Page, scope: string): Promise<TouchTarget[]> {
  return page.evaluate((selector) => {
    const controls = "button, select, input:not([type='hidden']), textarea, summary, a[href], [role='option'], [role='menuitem']";
    const roots = [...document.querySelectorAll(selector)];
    const found: TouchTarget[] = [];
    for (const root of roots) {
      for (const element of root.querySelectorAll<HTMLElement>(controls)) {
        // Not drawn at all: display none, or the inside of a closed fold.
        if (!element.checkVisibility()) continue;
        // A link in running text (a paragraph, a list item's sentence, a table cell) is text.
        if (element.tagName === "A" && element.closest(".vault-copilot-markdown, .vault-copilot-tool-summary, .vault-copilot-related-why")) continue;
        const input = element as HTMLInputElement;
        const label = (input.type === "checkbox" || input.type === "radio") && input.labels?.[0] ? input.labels[0] : null;
        const area = (label ?? element).getBoundingClientRect();
        found.push({
          name: (element.getAttribute("aria-label") ?? element.textContent ?? "").trim().slice(0, 60),
          tag: element.tagName.toLowerCase(),
          width: Math.round(area.width * 10) / 10,
          height: Math.round(area.height * 10) / 10,
          shown: element.checkVisibility({ opacityProperty: true, visibilityProperty: true }),
        });
      }
    }
    return found;
  }, scope);
}

/** The targets smaller than the touch size either way, as "tag name WxH" lines (empty when all fit). */
export function tooSmall(targets: readonly TouchTarget[]): string[] {
  return targets.filter((target) => target.width < TOUCH_SIZE_PX || target.height < TOUCH_SIZE_PX).map((target) => `${target.tag} "${target.name}" ${target.width}x${target.height}`);
}

/**
 * What makes the screen scroll sideways or cuts something off at its side: the page wider than
 * the window; inside each element `scope` selects, an element reaching past that element's left
 * or right edge, and a container that scrolls sideways. Code blocks, tables and the diff scroll
 * sideways within themselves on purpose (a long line of code is not wrapped), so what is inside
 * them is not counted, and neither are they.
 */
export async function sidewaysOverflow(page: Page, scope: string): Promise<string[]> {
  return page.evaluate((selector) => {
    const scrollsOnPurpose = "pre, table, .vault-copilot-diff, textarea";
    const width = document.documentElement.clientWidth;
    const problems: string[] = [];
    if (document.documentElement.scrollWidth > width) problems.push(`the page is ${document.documentElement.scrollWidth} px wide in a ${width} px window`);
    const describe = (element: Element) => `${element.tagName.toLowerCase()}.${String(element.className).split(" ")[0]} "${(element.textContent ?? "").trim().slice(0, 40)}"`;
    for (const root of document.querySelectorAll(selector)) {
      const edges = root.getBoundingClientRect();
      if (edges.left < -0.5 || edges.right > width + 0.5) problems.push(`${describe(root)} spans ${Math.round(edges.left)}..${Math.round(edges.right)} of a ${width} px window`);
      for (const element of [root, ...root.querySelectorAll("*")]) {
        if (element !== root && element.parentElement?.closest(scrollsOnPurpose)) continue;
        const overflowX = getComputedStyle(element).overflowX;
        if ((overflowX === "auto" || overflowX === "scroll") && !element.matches(scrollsOnPurpose) && element.scrollWidth > element.clientWidth + 1) {
          problems.push(`${describe(element)} scrolls sideways (${element.scrollWidth} > ${element.clientWidth})`);
        }
        const box = element.getBoundingClientRect();
        if (box.width === 0 || (box.left >= edges.left - 0.5 && box.right <= edges.right + 0.5)) continue;
        problems.push(`${describe(element)} spans ${Math.round(box.left)}..${Math.round(box.right)}, outside ${Math.round(edges.left)}..${Math.round(edges.right)}`);
      }
    }
    return problems;
  }, scope);
}
