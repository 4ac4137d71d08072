/**
 * The helpers Obsidian adds to DOM nodes (`createEl`, `createDiv`, `empty`, `setText`, ...), as
 * declared in obsidian.d.ts's `declare global`. Installed on a window's prototypes only when the
 * double is loaded where a DOM exists (jsdom tests, the bundle test's web realm, the e2e page).
 */

type Attributes = Record<string, string | number | boolean | null>;

function applyElementInfo(element: HTMLElement | SVGElement, info: DomElementInfo | SvgElementInfo | string | undefined): void {
  const options: DomElementInfo = typeof info === "string" ? { cls: info } : (info ?? {});
  if (options.cls !== undefined) {
    const classes = Array.isArray(options.cls) ? options.cls : options.cls.split(" ");
    element.classList.add(...classes.filter((name) => name.length > 0));
  }
  if (options.text !== undefined) setText.call(element, options.text);
  if (options.attr) setAttrs.call(element, options.attr);
  if (options.title !== undefined) element.setAttribute("title", options.title);
  if (options.value !== undefined && "value" in element) (element as HTMLInputElement).value = options.value;
  if (options.type !== undefined) element.setAttribute("type", options.type);
  if (options.placeholder !== undefined) element.setAttribute("placeholder", options.placeholder);
  if (options.href !== undefined) element.setAttribute("href", options.href);
  if (options.parent) {
    if (options.prepend) options.parent.insertBefore(element, options.parent.firstChild);
    else options.parent.appendChild(element);
  }
}

function documentOf(node: Node): Document {
  return node.ownerDocument ?? (node as Document);
}

function createElIn<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  parent: Node | undefined,
  tag: K,
  info?: DomElementInfo | string,
  callback?: (element: HTMLElementTagNameMap[K]) => void,
): HTMLElementTagNameMap[K] {
  const element = doc.createElement(tag);
  const options: DomElementInfo = typeof info === "string" ? { cls: info } : { ...(info ?? {}) };
  if (parent && !options.parent) options.parent = parent;
  applyElementInfo(element, options);
  callback?.(element);
  return element;
}

function createEl<K extends keyof HTMLElementTagNameMap>(
  this: Node,
  tag: K,
  info?: DomElementInfo | string,
  callback?: (element: HTMLElementTagNameMap[K]) => void,
): HTMLElementTagNameMap[K] {
  return createElIn(documentOf(this), this, tag, info, callback);
}

function createDiv(this: Node, info?: DomElementInfo | string, callback?: (element: HTMLDivElement) => void): HTMLDivElement {
  return createElIn(documentOf(this), this, "div", info, callback);
}

function createSpan(this: Node, info?: DomElementInfo | string, callback?: (element: HTMLSpanElement) => void): HTMLSpanElement {
  return createElIn(documentOf(this), this, "span", info, callback);
}

function createSvg<K extends keyof SVGElementTagNameMap>(
  this: Node,
  tag: K,
  info?: SvgElementInfo | string,
  callback?: (element: SVGElementTagNameMap[K]) => void,
): SVGElementTagNameMap[K] {
  const element = documentOf(this).createElementNS("http://www.w3.org/2000/svg", tag);
  const options: SvgElementInfo = typeof info === "string" ? { cls: info } : { ...(info ?? {}) };
  options.parent ??= this;
  applyElementInfo(element, options);
  callback?.(element);
  return element;
}

function empty(this: Node): void {
  while (this.firstChild) this.removeChild(this.firstChild);
}

function detach(this: Node): void {
  this.parentNode?.removeChild(this);
}

function appendText(this: Node, value: string): void {
  this.appendChild(documentOf(this).createTextNode(value));
}

function setText(this: Element, value: string | DocumentFragment): void {
  if (typeof value === "string") this.textContent = value;
  else {
    empty.call(this);
    this.appendChild(value);
  }
}

function getText(this: Element): string {
  return this.textContent ?? "";
}

function addClass(this: Element, ...classes: string[]): void {
  this.classList.add(...classes);
}

function removeClass(this: Element, ...classes: string[]): void {
  this.classList.remove(...classes);
}

function toggleClass(this: Element, classes: string | string[], value: boolean): void {
  for (const name of Array.isArray(classes) ? classes : [classes]) this.classList.toggle(name, value);
}

function hasClass(this: Element, name: string): boolean {
  return this.classList.contains(name);
}

function setAttr(this: Element, name: string, value: string | number | boolean | null): void {
  if (value === null) this.removeAttribute(name);
  else this.setAttribute(name, String(value));
}

function setAttrs(this: Element, attributes: Attributes): void {
  for (const [name, value] of Object.entries(attributes)) setAttr.call(this, name, value);
}

function getAttr(this: Element, name: string): string | null {
  return this.getAttribute(name);
}

