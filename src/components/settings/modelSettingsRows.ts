import { detectLocalServers } from "../../LLMProviders/connection/detectLocalServers";
import type { ChatModelPorts } from "../../LLMProviders/chatModelFactory";
import { testConnection, type ConnectionCheck, type ConnectionDetail } from "../../LLMProviders/connection/testConnection";
import { knownToTakeImages, makeDefaultModel, withImageSupport, withToolSupport } from "../../LLMProviders/modelChoice";
import { presetLabel } from "./providerPresets";
import { ModelFormModal } from "./ModelFormModal";
import { priceFields } from "./priceFields";
import { dropdownRow, lineButton, save, type RowContext, type SettingsRow } from "./settingRows";
import { addCheckButton } from "./verdict";
import { ENGLISH } from "../../i18n/languages";
import { currentLanguage, t } from "../../i18n/t";
import type { CopilotSettings, ModelPrices } from "../../settings/settingsSchema";

/** "Test connection": runs the four checks on the default model and shows each verdict under the button. */
export function testConnectionRow(context: RowContext, ports: ChatModelPorts): SettingsRow {
  return {
    name: t("settings.testConnection.name"),
    desc: t("settings.testConnection.desc"),
    render(setting) {
      addCheckButton(setting, t("settings.testConnection.button"), async () => {
        const provider = context.store.get().provider;
        const verdict = await testConnection(provider, ports, undefined, { cases: true });
        // What the check saw of tools decides whether new chats with this model may start in Agent.
        const tools = verdict.checks.find((check) => check.name === "tools supported")?.outcome;
        if (tools === "yes" || tools === "no") save(context.store, (settings) => withToolSupport(settings, provider.model, tools === "yes"));
        return {
          ok: verdict.ok,
          headline: verdict.ok ? t("settings.testConnection.ok") : t("settings.testConnection.failed"),
          lines: verdict.checks.map((check) => ({ outcome: check.outcome, text: checkLine(check) })),
        };
      });
    },
  };
}

/** "Find local servers": looks for Ollama and LM Studio on their default ports and offers each model found. */
export function localServersRow(context: RowContext, ports: ChatModelPorts): SettingsRow {
  return {
    name: t("settings.localServers.name"),
    desc: t("settings.localServers.desc"),
    render(setting) {
      const out = setting.infoEl.createDiv({ cls: "vault-copilot-local-servers" });
      setting.addButton((button) =>
        button.setButtonText(t("settings.localServers.button")).onClick(async () => {
          button.setDisabled(true);
          out.empty();
          const found = await detectLocalServers(ports.fetch);
          if (found.length === 0) out.createDiv({ text: t("settings.localServers.none") });
          for (const server of found) {
            const line = out.createDiv({ text: `${presetLabel(server.preset)}: ${server.models.length === 0 ? t("settings.localServers.noModels") : ""}` });
            for (const model of server.models) {
              const use = line.createEl("button", { text: model, cls: "vault-copilot-use-model" });
              use.addEventListener("click", () =>
                save(context.store, (s) => ({ ...s, provider: { ...s.provider, preset: server.preset, baseUrl: server.baseUrl, model } })),
              );
            }
          }
          button.setDisabled(false);
        }),
      );
    },
  };
}

const imageChoices = () => ({ yes: t("settings.images.yes"), no: t("settings.images.no"), unknown: t("settings.images.unknown") });

/**
 * "Takes images" for the default model: filled in from the provider's model list where it says
 * so (OpenRouter's does), and the user's to set. Images go only to a model set to Yes; for any
 * other they are left out, with a notice in the chat, since a server refuses a request with an
 * image for a model that takes none.
 */
export function imageInputRow(context: RowContext): SettingsRow {
  return dropdownRow(context, {
    name: t("settings.images.name"),
    desc: t("settings.images.desc"),
    choices: imageChoices(),
    read: (s) => {
      const known = knownToTakeImages(s, s.provider.model);
      return known === null ? "unknown" : known ? "yes" : "no";
    },
    write: (s, choice) => withImageSupport(s, s.provider.model, choice === "unknown" ? null : choice === "yes"),
  });
}

/** The default model's prices, for the cost shown under each answer. */
export function pricesRow(context: RowContext): SettingsRow {
  return priceFieldsRow(context, {
    name: t("settings.prices.name"),
    desc: t("settings.prices.desc"),
    read: (s) => s.provider.prices,
    write: (s, prices) => ({ ...s, provider: { ...s.provider, prices } }),
  });
}

