import type { z } from "zod";
import { SerialQueue } from "../../ports/serialQueue";
import { normalizePath, type DataAdapter, type Plugin } from "obsidian";
import { errorMessage } from "../../errorMessage";
import { DEFAULT_SETTINGS } from "../../constants";
import { loadSettings, type SettingsFileProblem } from "../../settings/loadSettings";
import type { SecretStore } from "../../ports/SecretStore";
import { copilotSettingsSchema, type CopilotSettings } from "../../settings/settingsSchema";
import { ENGLISH } from "../../i18n/languages";
import { currentLanguage, t } from "../../i18n/t";

/** The plugin's data.json, and the adapter to read it raw when it does not hold JSON. */
export interface SettingsFile {
  loadData(): Promise<unknown>;
  saveData(data: unknown): Promise<void>;
  adapter: Pick<DataAdapter, "exists" | "read" | "write">;
  /** Vault-relative path of data.json. */
  path: string;
}

/** The plugin's own folder (`<config folder>/plugins/<id>`), where data.json and its data files live. */
export function pluginDataFolder(plugin: Plugin): string {
  return normalizePath(plugin.manifest.dir ?? `${plugin.app.vault.configDir}/plugins/${plugin.manifest.id}`);
}

/** data.json of this plugin, where `Plugin.loadData`/`saveData` keep it. */
export function pluginSettingsFile(plugin: Plugin): SettingsFile {
  return {
    loadData: () => plugin.loadData() as Promise<unknown>,
    saveData: (data) => plugin.saveData(data),
    adapter: plugin.app.vault.adapter,
    path: normalizePath(`${pluginDataFolder(plugin)}/data.json`),
  };
}

/** A change that does not fit the settings schema: the sentence ("provider.temperature: Too big…"), and zod's issue for a view that says it in its own language. */
export class SettingsValidationError extends Error {
  constructor(
    message: string,
    readonly issue?: z.core.$ZodIssue,
  ) {
    super(message);
    this.name = "SettingsValidationError";
  }
}

export interface SettingsStoreOptions {
  file: SettingsFile;
  /** Where keys found in plain text in an older data.json are moved. */
  secrets: SecretStore;
  /** Tells the user what could not be loaded (a Notice in Obsidian). */
  notify: (message: string) => void;
  now?: () => Date;
}

type Listener = (settings: CopilotSettings) => void;

/**
 * The settings, loaded once and kept in memory; every change is validated, handed to the
 * subscribers and saved. Loading never throws: whatever data.json holds, the plugin starts.
 */
export class SettingsStore {
  private current: CopilotSettings;
  private readonly listeners = new Set<Listener>();
  /** Saves run one at a time, in order; a failed one does not block the next. */
  private readonly saves = new SerialQueue();

  private constructor(
    private readonly options: SettingsStoreOptions,
    settings: CopilotSettings,
  ) {
    this.current = settings;
  }

  /**
   * Loads data.json: a file that is not JSON is copied aside (`data.json.corrupt-<time>`) before
   * anything overwrites it; unreadable parts fall back to their defaults; older shapes are
   * migrated, their plain-text keys moved into SecretStorage. The user is told of any problem.
   */
  static async load(options: SettingsStoreOptions): Promise<SettingsStore> {
    const store = new SettingsStore(options, loadSettings(null, DEFAULT_SETTINGS).settings);
    await store.reload();
    return store;
  }

  /** The current settings. Treat them as read-only: changes go through `update`. */
  get(): CopilotSettings {
    return this.current;
  }

  /** Calls `listener` with the new settings after every change; returns the unsubscribe. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Applies `change` to a copy of the settings, validates the result (throwing
   * `SettingsValidationError` and changing nothing when it does not fit the schema), tells the
   * subscribers and saves. Saves run one after another in the order of the changes.
   */
  async update(change: (settings: CopilotSettings) => CopilotSettings): Promise<void> {
    const result = copilotSettingsSchema.safeParse(change(structuredClone(this.current)));
    if (!result.success) {
      const issue = result.error.issues[0];
      throw new SettingsValidationError(`${issue?.path.join(".") ?? "settings"}: ${issue?.message ?? "invalid"}`, issue);
    }
    this.apply(result.data);
    await this.persist();
  }

