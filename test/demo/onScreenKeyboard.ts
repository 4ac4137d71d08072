/**
 * `?keyboard=N`: an on-screen keyboard of N px, as a phone has one (with `?mobile=1`). A desktop
 * browser has no such keyboard and no way to make its visual viewport shorter, so the page stands
 * in for both, the way iOS behaves (and Android when the app does not resize itself):
 * - it opens when a text field gets the focus, and closes when the focus leaves text fields or
 *   its "Hide keyboard" key is pressed (a frame later, as a keyboard slides in after the focus);
 * - while it is open, `window.visualViewport` (a stand-in with the real one's fields) is N px
 *   shorter than the window and fires `resize`, and the page's layout stays as it was: the
 *   keyboard, drawn over the bottom N px, covers whatever is there.
 * The plugin sees what it would see on a phone: a visual viewport that ends above the bottom of
 * its view.
 */

/** The part of `window.visualViewport` the stand-in gives (VisualViewport has no constructor). */
class VisualViewportStandIn extends EventTarget {
  readonly offsetLeft = 0;
  readonly offsetTop = 0;
  readonly pageLeft = 0;
  readonly pageTop = 0;
  readonly scale = 1;
  onresize: ((event: Event) => void) | null = null;
  onscroll: ((event: Event) => void) | null = null;
  onscrollend: ((event: Event) => void) | null = null;

  constructor(
    private readonly window: Window,
    private readonly covered: () => number,
  ) {
    super();
  }

  get width(): number {
    return this.window.innerWidth;
  }

  get height(): number {
    return Math.max(0, this.window.innerHeight - this.covered());
  }

  /** Tells listeners the visible part changed, as the browser does while a keyboard slides in or out. */
  changed(): void {
    const event = new Event("resize");
    this.onresize?.(event);
    this.dispatchEvent(event);
  }
}

export interface SimulatedKeyboard {
  /** Its height in px. */
  readonly height: number;
  isOpen(): boolean;
}

const TEXT_INPUT_TYPES = new Set(["text", "search", "url", "email", "password", "number", "tel"]);

/** Whether focusing `target` brings up a phone's keyboard. */
function takesTyping(target: EventTarget | null): boolean {
  const element = target as Partial<HTMLInputElement> | null;
  if (!element || typeof element.tagName !== "string") return false;
  if (element.readOnly || element.disabled) return false;
  if (element.tagName === "TEXTAREA") return true;
  if (element.tagName === "INPUT") return TEXT_INPUT_TYPES.has(element.type ?? "text");
  return element.isContentEditable === true;
}

/** Installs the keyboard on the page (once, before the plugin loads, so the plugin's view sees the stand-in). */
export function simulateOnScreenKeyboard(height: number): SimulatedKeyboard {
  let open = false;
  const viewport = new VisualViewportStandIn(window, () => (open ? height : 0));
  Object.defineProperty(window, "visualViewport", { configurable: true, get: () => viewport });

  const panel = document.body.createDiv({ cls: "demo-keyboard", attr: { role: "group", "aria-label": "On-screen keyboard" } });
  panel.setCssProps({ "--demo-keyboard-height": `${height}px` });
  panel.createDiv({ cls: "demo-keyboard-keys", text: `On-screen keyboard (${height} px)` });
  const hide = panel.createEl("button", { cls: "demo-keyboard-hide", text: "Hide keyboard" });
  // Pressing a key of a real keyboard never takes the focus from the text field.
  panel.addEventListener("mousedown", (event) => event.preventDefault());
  hide.addEventListener("click", () => {
    const active = document.activeElement;
    if (active instanceof HTMLElement) active.blur();
  });

  // A keyboard slides in or out after the focus changed, not in the same moment: what a tap
  // already started (its click) lands where it was aimed, as on a phone.
  let pending = 0;
  const setOpen = (next: boolean) => {
    window.cancelAnimationFrame(pending);
    pending = window.requestAnimationFrame(() => {
      if (next === open) return;
      open = next;
      panel.toggleClass("is-open", open);
      viewport.changed();
    });
  };
  document.addEventListener("focusin", (event) => setOpen(takesTyping(event.target)));
  document.addEventListener("focusout", (event) => {
    if (!takesTyping(event.relatedTarget)) setOpen(false);
  });
  window.addEventListener("resize", () => viewport.changed());
  return { height, isOpen: () => open };
}
