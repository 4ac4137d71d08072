import type * as Obsidian from "obsidian";
import type { Fits } from "./events";
import { Platform } from "./app";

/** The "Mod" key: Cmd on macOS, Ctrl elsewhere (the double's Platform says which). */
function modPressed(event: { ctrlKey: boolean; metaKey: boolean }): boolean {
  return Platform.isMacOS ? event.metaKey : event.ctrlKey;
}

/** Obsidian's Keymap: only the static helpers that read an event. */
export class Keymap {
  static isModifier(evt: MouseEvent | TouchEvent | KeyboardEvent, modifier: Obsidian.Modifier): boolean {
    switch (modifier) {
      case "Mod":
        return modPressed(evt);
      case "Ctrl":
        return evt.ctrlKey;
      case "Meta":
        return evt.metaKey;
      case "Shift":
        return evt.shiftKey;
      case "Alt":
        return evt.altKey;
    }
  }

  /**
   * As obsidian.d.ts documents it: "tab" for Mod (or a middle click), "split" for Mod+Alt,
   * "window" for Mod+Alt+Shift, otherwise false.
   */
  static isModEvent(evt?: Obsidian.UserEvent | null): Obsidian.PaneType | boolean {
    if (!evt) return false;
    const middleClick = "button" in evt && evt.button === 1;
    if (!modPressed(evt)) return middleClick ? "tab" : false;
    if (evt.altKey && evt.shiftKey) return "window";
    if (evt.altKey) return "split";
    return "tab";
  }
}
export type IsModEventFits = Fits<typeof Obsidian.Keymap.isModEvent, typeof Keymap.isModEvent>;
export type IsModifierFits = Fits<typeof Obsidian.Keymap.isModifier, typeof Keymap.isModifier>;
