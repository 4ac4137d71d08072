import { Notice, SecretComponent, type App, type Setting } from "obsidian";
import { zodIssueText } from "./zodIssueText";
import type { z } from "zod";
import { errorMessage } from "../../errorMessage";
import type { CopilotSettings } from "../../settings/settingsSchema";
import { SettingsValidationError, type SettingsStore } from "./settingsStore";
import { fieldIssueText, settingLabel } from "./fieldLabels";
import { ENGLISH } from "../../i18n/languages";
import { currentLanguage, t } from "../../i18n/t";

/**
 * One row of the settings tab, written once for both ways Obsidian shows a tab: `display()`
 * (before 1.13) and `getSettingDefinitions()` (1.13+, searchable). The row gets a `Setting`
 * whose name and description are already set and adds its controls; it returns what undoes any
 * subscription it made.
 */
export interface SettingsRow {
  name: string;
  desc: string;
  render(setting: Setting): (() => void) | void;
}

export interface SettingsSection {
  heading: string;
  rows: SettingsRow[];
}

export interface RowContext {
  app: App;
  store: SettingsStore;
}

type Read<T> = (settings: CopilotSettings) => T;
type Write<T> = (settings: CopilotSettings, value: T) => CopilotSettings;

/** Saves a change; a failure (invalid value, disk error) is shown, never dropped. */
export function save(store: SettingsStore, change: (settings: CopilotSettings) => CopilotSettings): void {
  store.update(change).catch((error: unknown) => new Notice(t("settings.saveFailed", { reason: saveFailure(error) })));
}

/** Why a save failed: a change the schema refused names its setting by the tab's label in another language; anything else keeps its own words. */
export function saveFailure(error: unknown): string {
  if (error instanceof SettingsValidationError && error.issue && currentLanguage() !== ENGLISH) return fieldIssueText(error.issue, error.issue.path.join("."), settingLabel(error.issue.path));
  return errorMessage(error);
}

/** A button on a list's line (a model's Edit, an MCP server's Remove): its text, and the name that says what it acts on. */
export function lineButton(line: HTMLElement, text: string, label: string, onClick: () => void): HTMLButtonElement {
  const button = line.createEl("button", { text, attr: { "aria-label": label } });
  button.addEventListener("click", onClick);
  return button;
}

/** Shows or clears a validation message under a row's name. */
function showError(setting: Setting, message: string | null): void {
  setting.settingEl.toggleClass("is-invalid", message !== null);
  setting.infoEl.querySelector(".vault-copilot-setting-error")?.remove();
  if (message !== null) setting.infoEl.createDiv({ cls: "vault-copilot-setting-error", text: message });
}

interface Follower<T> {
  /** Records a value the control itself produced, so it is not written back into it mid-edit. */
  produced: (value: T) => void;
  stop: () => void;
}

/** Keeps a control in step with changes made elsewhere (another row, a reload after sync). */
function follow<T>(store: SettingsStore, read: Read<T>, apply: (value: T) => void): Follower<T> {
  let shown = JSON.stringify(read(store.get()));
  const stop = store.subscribe((settings) => {
    const value = read(settings);
    const serialized = JSON.stringify(value);
    if (serialized === shown) return;
    shown = serialized;
    apply(value);
  });
  return { produced: (value) => (shown = JSON.stringify(value)), stop };
}

export interface FieldRowOptions<T> {
  name: string;
  desc: string;
  read: Read<T>;
  write: Write<T>;
  /** The schema the value must fit (the matching field of the settings schema). */
  schema: z.ZodType<T>;
  /** Text in the field -> value; throws with a message for text that cannot be a value. */
  parse: (text: string) => T;
  format: (value: T) => string;
  placeholder?: string;
  multiline?: boolean;
  inputType?: "text" | "number" | "url";
}

