import type { HttpResponse, PlainHttp } from "../../net/plainHttp";
import type { CopilotSettings } from "../../settings/settingsSchema";
import type { SecretStore } from "../../ports/SecretStore";
import { errorMessage, type ToolFailure } from "../../errorMessage";
import { htmlToText } from "./htmlText";

export interface WebSearchResult {
  title: string;
  url: string;
  snippet: string;
}

export type WebSearchProvider = Exclude<CopilotSettings["webSearch"]["provider"], "none">;

export const PROVIDER_NAMES: Record<WebSearchProvider, string> = {
  searxng: "SearXNG",
  brave: "Brave Search",
  tavily: "Tavily",
};

/** A search that failed in a way the user or the model can act on; the message says how. */
export class WebSearchError extends Error {
  constructor(
    message: string,
    readonly failure?: ToolFailure,
  ) {
    super(message);
    this.name = "WebSearchError";
  }
}

export interface ProviderRequest {
  http: PlainHttp;
  secrets: SecretStore;
  settings: CopilotSettings["webSearch"];
  query: string;
  count: number;
  signal: AbortSignal;
}

const SETTINGS_HINT = "Settings → Vault Copilot → Web search";

export async function searchWith(provider: WebSearchProvider, request: ProviderRequest): Promise<WebSearchResult[]> {
  switch (provider) {
    case "searxng":
      return searchSearxng(request);
    case "brave":
      return searchBrave(request);
    case "tavily":
      return searchTavily(request);
  }
}

/** SearXNG's JSON API: GET /search?q=...&format=json -> { results: [{ title, url, content }] }. */
async function searchSearxng({ http, settings, query, count, signal }: ProviderRequest): Promise<WebSearchResult[]> {
  const url = new URL("search", withTrailingSlash(settings.searxngUrl));
  url.searchParams.set("q", query);
  url.searchParams.set("format", "json");
  const response = await send(http, "searxng", { url: url.toString(), headers: { Accept: "application/json" }, signal });
  if (response.status === 403) {
    throw new WebSearchError(
      "SearXNG refused the request (HTTP 403): its JSON output is probably switched off. Add `json` to `search.formats` in the instance's settings.yml.",
      { kind: "search-json-off", values: {} },
    );
  }
  const body = parseBody(response, "searxng") as { results?: unknown };
  return resultsFrom(body.results, "content").slice(0, count);
}

/** Brave Search: GET /res/v1/web/search?q=...&count=N with X-Subscription-Token -> { web: { results: [{ title, url, description }] } }. */
async function searchBrave({ http, secrets, settings, query, count, signal }: ProviderRequest): Promise<WebSearchResult[]> {
  const key = requireKey(secrets, settings.braveApiKeySecretId, "brave");
  const url = new URL("res/v1/web/search", withTrailingSlash(settings.braveBaseUrl));
  url.searchParams.set("q", query);
  url.searchParams.set("count", String(count));
  const response = await send(http, "brave", {
    url: url.toString(),
    headers: { Accept: "application/json", "X-Subscription-Token": key },
    signal,
  });
  const body = parseBody(response, "brave") as { web?: { results?: unknown } };
  return resultsFrom(body.web?.results, "description").slice(0, count);
}

/** Tavily: POST /search with a bearer key and { query, max_results } -> { results: [{ title, url, content, score }] }. */
async function searchTavily({ http, secrets, settings, query, count, signal }: ProviderRequest): Promise<WebSearchResult[]> {
  const key = requireKey(secrets, settings.tavilyApiKeySecretId, "tavily");
  const response = await send(http, "tavily", {
    url: new URL("search", withTrailingSlash(settings.tavilyBaseUrl)).toString(),
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", Authorization: `Bearer ${key}` },
    body: JSON.stringify({ query, max_results: count, search_depth: "basic" }),
    signal,
  });
  const body = parseBody(response, "tavily") as { results?: unknown };
  return resultsFrom(body.results, "content").slice(0, count);
}

