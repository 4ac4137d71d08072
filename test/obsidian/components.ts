import type * as Obsidian from "obsidian";
import type { App } from "./app";
import type { AcceptsObsidianArguments, Expect, Fits } from "./events";
import { drawIcon } from "./icons";
import { requireDocument } from "./view";

/** The element helpers are installed when the double loads in a DOM; these build on them. */
function element<K extends keyof HTMLElementTagNameMap>(parent: HTMLElement, tag: K, cls?: string): HTMLElementTagNameMap[K] {
  requireDocument("a settings control");
  return parent.createEl(tag, cls ? { cls } : undefined);
}

/** As Obsidian's: the icon's SVG replaces what the element held (`data-icon` names it, double only). */
export function setIcon(parent: HTMLElement, iconId: string): void {
  parent.setAttribute("data-icon", iconId);
  parent.replaceChildren(drawIcon(parent.ownerDocument, iconId));
}

/**
 * As Obsidian's: the element is labelled with the tooltip, which Obsidian shows on hover. The
 * double shows it as the browser's own tooltip (`title`), so a person trying the demo sees it too.
 */
export function setTooltip(el: HTMLElement, tooltip: string, options?: Obsidian.TooltipOptions): void {
  el.setAttribute("aria-label", tooltip);
  if (options?.placement) el.setAttribute("data-tooltip-position", options.placement);
  el.setAttribute("title", tooltip);
}

export abstract class BaseComponent implements Obsidian.BaseComponent {
  disabled = false;

  then(cb: (component: this) => unknown): this {
    cb(this);
    return this;
  }

  setDisabled(disabled: boolean): this {
    this.disabled = disabled;
    return this;
  }
}

export abstract class ValueComponent<T> extends BaseComponent {
  abstract getValue(): T;
  abstract setValue(value: T): this;
}

/** Text fields call back on every `input` event, as Obsidian's do. */
abstract class AbstractTextComponent<E extends HTMLInputElement | HTMLTextAreaElement> extends ValueComponent<string> {
  private changeCallback?: (value: string) => unknown;

  constructor(readonly inputEl: E) {
    super();
    inputEl.addEventListener("input", () => this.onChanged());
  }

  override setDisabled(disabled: boolean): this {
    this.inputEl.disabled = disabled;
    return super.setDisabled(disabled);
  }

  getValue(): string {
    return this.inputEl.value;
  }

  setValue(value: string): this {
    this.inputEl.value = value;
    return this;
  }

  setPlaceholder(placeholder: string): this {
    this.inputEl.placeholder = placeholder;
    return this;
  }

  onChanged(): void {
    this.changeCallback?.(this.getValue());
  }

  onChange(callback: (value: string) => unknown): this {
    this.changeCallback = callback;
    return this;
  }
}

export class TextComponent extends AbstractTextComponent<HTMLInputElement> {
  constructor(containerEl: HTMLElement) {
    const input = element(containerEl, "input");
    input.type = "text";
    input.spellcheck = false;
    super(input);
  }
}

export class TextAreaComponent extends AbstractTextComponent<HTMLTextAreaElement> {
  constructor(containerEl: HTMLElement) {
    super(element(containerEl, "textarea"));
  }
}

/** Obsidian's toggle: a `div.checkbox-container` that flips on click, with a checkbox inside. */
export class ToggleComponent extends ValueComponent<boolean> {
  readonly toggleEl: HTMLElement;
  private readonly checkboxEl: HTMLInputElement;
  private on = false;
  private changeCallback?: (value: boolean) => unknown;

  constructor(containerEl: HTMLElement) {
    super();
    this.toggleEl = element(containerEl, "div", "checkbox-container");
    this.checkboxEl = element(this.toggleEl, "input");
    this.checkboxEl.type = "checkbox";
    this.toggleEl.addEventListener("click", () => this.onClick());
  }

  override setDisabled(disabled: boolean): this {
    this.toggleEl.toggleClass("is-disabled", disabled);
    this.checkboxEl.disabled = disabled;
    return super.setDisabled(disabled);
  }

  getValue(): boolean {
    return this.on;
  }

  setValue(on: boolean): this {
    this.on = on;
    this.toggleEl.toggleClass("is-enabled", on);
    this.checkboxEl.checked = on;
    return this;
  }

  setTooltip(tooltip: string, options?: Obsidian.TooltipOptions): this {
    void options;
    this.toggleEl.setAttribute("aria-label", tooltip);
    return this;
  }

  onClick(): void {
    if (this.disabled) return;
    this.setValue(!this.on);
    this.changeCallback?.(this.on);
  }

  onChange(callback: (value: boolean) => unknown): this {
    this.changeCallback = callback;
    return this;
  }
}