/** Four labelled price fields for the prices `read` finds, each saved through `write` as it is typed. */
export function priceFieldsRow(
  context: RowContext,
  row: { name: string; desc: string; read(settings: CopilotSettings): ModelPrices; write(settings: CopilotSettings, prices: ModelPrices): CopilotSettings },
): SettingsRow {
  return {
    name: row.name,
    desc: row.desc,
    render(setting) {
      setting.settingEl.addClass("vault-copilot-prices-row");
      const errorHost = setting.infoEl.createDiv();
      const showProblem = (message: string | null) => {
        errorHost.empty();
        setting.settingEl.toggleClass("is-invalid", message !== null);
        if (message !== null) errorHost.createDiv({ cls: "vault-copilot-setting-error", text: message });
      };
      const setPrices = priceFields(
        setting.controlEl,
        row.read(context.store.get()),
        (key, price) => save(context.store, (s) => row.write(s, { ...row.read(s), [key]: price })),
        showProblem,
      );
      return context.store.subscribe((settings) => setPrices(row.read(settings)));
    },
  };
}

/** The other configured models: each can be edited, become the default or go; "Add model" opens an empty form. */
export function otherModelsRow(context: RowContext): SettingsRow {
  return {
    name: t("settings.otherModels.name"),
    desc: t("settings.otherModels.desc"),
    render(setting) {
      const list = setting.infoEl.createDiv({ cls: "vault-copilot-other-models" });
      const takenNames = (except?: string) => {
        const { provider, models } = context.store.get();
        return [provider.model, ...models.map((model) => model.model)].filter((name) => name !== except);
      };
      setting.addButton((button) =>
        button.setButtonText(t("settings.otherModels.add")).onClick(() =>
          new ModelFormModal(context.app, {
            takenNames: takenNames(),
            onSave: (model) => save(context.store, (s) => ({ ...s, models: [...s.models, model] })),
          }).open(),
        ),
      );
      const draw = () => {
        list.empty();
        const { models } = context.store.get();
        if (models.length === 0) list.createDiv({ text: t("settings.noneYet") });
        for (const model of models) {
          const line = list.createDiv({ cls: "vault-copilot-other-model", text: `${model.model} (${presetLabel(model.preset)}) ` });
          lineButton(line, t("settings.edit"), t("settings.editNamed", { name: model.model }), () =>
            new ModelFormModal(context.app, {
              model,
              takenNames: takenNames(model.model),
              onSave: (changed) => save(context.store, (s) => ({ ...s, models: s.models.map((candidate) => (candidate.model === model.model ? changed : candidate)) })),
            }).open(),
          );
          lineButton(line, t("settings.makeDefault"), t("settings.makeDefaultNamed", { name: model.model }), () => save(context.store, (s) => makeDefaultModel(s, model.model)));
          lineButton(line, t("settings.remove"), t("settings.removeNamed", { name: model.model }), () => save(context.store, (s) => ({ ...s, models: s.models.filter((candidate) => candidate.model !== model.model) })));
        }
      };
      draw();
      return context.store.subscribe(draw);
    },
  };
}

/** A check of Test connection on its line: its name and what it saw, in the interface's language (English: the check's own words). */
export function checkLine(check: ConnectionCheck): string {
  const detail = currentLanguage() === ENGLISH || check.said === undefined ? check.detail : checkDetail(check.said);
  return `${t(`settings.check.${check.name}`)}${detail ? `: ${detail}` : ""}`;
}

function checkDetail(said: ConnectionDetail): string {
  switch (said.code) {
    case "none":
      return "";
    case "lists-models":
      return t("settings.checkDetail.lists-models", { count: said.count });
    case "model-answered":
    case "model-answered-unlisted":
      return t(`settings.checkDetail.${said.code}`, { model: said.model });
    case "error":
      return t(`error.${said.error}`);
    case "tools-refused":
      return t("settings.checkDetail.tools-refused", { reason: t(`error.${said.error}`) });
    case "model-missing":
      return t("settings.checkDetail.model-missing", { reason: t(`error.${said.error}`), models: said.models });
    default:
      return t(`settings.checkDetail.${said.code}`);
  }
}
