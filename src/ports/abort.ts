import { abortReason } from "./timers";

/** Waits for `work`, or rejects with the signal's reason as soon as it is aborted (the work goes on). */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * A signal aborted when any of `signals` is. Where the platform has `AbortSignal.any` (Electron,
 * Node, current mobile WebViews) it is used: it holds the sources' link weakly, so a signal that
 * lives as long as the plugin (the index's) gains nothing per call. Older WebViews get listeners,
 * taken off every source once the combined signal aborts.
 */
export function anySignal(signals: readonly AbortSignal[]): AbortSignal {
  if (typeof AbortSignal.any === "function") return AbortSignal.any([...signals]);
  return listeningAnySignal(signals);
}

/** `anySignal` by listeners, for platforms without `AbortSignal.any`. */
export function listeningAnySignal(signals: readonly AbortSignal[]): AbortSignal {
  const controller = new AbortController();
  const already = signals.find((signal) => signal.aborted);
  if (already) {
    controller.abort(already.reason);
    return controller.signal;
  }
  const listeners = signals.map((signal) => {
    const listener = () => {
      for (const [source, added] of listeners) source.removeEventListener("abort", added);
      controller.abort(signal.reason);
    };
    return [signal, listener] as const;
  });
  for (const [signal, listener] of listeners) signal.addEventListener("abort", listener, { once: true });
  return controller.signal;
}
