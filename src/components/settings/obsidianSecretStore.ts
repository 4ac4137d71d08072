import type { SecretStorage } from "obsidian";
import type { SecretStore } from "../../ports/SecretStore";

/**
 * API keys in Obsidian's SecretStorage (1.11.4+): settings hold only a secret's id, and the key
 * is looked up when a request needs it, so data.json never contains one.
 */
export class ObsidianSecretStore implements SecretStore {
  constructor(private readonly storage: SecretStorage) {}

  get(id: string): string | null {
    return id ? this.storage.getSecret(id) : null;
  }

  /** Throws when `id` is not lowercase letters, digits and dashes (SecretStorage's rule). */
  set(id: string, value: string): void {
    this.storage.setSecret(id, value);
  }
}
