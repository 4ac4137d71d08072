import type { HttpPort } from "../ports/HttpPort";

/** An HttpPort on the global `fetch` (Node 18+, browsers). Never throws for HTTP error statuses. */
export const fetchHttp: HttpPort = {
  async request({ url, method = "GET", headers, body, signal }) {
    const response = await fetch(url, { method, headers, body, signal });
    const responseHeaders: Record<string, string> = {};
    response.headers.forEach((value, key) => {
      responseHeaders[key.toLowerCase()] = value;
    });
    return { status: response.status, headers: responseHeaders, text: await response.text() };
  },
};
