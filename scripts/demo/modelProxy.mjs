// The demo's model proxy: the page's Node `http` shim (test/demo/nodeHttpShim.ts) sends each
// model request here as `/proxy?url=TARGET`; it is forwarded to TARGET only when TARGET lies under
// --base-url, with the API key added here (so the key never reaches the page), and the answer is
// streamed back piece by piece. When the page aborts, the upstream connection is cut.
import http from "node:http";
import https from "node:https";

// Headers that belong to one connection, or to the page, never to the model server.
const REQUEST_HEADERS_DROPPED = new Set([
  "host", "connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-authorization", "te", "trailer",
  "origin", "referer", "cookie", "content-length", "accept-encoding",
]);
const RESPONSE_HEADERS_DROPPED = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "trailer", "content-length", "set-cookie"]);

/** True when `target` is the base URL or below it (same scheme, host and port; path under the base path). */
export function isUnderBase(target, base) {
  if (target.protocol !== base.protocol || target.host !== base.host) return false;
  const basePath = base.pathname.replace(/\/+$/, "");
  return target.pathname === basePath || target.pathname.startsWith(`${basePath}/`);
}

function sendError(response, status, message, code = null, extraHeaders = {}) {
  response.writeHead(status, { "Content-Type": "application/json; charset=utf-8", ...extraHeaders });
  response.end(JSON.stringify({ error: { message, type: "demo_proxy_error", param: null, code } }));
}

/** Handles one `/proxy?url=…` request. `apiKey` is the key to send, or undefined. */
export function proxyModelRequest(request, response, { baseUrl, apiKey }) {
  let target;
  try {
    target = new URL(new URL(request.url, "http://demo.invalid").searchParams.get("url") ?? "");
  } catch {
    sendError(response, 400, "The demo proxy needs ?url=<absolute URL under --base-url>");
    return;
  }
  if (!isUnderBase(target, baseUrl)) {
    sendError(response, 403, `The demo proxy forwards only to the --base-url ${baseUrl.href}, not to ${target.href}`, "proxy_target_refused");
    return;
  }
  const headers = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (!REQUEST_HEADERS_DROPPED.has(name) && !name.startsWith("sec-") && !name.startsWith("x-vault-copilot-demo")) headers[name] = value;
  }
  headers["accept-encoding"] = "identity"; // pieces must pass through as they come, not compressed
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;

  const transport = target.protocol === "https:" ? https : http;
  const upstream = transport.request(target, { method: request.method, headers }, (upstreamResponse) => {
    const responseHeaders = {};
    for (const [name, value] of Object.entries(upstreamResponse.headers)) {
      if (!RESPONSE_HEADERS_DROPPED.has(name) && value !== undefined) responseHeaders[name] = value;
    }
    response.writeHead(200, {
      ...responseHeaders,
      "x-vault-copilot-demo-status": String(upstreamResponse.statusCode ?? 502),
      "x-vault-copilot-demo-status-text": encodeURIComponent(upstreamResponse.statusMessage ?? ""),
    });
    response.flushHeaders();
    upstreamResponse.on("data", (chunk) => response.write(chunk));
    upstreamResponse.on("end", () => response.end());
    // The model server cut the answer off: cut the page's connection too, so it sees the same.
    upstreamResponse.on("close", () => {
      if (!upstreamResponse.complete) response.destroy();
    });
  });
  upstream.on("error", (error) => {
    if (response.headersSent) {
      response.destroy();
      return;
    }
    // The page's shim turns this into the error Node's http would have raised (ECONNREFUSED, …).
    sendError(response, 200, `The model server at ${baseUrl.origin} could not be reached: ${error.message}`, error.code ?? null, {
      "x-vault-copilot-demo-network-error": error.code ?? "ECONNRESET",
    });
  });
  // The page went away (Stop, a closed tab): the model server must see the client go.
  response.on("close", () => {
    if (!response.writableFinished) upstream.destroy();
  });
  request.pipe(upstream);
}
