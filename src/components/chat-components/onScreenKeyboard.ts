import { useLayoutEffect, type RefObject } from "react";

/** What the chat reads of `window.visualViewport`: the part of the page the person can see. */
export interface VisibleViewport {
  /** Its top, in the page's (layout viewport's) coordinates. */
  offsetTop: number;
  height: number;
}

/** How much of an element the visible viewport leaves out, at its top and at its bottom (px, 0 or more). */
export interface HiddenEdges {
  top: number;
  bottom: number;
}

/**
 * The part of an element (its top and bottom in the page's coordinates) outside the visible
 * viewport: at the bottom, what an on-screen keyboard covers; at the top, what the system scrolled
 * away to show a text field above the keyboard. Both are 0 when the system made the page itself
 * shorter for the keyboard (Android usually does), so nothing is counted twice.
 */
export function hiddenEdges(element: { top: number; bottom: number }, viewport: VisibleViewport): HiddenEdges {
  const visibleBottom = viewport.offsetTop + viewport.height;
  return {
    top: Math.max(0, Math.round(viewport.offsetTop - element.top)),
    bottom: Math.max(0, Math.round(element.bottom - visibleBottom)),
  };
}

/** The CSS variables styles.css pads the chat with (set on the element, so React's own attributes stay untouched). */
const TOP_VARIABLE = "--vault-copilot-hidden-top";
const BOTTOM_VARIABLE = "--vault-copilot-keyboard-inset";

/**
 * Keeps the chat inside the part of the screen the person sees while an on-screen keyboard is
 * open: it follows the view window's `visualViewport` and pads the chat by what the keyboard
 * covers, so the message box sits right above the keyboard and the conversation between header
 * and message box gets shorter (ChatMessages keeps its place in it). Where Obsidian already made
 * the view shorter, the padding stays 0. Nothing is re-rendered: the padding is two CSS variables.
 */
export function useOnScreenKeyboard(ref: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const element = ref.current;
    // The view's own window: a chat in a popout window follows that window's keyboard.
    const viewport = element?.ownerDocument.defaultView?.visualViewport;
    if (!element || !viewport) return;
    let shown: HiddenEdges | null = null;
    const update = () => {
      // The element's box does not change with its padding, so this never feeds back on itself.
      const edges = hiddenEdges(element.getBoundingClientRect(), viewport);
      if (shown && shown.top === edges.top && shown.bottom === edges.bottom) return;
      shown = edges;
      element.setCssProps({ [TOP_VARIABLE]: `${edges.top}px`, [BOTTOM_VARIABLE]: `${edges.bottom}px` });
    };
    update();
    viewport.addEventListener("resize", update);
    viewport.addEventListener("scroll", update);
    return () => {
      viewport.removeEventListener("resize", update);
      viewport.removeEventListener("scroll", update);
    };
  }, [ref]);
}
