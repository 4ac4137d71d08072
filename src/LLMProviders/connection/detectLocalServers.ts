import type { FetchLike } from "../../ports/FetchLike";

/** A model server found on this computer. */
export interface LocalServer {
  preset: "ollama" | "lmstudio";
  /** The OpenAI-compatible base URL to use. */
  baseUrl: string;
  models: string[];
}

/** Where Ollama and LM Studio listen unless told otherwise. */
export const DEFAULT_LOCAL_SERVERS = {
  ollama: "http://127.0.0.1:11434",
  lmstudio: "http://127.0.0.1:1234",
} as const;

/**
 * Looks for Ollama (`GET /api/tags`) and LM Studio (`GET /v1/models`) at their default ports (or
 * the origins given), each given `timeoutMs` to answer; returns those that answered, with their
 * models. Nothing leaves this computer: both are 127.0.0.1.
 */
export async function detectLocalServers(fetch: FetchLike, origins: { ollama: string; lmstudio: string } = DEFAULT_LOCAL_SERVERS, timeoutMs = 1500): Promise<LocalServer[]> {
  const probe = async (url: string, read: (body: unknown) => unknown[]): Promise<string[] | null> => {
    try {
      const response = await fetch(url, { method: "GET", headers: { accept: "application/json" }, signal: AbortSignal.timeout(timeoutMs) });
      if (!response.ok) return null;
      return read(await response.json()).filter((name): name is string => typeof name === "string").sort();
    } catch {
      return null;
    }
  };
  const [ollama, lmstudio] = await Promise.all([
    probe(`${origins.ollama}/api/tags`, (body) => (body as { models?: Array<{ name?: unknown }> }).models?.map((model) => model.name) ?? []),
    probe(`${origins.lmstudio}/v1/models`, (body) => (body as { data?: Array<{ id?: unknown }> }).data?.map((model) => model.id) ?? []),
  ]);
  const found: LocalServer[] = [];
  if (ollama) found.push({ preset: "ollama", baseUrl: `${origins.ollama}/v1`, models: ollama });
  if (lmstudio) found.push({ preset: "lmstudio", baseUrl: `${origins.lmstudio}/v1`, models: lmstudio });
  return found;
}
