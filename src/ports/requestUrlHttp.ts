import { requestUrl } from "obsidian";
import type { HttpPort, HttpRequest, HttpResponse } from "./HttpPort";
import { abortReason } from "./timers";

/**
 * The HttpPort inside Obsidian: `requestUrl` has no CORS limits and works on mobile, where a
 * page's fetch to most APIs would be refused. It never throws for an HTTP error status (the
 * caller reads `status`). `requestUrl` cannot be cancelled, so an abort settles the call at once
 * and the late response is dropped.
 */
export const requestUrlHttp: HttpPort = {
  request({ url, method = "GET", headers, body, signal }: HttpRequest): Promise<HttpResponse> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const response = requestUrl({ url, method, headers, body, throw: false }).then((result) => ({
      status: result.status,
      headers: lowerCaseKeys(result.headers),
      text: result.text,
    }));
    if (!signal) return response;
    return new Promise<HttpResponse>((resolve, reject) => {
      const onAbort = () => reject(abortReason(signal));
      signal.addEventListener("abort", onAbort, { once: true });
      response.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
    });
  },
};

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
