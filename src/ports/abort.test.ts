import { getEventListeners } from "node:events";
import { anySignal, listeningAnySignal } from "./abort";

describe("anySignal", () => {
  it.each([
    ["the platform's AbortSignal.any", anySignal],
    ["listeners (older WebViews)", listeningAnySignal],
  ])("by %s: aborts with the first source's reason, at once for a source already aborted", (_how, combine) => {
    const first = new AbortController();
    const second = new AbortController();
    const combined = combine([first.signal, second.signal]);
    expect(combined.aborted).toBe(false);
    second.abort(new Error("a key was typed"));
    expect(combined.aborted).toBe(true);
    expect((combined.reason as Error).message).toBe("a key was typed");
    const late = combine([new AbortController().signal, second.signal]);
    expect(late.aborted).toBe(true);
  });

  it("leaves no listener on a source that lives on: a thousand searches under the index's lifetime add nothing to it", () => {
    const lifetime = new AbortController();
    for (let search = 0; search < 1_000; search++) anySignal([new AbortController().signal, lifetime.signal]);
    expect(getEventListeners(lifetime.signal, "abort")).toHaveLength(0);
  });

  it("by listeners, takes them off every source once it aborts", () => {
    const lifetime = new AbortController();
    const request = new AbortController();
    listeningAnySignal([request.signal, lifetime.signal]);
    expect(getEventListeners(lifetime.signal, "abort")).toHaveLength(1);
    request.abort();
    expect(getEventListeners(lifetime.signal, "abort")).toHaveLength(0);
  });
});
