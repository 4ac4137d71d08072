import { Platform, requestUrl } from "obsidian";
import type { FetchLike } from "../ports/FetchLike";
import { createNodeHttpFetch, type NodeHttpModule } from "./nodeHttpFetch";
import { createRequestUrlFetch } from "./requestUrlFetch";

/**
 * The model client's fetch inside Obsidian. The browser's own fetch sends a CORS preflight that
 * local servers (Ollama, LM Studio) without CORS headers refuse ("Connection error"). On desktop,
 * Node's http client is reachable through Electron's `window.require` and streams without any
 * origin; on mobile there is no Node, and `requestUrl` (no CORS, but no streaming) is used.
 */
export function createObsidianFetch(): FetchLike {
  const nodeRequire = Platform.isDesktopApp ? (window as unknown as { require?: (id: string) => unknown }).require : undefined;
  if (nodeRequire) {
    return createNodeHttpFetch({ http: nodeRequire("http") as NodeHttpModule, https: nodeRequire("https") as NodeHttpModule });
  }
  return createRequestUrlFetch((request) => requestUrl(request));
}
