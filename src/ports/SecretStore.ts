/**
 * Where API keys live. In Obsidian this is the app's SecretStorage (keys never enter data.json);
 * the CLI reads them from environment variables. Nothing else in the code holds a key for longer
 * than one request needs it.
 */
export interface SecretStore {
  /** The secret's value, or null when none is stored under `id` (or `id` is ""). */
  get(id: string): string | null;
  set(id: string, value: string): void;
}

/** A SecretStore over a plain map (the CLI builds one from `--api-key-env`). */
export class MapSecretStore implements SecretStore {
  private readonly values = new Map<string, string>();

  get(id: string): string | null {
    return id ? (this.values.get(id) ?? null) : null;
  }

  set(id: string, value: string): void {
    this.values.set(id, value);
  }
}
