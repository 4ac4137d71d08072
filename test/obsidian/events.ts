import type * as Obsidian from "obsidian";

type Listener = (...data: unknown[]) => unknown;

/** What `on` hands back; `offref` takes it to unsubscribe. */
export interface EventRef extends Obsidian.EventRef {
  readonly events: Events;
  readonly name: string;
  readonly callback: Listener;
  readonly context: unknown;
}

/** Obsidian's event emitter: listeners run in subscription order, synchronously. */
export class Events implements Obsidian.Events {
  private readonly listeners = new Map<string, EventRef[]>();

  on(name: string, callback: Listener, ctx?: unknown): EventRef {
    const ref: EventRef = { events: this, name, callback, context: ctx };
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), ref]);
    return ref;
  }

  off(name: string, callback: Listener): void {
    this.listeners.set(name, (this.listeners.get(name) ?? []).filter((ref) => ref.callback !== callback));
  }

  offref(ref: Obsidian.EventRef): void {
    const { name } = ref as EventRef;
    this.listeners.set(name, (this.listeners.get(name) ?? []).filter((candidate) => candidate !== ref));
  }

  trigger(name: string, ...data: unknown[]): void {
    for (const ref of this.listeners.get(name) ?? []) this.tryTrigger(ref, data);
  }

  tryTrigger(evt: Obsidian.EventRef, args: unknown[]): void {
    const ref = evt as EventRef;
    // Obsidian logs a listener's error and goes on with the next one; a test should see it fail.
    ref.callback.apply(ref.context, args);
  }

  /** How many listeners `name` has (double only: tests check that unsubscribing worked). */
  listenerCount(name: string): number {
    return this.listeners.get(name)?.length ?? 0;
  }
}

/**
 * Obsidian's Component: children, and cleanups (`register*`) that run when it unloads.
 * `registerDomEvent` and `registerInterval` need a DOM realm only when they are called.
 */
export class Component
  implements Pick<Obsidian.Component, "load" | "unload" | "onunload" | "register" | "registerEvent" | "registerInterval">
{
  protected loaded = false;
  private readonly children: Component[] = [];
  private cleanups: (() => unknown)[] = [];

  load(): void {
    if (this.loaded) return;
    this.loaded = true;
    // Obsidian does not wait for an async onload here either (Plugin.enable does, for tests).
    void this.onload();
    for (const child of this.children) child.load();
  }

  onload(): Promise<void> | void {}

  unload(): void {
    if (!this.loaded) return;
    this.loaded = false;
    for (const child of this.children.splice(0)) child.unload();
    for (const cleanup of this.cleanups.splice(0).reverse()) cleanup();
    this.onunload();
  }

  onunload(): void {}

  /** True between `load()` and `unload()` (double only). */
  get isLoaded(): boolean {
    return this.loaded;
  }

  addChild<T extends Component>(component: T): T {
    this.children.push(component);
    if (this.loaded) component.load();
    return component;
  }

  removeChild<T extends Component>(component: T): T {
    const index = this.children.indexOf(component);
    if (index !== -1) {
      this.children.splice(index, 1);
      component.unload();
    }
    return component;
  }

  register(cb: () => unknown): void {
    this.cleanups.push(cb);
  }

  registerEvent(eventRef: Obsidian.EventRef): void {
    this.register(() => (eventRef as EventRef).events.offref(eventRef));
  }

  registerDomEvent(
    el: Window | Document | HTMLElement,
    type: string,
    callback: (this: HTMLElement, event: Event) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void {
    const listener = callback;
    el.addEventListener(type, listener, options);
    this.register(() => el.removeEventListener(type, listener, options));
  }

  registerInterval(id: number): number {
    this.register(() => window.clearInterval(id));
    return id;
  }
}

/** Compiles only when `Actual` can stand where Obsidian's `Expected` is used. */
export type Fits<Expected, Actual extends Expected> = Actual;

/** Compiles only when `Condition` is `true`. */
export type Expect<Condition extends true> = Condition;

/**
 * `true` when each method `K` of the double accepts the arguments Obsidian's accepts (for fluent
 * methods returning `this`, which `implements Pick<...>` cannot check); use it inside `Expect`.
 */
export type AcceptsObsidianArguments<Real, Double, K extends keyof Real & keyof Double> = {
  [P in K]: Real[P] extends (...args: infer RealArguments) => unknown
    ? Double[P] extends (...args: infer DoubleArguments) => unknown
      ? [RealArguments] extends [DoubleArguments]
        ? true
        : false
      : false
    : false;
}[K];

// registerDomEvent's three overloads, checked against the double's one signature.
export type RegisterDomEventFits = Fits<Obsidian.Component["registerDomEvent"], Component["registerDomEvent"]>;