function find(this: Element, selector: string): HTMLElement {
  return this.querySelector<HTMLElement>(selector) as HTMLElement;
}

function findAll(this: Element, selector: string): HTMLElement[] {
  return [...this.querySelectorAll<HTMLElement>(selector)];
}

function show(this: HTMLElement): void {
  this.style.removeProperty("display");
}

function hide(this: HTMLElement): void {
  setCssProps.call(this, { display: "none" });
}

function toggle(this: HTMLElement, visible: boolean): void {
  if (visible) show.call(this);
  else hide.call(this);
}

function isShown(this: HTMLElement): boolean {
  return this.style.display !== "none";
}

function setCssProps(this: HTMLElement, properties: Record<string, string>): void {
  for (const [name, value] of Object.entries(properties)) this.style.setProperty(name, value);
}

function setCssStyles(this: HTMLElement, styles: Partial<CSSStyleDeclaration>): void {
  for (const [name, value] of Object.entries(styles)) {
    if (typeof value === "string") this.style.setProperty(name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), value);
  }
}

function onClickEvent(this: HTMLElement, listener: (this: HTMLElement, event: MouseEvent) => unknown, options?: boolean | AddEventListenerOptions): void {
  this.addEventListener("click", listener, options);
}

function trigger(this: HTMLElement, eventType: string): void {
  this.dispatchEvent(new (documentOf(this).defaultView ?? window).Event(eventType));
}

// Each helper is checked against the signature obsidian.d.ts gives it.
const nodeHelpers = {
  createEl: createEl satisfies Node["createEl"],
  createDiv: createDiv satisfies Node["createDiv"],
  createSpan: createSpan satisfies Node["createSpan"],
  createSvg: createSvg satisfies Node["createSvg"],
  empty: empty satisfies Node["empty"],
  detach: detach satisfies Node["detach"],
  appendText: appendText satisfies Node["appendText"],
};
const elementHelpers = {
  setText: setText satisfies Element["setText"],
  getText: getText satisfies Element["getText"],
  addClass: addClass satisfies Element["addClass"],
  removeClass: removeClass satisfies Element["removeClass"],
  toggleClass: toggleClass satisfies Element["toggleClass"],
  hasClass: hasClass satisfies Element["hasClass"],
  setAttr: setAttr satisfies Element["setAttr"],
  setAttrs: setAttrs satisfies Element["setAttrs"],
  getAttr: getAttr satisfies Element["getAttr"],
  find: find satisfies HTMLElement["find"],
  findAll: findAll satisfies HTMLElement["findAll"],
};
const htmlElementHelpers = {
  show: show satisfies HTMLElement["show"],
  hide: hide satisfies HTMLElement["hide"],
  toggle: toggle satisfies HTMLElement["toggle"],
  isShown: isShown satisfies HTMLElement["isShown"],
  setCssProps: setCssProps satisfies HTMLElement["setCssProps"],
  setCssStyles: setCssStyles satisfies HTMLElement["setCssStyles"],
  onClickEvent: onClickEvent satisfies HTMLElement["onClickEvent"],
  trigger: trigger satisfies HTMLElement["trigger"],
};

function define(target: object, helpers: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(helpers)) {
    Object.defineProperty(target, name, { value, configurable: true, writable: true });
  }
}

interface DomRealm {
  document: Document;
  Node: typeof Node;
  Element: typeof Element;
  HTMLElement: typeof HTMLElement;
  DocumentFragment: typeof DocumentFragment;
}

/** Adds Obsidian's DOM helpers to one realm's prototypes and globals (idempotent). */
export function installDomHelpers(realm: DomRealm & Record<string, unknown>): void {
  define(realm.Node.prototype, nodeHelpers);
  define(realm.Element.prototype, elementHelpers);
  define(realm.HTMLElement.prototype, htmlElementHelpers);
  define(realm.DocumentFragment.prototype, { find: elementHelpers.find, findAll: elementHelpers.findAll });
  const doc = realm.document;
  define(realm, {
    createEl: <K extends keyof HTMLElementTagNameMap>(tag: K, info?: DomElementInfo | string, callback?: (el: HTMLElementTagNameMap[K]) => void) =>
      createElIn(doc, undefined, tag, info, callback),
    createDiv: (info?: DomElementInfo | string, callback?: (el: HTMLDivElement) => void) => createElIn(doc, undefined, "div", info, callback),
    createSpan: (info?: DomElementInfo | string, callback?: (el: HTMLSpanElement) => void) => createElIn(doc, undefined, "span", info, callback),
    createFragment: (callback?: (fragment: DocumentFragment) => void) => {
      const fragment = doc.createDocumentFragment();
      callback?.(fragment);
      return fragment;
    },
    activeDocument: doc,
    activeWindow: realm,
  });
}