/** A text field; what the user types is saved once it parses and fits the schema. */
export function fieldRow<T>(context: RowContext, options: FieldRowOptions<T>): SettingsRow {
  return {
    name: options.name,
    desc: options.desc,
    render(setting) {
      let setText: (text: string) => void = () => undefined;
      const follower = follow(context.store, options.read, (value) => {
        showError(setting, null);
        setText(options.format(value));
      });
      const onInput = (text: string) => {
        let value: T;
        try {
          value = options.parse(text);
        } catch (error) {
          showError(setting, errorMessage(error));
          return;
        }
        const checked = options.schema.safeParse(value);
        if (!checked.success) {
          showError(setting, zodIssueText(checked.error.issues[0]));
          return;
        }
        showError(setting, null);
        follower.produced(checked.data);
        save(context.store, (settings) => options.write(settings, checked.data));
      };
      const initial = options.format(options.read(context.store.get()));
      if (options.multiline) {
        setting.addTextArea((area) => {
          area.setValue(initial).onChange(onInput);
          if (options.placeholder) area.setPlaceholder(options.placeholder);
          setText = (text) => {
            area.setValue(text);
          };
        });
      } else {
        setting.addText((text) => {
          text.setValue(initial).onChange(onInput);
          text.inputEl.type = options.inputType ?? "text";
          if (options.placeholder) text.setPlaceholder(options.placeholder);
          setText = (value) => {
            text.setValue(value);
          };
        });
      }
      return follower.stop;
    },
  };
}

export interface DropdownRowOptions<T extends string> {
  name: string;
  desc: string;
  choices: Readonly<Record<T, string>>;
  read: Read<T>;
  write: Write<T>;
}

export function dropdownRow<T extends string>(context: RowContext, options: DropdownRowOptions<T>): SettingsRow {
  return {
    name: options.name,
    desc: options.desc,
    render(setting) {
      let setValue: (value: T) => void = () => undefined;
      setting.addDropdown((dropdown) => {
        dropdown
          .addOptions(options.choices)
          .setValue(options.read(context.store.get()))
          .onChange((value) => save(context.store, (settings) => options.write(settings, value as T)));
        setValue = (value) => {
          dropdown.setValue(value);
        };
      });
      return follow(context.store, options.read, (value) => {
        setValue(value);
      }).stop;
    },
  };
}

export interface ToggleRowOptions {
  name: string;
  desc: string;
  read: Read<boolean>;
  write: Write<boolean>;
}

/** An on/off switch, saved as soon as it is flipped. */
export function toggleRow(context: RowContext, options: ToggleRowOptions): SettingsRow {
  return {
    name: options.name,
    desc: options.desc,
    render(setting) {
      let setValue: (value: boolean) => void = () => undefined;
      setting.addToggle((toggle) => {
        toggle.setValue(options.read(context.store.get())).onChange((value) => save(context.store, (settings) => options.write(settings, value)));
        setValue = (value) => {
          toggle.setValue(value);
        };
      });
      return follow(context.store, options.read, (value) => {
        setValue(value);
      }).stop;
    },
  };
}

export interface SecretRowOptions {
  name: string;
  desc: string;
  /** The SecretStorage id the setting holds. */
  read: Read<string>;
  write: Write<string>;
}

/**
 * A key kept in Obsidian's SecretStorage: the user picks or creates the secret with Obsidian's
 * own control, and the setting keeps only the secret's id.
 */
export function secretRow(context: RowContext, options: SecretRowOptions): SettingsRow {
  return {
    name: options.name,
    desc: options.desc,
    render(setting) {
      let component: SecretComponent | undefined;
      setting.addComponent((el) => {
        component = new SecretComponent(context.app, el)
          .setValue(options.read(context.store.get()))
          .onChange((id) => save(context.store, (settings) => options.write(settings, id)));
        return component;
      });
      return follow(context.store, options.read, (id) => {
        component?.setValue(id);
      }).stop;
    },
  };
}

/** Shows a row only while `visible` holds for the current settings. */
export function shownWhen(context: RowContext, row: SettingsRow, visible: (settings: CopilotSettings) => boolean): SettingsRow {
  return {
    ...row,
    render(setting) {
      const undo = row.render(setting);
      setting.settingEl.toggle(visible(context.store.get()));
      const unsubscribe = context.store.subscribe((settings) => setting.settingEl.toggle(visible(settings)));
      return () => {
        unsubscribe();
        undo?.();
      };
    },
  };
}

/** "12" -> 12; anything that is not a whole number is refused with a message. */
export function parseWholeNumber(text: string): number {
  const trimmed = text.trim();
  if (!/^-?\d+$/.test(trimmed)) throw new Error(t("settings.wholeNumber"));
  return Number(trimmed);
}

/** A decimal number such as "0.7"; throws with a message for anything else. */
export function parseDecimal(text: string): number {
  const trimmed = text.trim();
  if (!/^\d+(\.\d+)?$/.test(trimmed)) throw new Error(t("settings.decimal"));
  return Number(trimmed);
}

/** One entry per line, blank lines ignored. */
export function parseLines(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}
