import type * as Obsidian from "obsidian";
import type { AcceptsObsidianArguments, Expect } from "./events";
import { Component } from "./events";
import { drawIcon } from "./icons";

/**
 * Obsidian's menu, drawn as Obsidian draws it: `div.menu` of `div.menu-item`s (an icon and a
 * title), at the position asked, over everything. The double names it a `menu` of `menuitem`s so
 * tests find the items by what a screen reader reads. A click on an item hides the menu, then
 * runs the item's callback; Escape or a press outside hides it.
 */
export class Menu extends Component implements Pick<Obsidian.Menu, "close" | "onHide"> {
  private readonly items: (MenuItem | "separator")[] = [];
  private readonly hideCallbacks: (() => unknown)[] = [];
  private element: HTMLElement | null = null;
  private removeOutsideListeners: (() => void) | null = null;

  setNoIcon(): this {
    return this;
  }

  addItem(cb: (item: MenuItem) => unknown): this {
    const item = new MenuItem();
    cb(item);
    this.items.push(item);
    return this;
  }

  addSeparator(): this {
    this.items.push("separator");
    return this;
  }

  showAtMouseEvent(evt: MouseEvent): this {
    return this.showAtPosition({ x: evt.clientX, y: evt.clientY }, (evt.target as Node | null)?.ownerDocument ?? undefined);
  }

  showAtPosition(position: Obsidian.MenuPositionDef, doc: Document = document): this {
    this.hide();
    const menu = doc.body.createDiv({ cls: "menu", attr: { role: "menu" } });
    // Where it was asked to open, for the stylesheet (the demo's puts it there on a desktop, and
    // shows it as a sheet from the bottom on a phone, as Obsidian does).
    menu.setCssProps({ "--menu-x": `${position.x}px`, "--menu-y": `${position.y}px` });
    for (const item of this.items) {
      if (item === "separator") menu.createDiv("menu-separator");
      else item.draw(menu, () => this.hide());
    }
    this.element = menu;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") this.hide();
    };
    const onPress = (event: Event) => {
      if (!menu.contains(event.target as Node)) this.hide();
    };
    doc.addEventListener("keydown", onKey);
    doc.addEventListener("pointerdown", onPress, true);
    this.removeOutsideListeners = () => {
      doc.removeEventListener("keydown", onKey);
      doc.removeEventListener("pointerdown", onPress, true);
    };
    return this;
  }

  hide(): this {
    if (!this.element) return this;
    this.removeOutsideListeners?.();
    this.removeOutsideListeners = null;
    this.element.detach();
    this.element = null;
    for (const callback of this.hideCallbacks) callback();
    return this;
  }

  close(): void {
    this.hide();
  }

  onHide(callback: () => unknown): void {
    this.hideCallbacks.push(callback);
  }
}

export class MenuItem {
  title = "";
  icon: string | null = null;
  disabled = false;
  private callback: ((evt: MouseEvent | KeyboardEvent) => unknown) | null = null;

  setTitle(title: string | DocumentFragment): this {
    this.title = typeof title === "string" ? title : (title.textContent ?? "");
    return this;
  }

  setIcon(icon: string | null): this {
    this.icon = icon;
    return this;
  }

  setChecked(checked: boolean | null): this {
    void checked;
    return this;
  }

  setDisabled(disabled: boolean): this {
    this.disabled = disabled;
    return this;
  }

  setWarning(isWarning: boolean): this {
    void isWarning;
    return this;
  }

  setIsLabel(isLabel: boolean): this {
    void isLabel;
    return this;
  }

  setSection(section: string): this {
    void section;
    return this;
  }

  onClick(callback: (evt: MouseEvent | KeyboardEvent) => unknown): this {
    this.callback = callback;
    return this;
  }

  /** Draws the item into its menu; `hideMenu` runs before the item's callback, as in Obsidian (double only). */
  draw(menu: HTMLElement, hideMenu: () => void): void {
    const element = menu.createDiv({ cls: "menu-item", attr: { role: "menuitem", tabindex: "-1", "aria-disabled": String(this.disabled) } });
    const icon = element.createDiv("menu-item-icon");
    if (this.icon) icon.appendChild(drawIcon(menu.ownerDocument, this.icon));
    element.createDiv({ cls: "menu-item-title", text: this.title });
    const run = (event: MouseEvent | KeyboardEvent) => {
      if (this.disabled) return;
      hideMenu();
      this.callback?.(event);
    };
    element.addEventListener("click", run);
    element.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") run(event);
    });
  }
}

export type MenuAcceptsObsidianArguments = [
  Expect<AcceptsObsidianArguments<Obsidian.Menu, Menu, "setNoIcon" | "addItem" | "addSeparator" | "showAtMouseEvent" | "showAtPosition" | "hide">>,
  Expect<AcceptsObsidianArguments<Obsidian.MenuItem, MenuItem, "setTitle" | "setIcon" | "setChecked" | "setDisabled" | "setWarning" | "setIsLabel" | "onClick" | "setSection">>,
];
