import type * as Obsidian from "obsidian";
import type { App, Plugin } from "./app";
import type { AcceptsObsidianArguments, Expect } from "./events";
import {
  ButtonComponent,
  DropdownComponent,
  TextAreaComponent,
  TextComponent,
  ToggleComponent,
  type BaseComponent,
} from "./components";
import { requireDocument } from "./view";

/**
 * One settings row, built the way Obsidian builds it:
 * `div.setting-item > (div.setting-item-info > .setting-item-name + .setting-item-description) + div.setting-item-control`.
 */
export class Setting {
  readonly settingEl: HTMLElement;
  readonly infoEl: HTMLElement;
  readonly nameEl: HTMLElement;
  readonly descEl: HTMLElement;
  readonly controlEl: HTMLElement;
  readonly components: BaseComponent[] = [];
  errorEl: HTMLElement | null = null;

  constructor(containerEl: HTMLElement) {
    requireDocument("a Setting");
    this.settingEl = containerEl.createDiv("setting-item");
    this.infoEl = this.settingEl.createDiv("setting-item-info");
    this.nameEl = this.infoEl.createDiv("setting-item-name");
    this.descEl = this.infoEl.createDiv("setting-item-description");
    this.controlEl = this.settingEl.createDiv("setting-item-control");
  }

  setName(name: string | DocumentFragment): this {
    this.nameEl.setText(name);
    return this;
  }

  setDesc(desc: string | DocumentFragment): this {
    this.descEl.setText(desc);
    return this;
  }

  setClass(cls: string): this {
    this.settingEl.addClass(cls);
    return this;
  }

  setTooltip(tooltip: string, options?: Obsidian.TooltipOptions): this {
    void options;
    this.nameEl.setAttribute("aria-label", tooltip);
    return this;
  }

  setHeading(): this {
    this.settingEl.addClass("setting-item-heading");
    return this;
  }

  setDisabled(disabled: boolean): this {
    this.settingEl.toggleClass("is-disabled", disabled);
    for (const component of this.components) component.setDisabled(disabled);
    return this;
  }

  setErrorMessage(message: string | null): this {
    this.settingEl.toggleClass("is-invalid", Boolean(message));
    if (message) {
      this.errorEl ??= this.settingEl.createDiv("setting-item-error");
      this.errorEl.setText(message);
    } else {
      this.errorEl?.detach();
      this.errorEl = null;
    }
    return this;
  }

  addText(cb: (component: TextComponent) => unknown): this {
    return this.add(new TextComponent(this.controlEl), cb);
  }

  addTextArea(cb: (component: TextAreaComponent) => unknown): this {
    return this.add(new TextAreaComponent(this.controlEl), cb);
  }

  addToggle(cb: (component: ToggleComponent) => unknown): this {
    return this.add(new ToggleComponent(this.controlEl), cb);
  }

  addDropdown(cb: (component: DropdownComponent) => unknown): this {
    return this.add(new DropdownComponent(this.controlEl), cb);
  }

  addButton(cb: (component: ButtonComponent) => unknown): this {
    return this.add(new ButtonComponent(this.controlEl), cb);
  }

  addComponent<T extends BaseComponent>(cb: (el: HTMLElement) => T): this {
    this.components.push(cb(this.controlEl));
    return this;
  }

  then(cb: (setting: this) => unknown): this {
    cb(this);
    return this;
  }

  private add<T extends BaseComponent>(component: T, cb: (component: T) => unknown): this {
    this.components.push(component);
    cb(component);
    return this;
  }
}

export abstract class SettingTab implements Pick<Obsidian.SettingTab, "icon" | "settingItems" | "getSettingDefinitions" | "update"> {
  icon = "";
  containerEl: HTMLElement;
  settingItems: Obsidian.SettingDefinitionItem[] = [];

  constructor(readonly app: App) {
    this.containerEl = requireDocument("a settings tab").createElement("div");
    this.containerEl.className = "vertical-tab-content";
  }

  getSettingDefinitions(): Obsidian.SettingDefinitionItem[] {
    return [];
  }

  update(): void {
    this.settingItems = this.getSettingDefinitions();
  }

  display(): void {}

