import { abortReason } from "../ports/timers";
import { bodyText, fetchInputUrl, headersRecord, type FetchLike } from "../ports/FetchLike";

/** The shape of Obsidian's `requestUrl` that this fetch uses. */
export type RequestUrlLike = (request: {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  throw?: boolean;
}) => Promise<{ status: number; headers: Record<string, string>; arrayBuffer: ArrayBuffer }>;

/**
 * A `fetch` over Obsidian's `requestUrl`, for mobile, where there is no Node: no CORS limits, but
 * the whole response arrives at once, so a streamed answer appears in one piece at its end.
 * `requestUrl` cannot be cancelled; an abort settles the call at once and drops the late response.
 */
export function createRequestUrlFetch(requestUrl: RequestUrlLike): FetchLike {
  return async (input, init = {}) => {
    const signal = init.signal ?? undefined;
    if (signal?.aborted) throw abortReason(signal);
    const headers = headersRecord(init.headers);
    // requestUrl sets the length itself.
    delete headers["content-length"];
    const request = requestUrl({
      url: fetchInputUrl(input),
      method: (init.method ?? "GET").toUpperCase(),
      headers,
      body: await bodyText(init.body),
      throw: false,
    });
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(abortReason(signal));
      // The signal may have fired while the body was read.
      if (signal?.aborted) onAbort();
      else signal?.addEventListener("abort", onAbort, { once: true });
    });
    try {
      const response = await Promise.race([request, aborted]);
      return new Response(response.status === 204 || response.status === 304 ? null : response.arrayBuffer, {
        status: response.status,
        headers: response.headers,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new TypeError("fetch failed", { cause: error });
    } finally {
      if (onAbort) signal?.removeEventListener("abort", onAbort);
      // The race may leave the request settling later; its outcome is no longer anyone's.
      request.catch(() => undefined);
    }
  };
}
