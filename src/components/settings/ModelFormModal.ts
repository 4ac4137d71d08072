import { SecretComponent, Setting, type App } from "obsidian";
import { fieldIssueText, modelFieldLabel } from "./fieldLabels";
import { DEFAULT_CONTEXT_WINDOW_TOKENS } from "../../chat/fitHistory";
import { errorMessage } from "../../errorMessage";
import { NO_PRICES, providerSettingsSchema, type ProviderSettings } from "../../settings/settingsSchema";
import { priceFields } from "./priceFields";
import { presetChoices, PROVIDER_PRESET_DETAILS, type ProviderPresetId } from "./providerPresets";
import { SettingsFormModal } from "./SettingsFormModal";
import { parseDecimal, parseWholeNumber } from "./settingRows";
import { t } from "../../i18n/t";

/** What a new model starts with: nothing of the default model's, only the usual temperature and answer length. */
export const EMPTY_MODEL: ProviderSettings = {
  preset: "custom",
  baseUrl: "",
  model: "",
  apiKeySecretId: "",
  temperature: 0.2,
  maxTokens: 4096,
  prices: { ...NO_PRICES },
};

export interface ModelFormOptions {
  /** The model to edit; absent: a new one, from an empty form. */
  model?: ProviderSettings;
  /** Names other models already have (a chat picks a model by its name). */
  takenNames: readonly string[];
  /** Called with the model once it is valid; the form closes after it. */
  onSave: (model: ProviderSettings) => void;
}

/**
 * One model, as a form: the provider (which fills in its address), the address, the model's name,
 * its key (Obsidian's secret picker: only the secret's id is kept), temperature, longest answer,
 * context window and the four prices. Save checks the whole model and says what is wrong in a
 * sentence; nothing is saved until it is right.
 */
export class ModelFormModal extends SettingsFormModal {
  private draft: ProviderSettings;
  private readonly problems = new Map<string, string>();

  constructor(
    app: App,
    private readonly options: ModelFormOptions,
  ) {
    super(app);
    this.draft = structuredClone(options.model ?? EMPTY_MODEL);
  }

  override onOpen(): void {
    const { contentEl } = this;
    this.titleEl.setText(this.options.model ? t("settings.editNamed", { name: this.options.model.model }) : t("modelForm.add"));
    contentEl.addClass("vault-copilot-model-form");
    let setBaseUrl: (url: string) => void = () => undefined;
    new Setting(contentEl)
      .setName(t("settings.provider.name"))
      .setDesc(t("settings.provider.desc"))
      .addDropdown((dropdown) => {
        dropdown.addOptions(presetChoices());
        dropdown.setValue(this.draft.preset);
        dropdown.selectEl.setAttribute("aria-label", t("settings.provider.name"));
        dropdown.onChange((value) => {
          const preset = value as ProviderPresetId;
          const address = PROVIDER_PRESET_DETAILS[preset].baseUrl;
          this.draft = { ...this.draft, preset, ...(address ? { baseUrl: address } : {}) };
          if (address) setBaseUrl(address);
        });
      });
    new Setting(contentEl)
      .setName(t("settings.baseUrl.name"))
      .setDesc(t("modelForm.baseUrlDesc"))
      .addText((text) => {
        text.inputEl.type = "url";
        text.inputEl.setAttribute("aria-label", t("settings.baseUrl.name"));
        text.setPlaceholder(PROVIDER_PRESET_DETAILS.ollama.baseUrl ?? "").setValue(this.draft.baseUrl);
        text.onChange((value) => (this.draft = { ...this.draft, baseUrl: value.trim() }));
        setBaseUrl = (url) => {
          text.setValue(url);
        };
      });
    new Setting(contentEl)
      .setName(t("header.model"))
      .setDesc(t("modelForm.modelDesc"))
      .addText((text) => {
        text.inputEl.setAttribute("aria-label", t("modelForm.modelLabel"));
        text.setValue(this.draft.model);
        text.onChange((value) => (this.draft = { ...this.draft, model: value.trim() }));
      });
    new Setting(contentEl)
      .setName(t("settings.apiKey.name"))
      .setDesc(t("modelForm.keyDesc"))
      .addComponent((el) =>
        new SecretComponent(this.app, el).setValue(this.draft.apiKeySecretId).onChange((id) => (this.draft = { ...this.draft, apiKeySecretId: id })),
      );
    this.numberField(t("settings.temperature.name"), t("modelForm.temperatureDesc"), String(this.draft.temperature), parseDecimal, (temperature) => ({ temperature }));
    this.numberField(t("settings.maxTokens.name"), t("settings.maxTokens.desc"), String(this.draft.maxTokens), parseWholeNumber, (maxTokens) => ({ maxTokens }));
    this.numberField(
      t("settings.contextWindow.name"),
      t("modelForm.contextWindowDesc", { count: DEFAULT_CONTEXT_WINDOW_TOKENS }),
      this.draft.contextWindowTokens === undefined ? "" : String(this.draft.contextWindowTokens),
      (text): number | undefined => (text.trim() === "" ? undefined : parseWholeNumber(text)),
      (contextWindowTokens) => ({ contextWindowTokens }),
    );
    const prices = new Setting(contentEl).setName(t("settings.prices.name")).setDesc(t("modelForm.pricesDesc"));
    prices.settingEl.addClass("vault-copilot-prices-row");
    priceFields(
      prices.controlEl,
      this.draft.prices,
      (key, price) => (this.draft = { ...this.draft, prices: { ...this.draft.prices, [key]: price } }),
      (message) => this.setProblem("Prices", message),
    );
    this.addFooter();
  }

  /** A field whose text becomes part of the model once it parses; a problem is held until it is fixed. */
  private numberField<T>(name: string, desc: string, initial: string, parse: (text: string) => T, apply: (value: T) => Partial<ProviderSettings>): void {
    new Setting(this.contentEl)
      .setName(name)
      .setDesc(desc)
      .addText((text) => {
        text.inputEl.setAttribute("aria-label", name);
        text.setValue(initial);
        text.onChange((value) => {
          try {
            const change = apply(parse(value));
            const next = { ...this.draft, ...change };
            if ("contextWindowTokens" in change && change.contextWindowTokens === undefined) delete next.contextWindowTokens;
            this.draft = next;
            this.setProblem(name, null);
          } catch (error) {
            this.setProblem(name, `${name}: ${errorMessage(error)}`);
          }
        });
      });
  }

  private setProblem(field: string, message: string | null): void {
    if (message === null) this.problems.delete(field);
    else this.problems.set(field, message);
    this.showProblem(this.problems.values().next().value ?? "");
  }

  protected save(): void {
    const problem = this.problems.values().next().value ?? this.check();
    if (problem) {
      this.showProblem(problem);
      return;
    }
    this.options.onSave(providerSettingsSchema.parse(this.draft));
    this.close();
  }

  /** What is wrong with the model as it stands, in a sentence, or undefined. */
  private check(): string | undefined {
    const { draft } = this;
    if (draft.model === "") return t("modelForm.enterName");
    if (this.options.takenNames.includes(draft.model)) return t("modelForm.taken", { name: draft.model });
    const checked = providerSettingsSchema.safeParse(draft);
    if (checked.success) return undefined;
    const issue = checked.error.issues[0];
    if (issue?.path[0] === "baseUrl") return t("modelForm.enterUrl");
    if (issue === undefined) return `${t("modelForm.theModel")}: ${t("settings.valueUnusableLower")}`;
    return fieldIssueText(issue, issue.path.join("."), modelFieldLabel(issue.path));
  }
}
