import { DEMO_HEADER, PROXY_PATH } from "./nodeHttpShim";

/** True when `target` is the base URL or below it (as the demo server's proxy checks it). */
function isUnderBase(target: URL, base: URL): boolean {
  if (target.protocol !== base.protocol || target.host !== base.host) return false;
  const basePath = base.pathname.replace(/\/+$/, "");
  return target.pathname === basePath || target.pathname.startsWith(`${basePath}/`);
}

const NO_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * Obsidian's `requestUrl` has no CORS limits; the double's runs on the page's fetch, which has.
 * This routes the page's fetches to the model server through the demo's proxy, so requestUrl
 * reaches it as it would in Obsidian (what the plugin uses on mobile, where there is no Node http).
 * Other targets are left to the browser.
 */
export function routeModelRequestsThroughProxy(baseUrl: string): void {
  const base = new URL(baseUrl);
  const browserFetch = window.fetch.bind(window);
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const target = new URL(input instanceof Request ? input.url : String(input), window.location.href);
    if (target.origin === window.location.origin || !isUnderBase(target, base)) return browserFetch(input, init);
    const headers = new Headers(input instanceof Request ? input.headers : undefined);
    new Headers(init?.headers).forEach((value, name) => headers.set(name, value));
    for (const [name, value] of Object.entries(DEMO_HEADER)) headers.set(name, value);
    const proxied = await browserFetch(`${PROXY_PATH}?url=${encodeURIComponent(target.href)}`, {
      method: init?.method ?? (input instanceof Request ? input.method : "GET"),
      headers,
      body: init?.body,
      signal: init?.signal,
    });
    if (proxied.headers.get("x-vault-copilot-demo-network-error")) throw new TypeError("Failed to fetch");
    const status = Number(proxied.headers.get("x-vault-copilot-demo-status") ?? proxied.status);
    const statusText = decodeURIComponent(proxied.headers.get("x-vault-copilot-demo-status-text") ?? proxied.statusText);
    return new Response(NO_BODY_STATUSES.has(status) ? null : proxied.body, { status, statusText, headers: proxied.headers });
  };
}
