import { detectLocalServers } from "../../LLMProviders/connection/detectLocalServers";
import type { ChatModelPorts } from "../../LLMProviders/chatModelFactory";
import { testConnection } from "../../LLMProviders/connection/testConnection";
import { knownToTakeImages, makeDefaultModel, withImageSupport, withToolSupport } from "../../LLMProviders/modelChoice";
import { PROVIDER_PRESET_DETAILS } from "./providerPresets";
import { dropdownRow, fieldRow, save, type RowContext, type SettingsRow } from "./settingRows";
import { NO_PRICES, modelPricesSchema, type ModelPrices } from "../../settings/settingsSchema";

/** "Test connection": runs the four checks on the default model and shows each verdict under the button. */
export function testConnectionRow(context: RowContext, ports: ChatModelPorts): SettingsRow {
  return {
    name: "Test connection",
    desc: "Checks the model above: the server answers, the key is accepted, the model is there, and it takes tools.",
    render(setting) {
      const out = setting.infoEl.createDiv({ cls: "vault-copilot-connection-verdict" });
      setting.addButton((button) =>
        button.setButtonText("Test connection").onClick(async () => {
          button.setDisabled(true);
          out.empty();
          out.createDiv({ text: "Testing…" });
          const provider = context.store.get().provider;
          const verdict = await testConnection(provider, ports);
          // What the check saw of tools decides whether new chats with this model may start in Agent.
          const tools = verdict.checks.find((check) => check.name === "tools supported")?.outcome;
          if (tools === "yes" || tools === "no") save(context.store, (settings) => withToolSupport(settings, provider.model, tools === "yes"));
          out.empty();
          out.createDiv({ cls: verdict.ok ? "vault-copilot-verdict-ok" : "vault-copilot-verdict-failed", text: verdict.ok ? "Connection works." : "Connection has a problem." });
          for (const check of verdict.checks) {
            const mark = check.outcome === "yes" ? "✓" : check.outcome === "no" ? "✗" : "?";
            out.createDiv({ text: `${mark} ${check.name}${check.detail ? `: ${check.detail}` : ""}` });
          }
          button.setDisabled(false);
        }),
      );
    },
  };
}

/** "Find local servers": looks for Ollama and LM Studio on their default ports and offers each model found. */
export function localServersRow(context: RowContext, ports: ChatModelPorts): SettingsRow {
  return {
    name: "Find local servers",
    desc: "Looks for Ollama (port 11434) and LM Studio (port 1234) on this computer; choose a model they have to use it. Notes then stay on this computer.",
    render(setting) {
      const out = setting.infoEl.createDiv({ cls: "vault-copilot-local-servers" });
      setting.addButton((button) =>
        button.setButtonText("Find").onClick(async () => {
          button.setDisabled(true);
          out.empty();
          const found = await detectLocalServers(ports.fetch);
          if (found.length === 0) out.createDiv({ text: "Neither Ollama nor LM Studio answered on its default port." });
          for (const server of found) {
            const line = out.createDiv({ text: `${PROVIDER_PRESET_DETAILS[server.preset].label}: ${server.models.length === 0 ? "no models yet" : ""}` });
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

const IMAGE_CHOICES = { yes: "Yes", no: "No", unknown: "Not known: leave images out" } as const;

/**
 * "Takes images" for the default model: filled in from the provider's model list where it says
 * so (OpenRouter's does), and the user's to set. Images go only to a model set to Yes; for any
 * other they are left out, with a notice in the chat, since a server refuses a request with an
 * image for a model that takes none.
 */
export function imageInputRow(context: RowContext): SettingsRow {
  return dropdownRow(context, {
    name: "Takes images",
    desc: "Whether this model reads images: those you attach, paste or drop, and those in the notes you attach. Images go only to a model set to Yes; otherwise they are left out and the chat says so.",
    choices: IMAGE_CHOICES,
    read: (s) => {
      const known = knownToTakeImages(s, s.provider.model);
      return known === null ? "unknown" : known ? "yes" : "no";
    },
    write: (s, choice) => withImageSupport(s, s.provider.model, choice === "unknown" ? null : choice === "yes"),
  });
}

const PRICE_ORDER = ["input", "output", "cacheRead", "cacheWrite"] as const;

/** "3 / 15 / 0.3 / 3.75" → prices; empty parts are "not entered". Throws with a message otherwise. */
export function parsePrices(text: string): ModelPrices {
  const parts = text.split("/").map((part) => part.trim());
  if (parts.length > 4) throw new Error("At most four prices: input / output / cache read / cache write.");
  const prices: Record<string, number | null> = { ...NO_PRICES };
  parts.forEach((part, index) => {
    if (part === "") return;
    const value = Number(part.replace(/^\$/, ""));
    if (!Number.isFinite(value) || value < 0) throw new Error(`"${part}" is not a price (dollars per million tokens, e.g. 0.15).`);
    prices[PRICE_ORDER[index]!] = value;
  });
  return modelPricesSchema.parse(prices);
}

export function formatPrices(prices: ModelPrices): string {
  const parts = PRICE_ORDER.map((key) => (prices[key] === null ? "" : String(prices[key])));
  while (parts.length > 0 && parts[parts.length - 1] === "") parts.pop();
  return parts.join(" / ");
}

/** The default model's prices, for the cost shown under each answer. */
export function pricesRow(context: RowContext): SettingsRow {
  return fieldRow(context, {
    name: "Prices",
    desc: "US dollars per million tokens, from your provider's price page: input / output, then optionally cache read / cache write (these default to the input price). Leave empty to show tokens only.",
    read: (s) => s.provider.prices,
    write: (s, prices) => ({ ...s, provider: { ...s.provider, prices } }),
    schema: modelPricesSchema,
    parse: parsePrices,
    format: formatPrices,
    placeholder: "0.15 / 0.6",
  });
}

/** The other configured models: kept copies of the model above, each can become the default or go. */
export function otherModelsRow(context: RowContext): SettingsRow {
  return {
    name: "Other models",
    desc: "Models a chat can switch to in its model picker, each with its own provider, key and prices. Keep a copy of the model above here, then set up another one above.",
    render(setting) {
      const list = setting.infoEl.createDiv({ cls: "vault-copilot-other-models" });
      setting.addButton((button) =>
        button.setButtonText("Keep a copy").onClick(() =>
          save(context.store, (s) => ({ ...s, models: [...s.models.filter((model) => model.model !== s.provider.model), structuredClone(s.provider)] })),
        ),
      );
      const draw = () => {
        list.empty();
        const { models } = context.store.get();
        if (models.length === 0) list.createDiv({ text: "None yet." });
        for (const model of models) {
          const line = list.createDiv({ cls: "vault-copilot-other-model", text: `${model.model} (${PROVIDER_PRESET_DETAILS[model.preset].label}) ` });
          const makeDefault = line.createEl("button", { text: "Make default" });
          makeDefault.setAttribute("aria-label", `Make ${model.model} the default model`);
          makeDefault.addEventListener("click", () => save(context.store, (s) => makeDefaultModel(s, model.model)));
          const remove = line.createEl("button", { text: "Remove" });
          remove.setAttribute("aria-label", `Remove ${model.model}`);
          remove.addEventListener("click", () => save(context.store, (s) => ({ ...s, models: s.models.filter((candidate) => candidate.model !== model.model) })));
        }
      };
      draw();
      return context.store.subscribe(draw);
    },
  };
}