  /** Obsidian empties the tab when the user leaves it. */
  hide(): void {
    this.containerEl.empty();
  }
}

export abstract class PluginSettingTab extends SettingTab {
  constructor(
    app: App,
    readonly plugin: Plugin,
  ) {
    super(app);
  }
}

/** A notice, added to `body > .notice-container` as Obsidian does; `message` for tests without a DOM. */
export class Notice implements Pick<Obsidian.Notice, "hide"> {
  message: string;
  readonly duration: number | undefined;
  messageEl?: HTMLElement;

  constructor(message: string | DocumentFragment, duration?: number) {
    this.message = typeof message === "string" ? message : (message.textContent ?? "");
    this.duration = duration;
    if (typeof document === "undefined") return;
    const container = document.body.querySelector<HTMLElement>(".notice-container") ?? document.body.createDiv("notice-container");
    this.messageEl = container.createDiv("notice");
    this.messageEl.setText(message);
  }

  setMessage(message: string | DocumentFragment): this {
    this.message = typeof message === "string" ? message : (message.textContent ?? "");
    this.messageEl?.setText(message);
    return this;
  }

  hide(): void {
    this.messageEl?.detach();
  }
}

let modalsMade = 0;

export class Modal implements Pick<Obsidian.Modal, "shouldRestoreSelection" | "open" | "close" | "onOpen" | "onClose"> {
  readonly containerEl: HTMLElement;
  readonly modalEl: HTMLElement;
  readonly titleEl: HTMLElement;
  readonly contentEl: HTMLElement;
  shouldRestoreSelection = false;
  private closeCallback?: () => unknown;
  private isOpen = false;

  /**
   * As Obsidian builds it: `.modal-container > .modal-bg + .modal > .modal-close-button +
   * .modal-title + .modal-content`. The dimmed background, the close button ("Close") and Escape
   * close it, as in Obsidian.
   */
  constructor(readonly app: App) {
    this.containerEl = requireDocument("a Modal").createElement("div");
    this.containerEl.className = "modal-container mod-dim";
    this.containerEl.createDiv("modal-bg").addEventListener("click", () => this.close());
    this.modalEl = this.containerEl.createDiv("modal");
    this.modalEl.setAttribute("role", "dialog");
    const close = this.modalEl.createDiv({ cls: "modal-close-button", attr: { role: "button", "aria-label": "Close", tabindex: "0" } });
    close.addEventListener("click", () => this.close());
    this.titleEl = this.modalEl.createDiv("modal-title");
    // The dialog is named by its title, whenever the title is set.
    this.titleEl.id = `modal-title-${++modalsMade}`;
    this.modalEl.setAttribute("aria-labelledby", this.titleEl.id);
    this.contentEl = this.modalEl.createDiv("modal-content");
    this.containerEl.addEventListener("keydown", (event) => {
      if (event.key === "Escape") this.close();
    });
  }

  open(): void {
    if (this.isOpen) return;
    this.isOpen = true;
    document.body.appendChild(this.containerEl);
    void this.onOpen();
  }

  close(): void {
    if (!this.isOpen) return;
    this.isOpen = false;
    this.onClose();
    this.containerEl.detach();
    this.closeCallback?.();
  }

  onOpen(): Promise<void> | void {}

  onClose(): void {}

  setTitle(title: string): this {
    this.titleEl.setText(title);
    return this;
  }

  setContent(content: string | DocumentFragment): this {
    this.contentEl.setText(content);
    return this;
  }

  setCloseCallback(callback: () => unknown): this {
    this.closeCallback = callback;
    return this;
  }
}

export type SettingsAcceptObsidianArguments = [
  Expect<AcceptsObsidianArguments<
    Obsidian.Setting,
    Setting,
    | "setName"
    | "setDesc"
    | "setClass"
    | "setTooltip"
    | "setHeading"
    | "setDisabled"
    | "setErrorMessage"
  >>,
  Expect<AcceptsObsidianArguments<Obsidian.Notice, Notice, "setMessage">>,
  Expect<AcceptsObsidianArguments<Obsidian.Modal, Modal, "setTitle" | "setContent" | "setCloseCallback">>,
];