export class DropdownComponent extends ValueComponent<string> {
  readonly selectEl: HTMLSelectElement;

  constructor(containerEl: HTMLElement) {
    super();
    this.selectEl = element(containerEl, "select", "dropdown");
  }

  override setDisabled(disabled: boolean): this {
    this.selectEl.disabled = disabled;
    return super.setDisabled(disabled);
  }

  addOption(value: string, display: string): this {
    this.selectEl.createEl("option", { value, text: display });
    return this;
  }

  addOptions(options: Record<string, string>): this {
    for (const [value, display] of Object.entries(options)) this.addOption(value, display);
    return this;
  }

  getValue(): string {
    return this.selectEl.value;
  }

  setValue(value: string): this {
    this.selectEl.value = value;
    return this;
  }

  onChange(callback: (value: string) => unknown): this {
    this.selectEl.addEventListener("change", () => void callback(this.getValue()));
    return this;
  }
}

export class ButtonComponent extends BaseComponent {
  readonly buttonEl: HTMLButtonElement;

  constructor(containerEl: HTMLElement) {
    super();
    this.buttonEl = element(containerEl, "button");
  }

  override setDisabled(disabled: boolean): this {
    this.buttonEl.disabled = disabled;
    return super.setDisabled(disabled);
  }

  setCta(): this {
    this.buttonEl.addClass("mod-cta");
    return this;
  }

  removeCta(): this {
    this.buttonEl.removeClass("mod-cta");
    return this;
  }

  setWarning(): this {
    this.buttonEl.addClass("mod-warning");
    return this;
  }

  setButtonText(name: string): this {
    this.buttonEl.setText(name);
    return this;
  }

  setIcon(icon: string): this {
    setIcon(this.buttonEl, icon);
    return this;
  }

  setClass(cls: string): this {
    this.buttonEl.addClass(cls);
    return this;
  }

  setTooltip(tooltip: string, options?: Obsidian.TooltipOptions): this {
    void options;
    this.buttonEl.setAttribute("aria-label", tooltip);
    return this;
  }

  onClick(callback: (evt: MouseEvent) => unknown): this {
    this.buttonEl.addEventListener("click", (event) => void callback(event));
    return this;
  }
}

/**
 * Obsidian's secret picker (1.11.4+): its value is the *id* of an entry in SecretStorage, never
 * the secret. Obsidian draws a picker with a "create" flow; the double draws a text field where
 * a test types the id, and shows the value only through `getValue()`.
 */
export class SecretComponent extends BaseComponent {
  readonly inputEl: HTMLInputElement;
  private changeCallback?: (value: string) => unknown;

  constructor(
    readonly app: App,
    containerEl: HTMLElement,
  ) {
    super();
    this.inputEl = element(containerEl, "input", "secret-component");
    this.inputEl.type = "text";
    this.inputEl.addEventListener("change", () => void this.changeCallback?.(this.inputEl.value));
  }

  override setDisabled(disabled: boolean): this {
    this.inputEl.disabled = disabled;
    return super.setDisabled(disabled);
  }

  getValue(): string {
    return this.inputEl.value;
  }

  setValue(value: string): this {
    this.inputEl.value = value;
    return this;
  }

  onChange(cb: (value: string) => unknown): this {
    this.changeCallback = cb;
    return this;
  }
}

export type ComponentsAcceptObsidianArguments = [
  Expect<AcceptsObsidianArguments<Obsidian.TextComponent, TextComponent, "getValue" | "setValue" | "setPlaceholder" | "setDisabled" | "onChange">>,
  Expect<AcceptsObsidianArguments<Obsidian.TextAreaComponent, TextAreaComponent, "getValue" | "setValue" | "setPlaceholder" | "onChange">>,
  Expect<AcceptsObsidianArguments<Obsidian.ToggleComponent, ToggleComponent, "getValue" | "setValue" | "setDisabled" | "setTooltip" | "onChange" | "onClick">>,
  Expect<AcceptsObsidianArguments<Obsidian.DropdownComponent, DropdownComponent, "addOption" | "addOptions" | "getValue" | "setValue" | "onChange">>,
  Expect<AcceptsObsidianArguments<
    Obsidian.ButtonComponent,
    ButtonComponent,
    "setCta" | "removeCta" | "setWarning" | "setButtonText" | "setIcon" | "setClass" | "setTooltip" | "onClick"
  >>,
  Expect<AcceptsObsidianArguments<Obsidian.SecretComponent, SecretComponent, "setValue" | "onChange" | "setDisabled">>,
];
export type SetIconFits = Fits<typeof Obsidian.setIcon, typeof setIcon>;
export type SetTooltipFits = Fits<typeof Obsidian.setTooltip, typeof setTooltip>;