function requireKey(secrets: SecretStore, secretId: string, provider: WebSearchProvider): string {
  const key = secrets.get(secretId);
  if (!key) {
    throw new WebSearchError(
      `No ${PROVIDER_NAMES[provider]} API key is stored. Tell the user to add one in ${SETTINGS_HINT}.`,
      { kind: "search-no-key", values: { provider: PROVIDER_NAMES[provider] } },
    );
  }
  return key;
}

async function send(http: PlainHttp, provider: WebSearchProvider, request: Parameters<PlainHttp["request"]>[0]): Promise<HttpResponse> {
  const name = PROVIDER_NAMES[provider];
  let response: HttpResponse;
  try {
    response = await http.request(request);
  } catch (error) {
    if (request.signal?.aborted) throw error;
    throw new WebSearchError(`Could not reach ${name} at ${new URL(request.url).origin}: ${errorMessage(error)}.`, { kind: "unreachable", values: { host: new URL(request.url).host } });
  }
  if (response.status === 401 || (response.status === 403 && provider !== "searxng")) {
    throw new WebSearchError(
      `${name} refused the API key (HTTP ${response.status}${providerDetail(response)}). Tell the user to check the key in ${SETTINGS_HINT}.`,
      { kind: "search-key-refused", values: { provider: name, status: response.status } },
    );
  }
  if (response.status === 429) {
    const retryAfter = response.headers["retry-after"];
    throw new WebSearchError(
      `${name} says too many requests (HTTP 429${providerDetail(response)})${retryAfter ? `; it asks to wait ${retryAfter} s` : ""}. ` +
        "Do not search again right away; answer with what you have or try later.",
      { kind: "search-rate-limited", values: { provider: name } },
    );
  }
  if (response.status >= 400 && !(provider === "searxng" && response.status === 403)) {
    throw new WebSearchError(`${name} answered HTTP ${response.status}${providerDetail(response)}.`, { kind: "search-status", values: { provider: name, status: response.status } });
  }
  return response;
}

function parseBody(response: HttpResponse, provider: WebSearchProvider): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(response.text);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // Reported below with the start of what came back.
  }
  const start = response.text.slice(0, 60).replace(/\s+/g, " ");
  throw new WebSearchError(`${PROVIDER_NAMES[provider]} did not answer with JSON (it sent "${start}${response.text.length > 60 ? "…" : ""}").`, {
    kind: "search-not-json",
    values: { provider: PROVIDER_NAMES[provider] },
  });
}

/** The provider's own error text, when its error body carries one (Brave: error.detail; Tavily: detail.error). */
function providerDetail(response: HttpResponse): string {
  try {
    const body = JSON.parse(response.text) as { error?: { detail?: unknown } | string; detail?: { error?: unknown } | string; message?: unknown };
    const detail =
      (typeof body.error === "object" ? body.error?.detail : body.error) ??
      (typeof body.detail === "object" ? body.detail?.error : body.detail) ??
      body.message;
    return typeof detail === "string" && detail.length > 0 ? `: ${detail.slice(0, 200)}` : "";
  } catch {
    return "";
  }
}

function resultsFrom(value: unknown, snippetField: string): WebSearchResult[] {
  if (!Array.isArray(value)) return [];
  const results: WebSearchResult[] = [];
  for (const item of value) {
    if (!item || typeof item !== "object") continue;
    const record = item as Record<string, unknown>;
    const url = typeof record.url === "string" ? record.url : "";
    // Only web pages: a result pointing at javascript: or file: is not something to cite.
    if (!/^https?:\/\//i.test(url)) continue;
    const snippet = record[snippetField];
    results.push({
      title: htmlToText(typeof record.title === "string" ? record.title : url),
      url,
      snippet: typeof snippet === "string" ? htmlToText(snippet) : "",
    });
  }
  return results;
}

function withTrailingSlash(base: string): string {
  return base.endsWith("/") ? base : `${base}/`;
}