  /** Reads data.json again (on start, and when Obsidian reports it changed on disk, e.g. by sync). */
  async reload(): Promise<void> {
    const { file, secrets, notify } = this.options;
    // Each problem's English sentence and its case, for the notice in the interface's language.
    const problems: SettingsFileProblem[] = [];
    let raw: unknown = null;
    let mayOverwrite = true;
    try {
      raw = await file.loadData();
    } catch (error) {
      const outcome = await this.setAsideUnreadableFile(error);
      if (outcome.problem) problems.push(outcome.problem);
      mayOverwrite = outcome.mayOverwrite;
    }

    const loaded = loadSettings(raw, DEFAULT_SETTINGS);
    problems.push(...loaded.problems);
    let secretsStored = true;
    for (const { id, value } of loaded.secretsToStore) {
      try {
        secrets.set(id, value);
      } catch (error) {
        secretsStored = false;
        const cause = errorMessage(error);
        problems.push({ text: `A saved API key could not be moved into secure storage (${cause}); the settings file was left as it was, key included.`, reason: { code: "secret-not-moved", cause } });
      }
    }
    this.apply(loaded.settings);

    // Saving drops plain-text keys from data.json, so it waits until they are safely stored.
    if (loaded.needsSave && mayOverwrite && secretsStored) {
      try {
        await this.persist();
      } catch (error) {
        const cause = errorMessage(error);
        problems.push({ text: `The repaired settings could not be saved (${cause}).`, reason: { code: "not-saved", cause } });
      }
    }
    if (problems.length > 0) notify([t("settings.attention"), ...problems.map((problem) => `• ${settingsProblemText(problem)}`)].join("\n"));
  }

  private apply(settings: CopilotSettings): void {
    this.current = settings;
    for (const listener of this.listeners) listener(settings);
  }

  private persist(): Promise<void> {
    const snapshot = this.current;
    return this.saves.run(() => this.options.file.saveData(snapshot));
  }

  /** Keeps a copy of a data.json that is not JSON, so the user's settings can be recovered by hand. */
  private async setAsideUnreadableFile(error: unknown): Promise<{ problem?: SettingsFileProblem; mayOverwrite: boolean }> {
    const { file, now = () => new Date() } = this.options;
    const reason = errorMessage(error);
    let text: string;
    try {
      text = await file.adapter.read(file.path);
    } catch (readError) {
      const cause = `${reason}; ${errorMessage(readError)}`;
      return {
        problem: { text: `The settings file could not be read (${cause}); the defaults are in use and the file was left as it was.`, reason: { code: "unreadable", cause } },
        mayOverwrite: false,
      };
    }
    // An empty file is what a crash during a save leaves behind: nothing to keep.
    if (text.trim() === "") return { mayOverwrite: true };
    const backupPath = `${file.path}.corrupt-${now().toISOString().replace(/[:.]/g, "-")}`;
    try {
      await file.adapter.write(backupPath, text);
    } catch (writeError) {
      const copyCause = errorMessage(writeError);
      return {
        problem: { text: `The settings file is not valid JSON (${reason}) and a copy could not be kept (${copyCause}); the defaults are in use and the file was left as it was.`, reason: { code: "not-json-no-copy", cause: reason, copyCause } },
        mayOverwrite: false,
      };
    }
    return {
      problem: { text: `The settings file was not valid JSON (${reason}); the defaults are in use. The old file was kept as "${backupPath}".`, reason: { code: "not-json-kept", cause: reason, backup: backupPath } },
      mayOverwrite: true,
    };
  }
}

/** A settings-file problem in the interface's language (English: the loader's own sentence). */
export function settingsProblemText({ text, reason }: SettingsFileProblem): string {
  if (currentLanguage() === ENGLISH) return text;
  switch (reason.code) {
    case "duplicate-server":
      return t("settingsProblem.duplicate-server", { name: reason.name });
    case "part-not-object":
    case "invalid":
      return t(`settingsProblem.${reason.code}`, { setting: reason.setting });
    case "items-dropped":
      return t("settingsProblem.items-dropped", { setting: reason.setting, count: reason.count });
    // The platform's words for what failed stay as the platform wrote them, inside the sentence.
    case "unreadable":
    case "secret-not-moved":
    case "not-saved":
      return t(`settingsProblem.${reason.code}`, { cause: reason.cause });
    case "not-json-kept":
      return t("settingsProblem.not-json-kept", { cause: reason.cause, backup: reason.backup });
    case "not-json-no-copy":
      return t("settingsProblem.not-json-no-copy", { cause: reason.cause, copyCause: reason.copyCause });
    case "file-not-object":
      return t("settingsProblem.file-not-object");
  }
}
