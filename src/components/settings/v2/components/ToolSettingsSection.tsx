import { useEffect, useReducer } from "react";
import { isEditTool, type ToolDefinition } from "../../../../tools/SimpleTool";
import type { ToolRegistry } from "../../../../tools/ToolRegistry";
import { ObsidianToggle } from "./ObsidianToggle";
import { t } from "../../../../i18n/t";
import { toolTexts } from "../../../toolTexts";

/** The two lists the section edits; every change hands back both, in full. */
export interface ToolSettingsChange {
  enabledToolIds: string[];
  autoApproveToolIds: string[];
}

export interface ToolSettingsSectionProps {
  registry: ToolRegistry;
  /** `autonomousAgentEnabledToolIds` from the settings. */
  enabledToolIds: readonly string[];
  /** `autoApproveToolIds` from the settings: edit tools whose edits are applied without asking. */
  autoApproveToolIds: readonly string[];
  onChange: (change: ToolSettingsChange) => void;
}



/**
 * How a tool's "without asking" switch speaks: edit tools write notes; MCP tools (every one asks
 * before each call, whatever its server claims) send calls to a server, which is not the same promise.
 */
function autoApproveWording(definition: ToolDefinition): { label: string; toggle: string; warning: string; hint: string } | null {
  const name = toolTexts(definition.metadata.id, definition.metadata, definition.metadata.id).name;
  if (definition.metadata.category === "mcp") {
    return {
      label: t("settings.tools.mcpLabel", { tool: name }),
      toggle: t("settings.tools.mcpToggle"),
      warning: t("settings.tools.mcpWarning"),
      hint: t("settings.tools.mcpHint"),
    };
  }
  if (!isEditTool(definition)) return null;
  return {
    label: t("settings.tools.editLabel", { tool: name }),
    toggle: t("settings.tools.editToggle"),
    warning: t("settings.tools.editWarning"),
    hint: t("settings.tools.editHint"),
  };
}

/**
 * The agent's tools, generated from the registry and grouped by category. Always-enabled tools
 * are shown on and locked; the others toggle their id in `enabledToolIds`. Edit tools get a
 * second toggle that lets their edits through without the approval view. Re-renders whenever
 * the registry changes (MCP servers come and go).
 */
export function ToolSettingsSection({ registry, enabledToolIds, autoApproveToolIds, onChange }: ToolSettingsSectionProps) {
  const [, registryChanged] = useReducer((count: number) => count + 1, 0);
  useEffect(() => registry.onChange(registryChanged), [registry]);

  const enabled = new Set(enabledToolIds);
  const autoApproved = new Set(autoApproveToolIds);
  const toggled = (ids: readonly string[], id: string, on: boolean): string[] =>
    on ? (ids.includes(id) ? [...ids] : [...ids, id]) : ids.filter((candidate) => candidate !== id);

  const groups = [...registry.getToolsByCategory()];
  if (groups.length === 0) {
    return <p className="vault-copilot-tool-settings-empty">{t("settings.tools.none")}</p>;
  }
  return (
    <div className="vault-copilot-tool-settings">
      {groups.map(([category, definitions]) => (
        <section key={category} className="vault-copilot-tool-category" data-category={category}>
          <h4 className="vault-copilot-tool-category-name">{t(`settings.tools.category.${category}`)}</h4>
          {definitions.map((definition) => (
            <ToolRow
              key={definition.metadata.id}
              definition={definition}
              enabled={definition.metadata.isAlwaysEnabled === true || enabled.has(definition.metadata.id)}
              autoApproved={autoApproved.has(definition.metadata.id)}
              onEnabledChange={(on) =>
                onChange({
                  enabledToolIds: toggled(enabledToolIds, definition.metadata.id, on),
                  autoApproveToolIds: [...autoApproveToolIds],
                })
              }
              onAutoApproveChange={(on) =>
                onChange({
                  enabledToolIds: [...enabledToolIds],
                  autoApproveToolIds: toggled(autoApproveToolIds, definition.metadata.id, on),
                })
              }
            />
          ))}
        </section>
      ))}
    </div>
  );
}

interface ToolRowProps {
  definition: ToolDefinition;
  enabled: boolean;
  autoApproved: boolean;
  onEnabledChange: (on: boolean) => void;
  onAutoApproveChange: (on: boolean) => void;
}

function ToolRow({ definition, enabled, autoApproved, onEnabledChange, onAutoApproveChange }: ToolRowProps) {
  const { id, isAlwaysEnabled } = definition.metadata;
  const { name: displayName, description } = toolTexts(id, definition.metadata, id);
  const locked = isAlwaysEnabled === true;
  const toggleId = `vault-copilot-tool-${id}`;
  const wording = autoApproveWording(definition);
  return (
    <div className="vault-copilot-tool" data-tool-id={id}>
      <div className="vault-copilot-tool-main">
        <label className="vault-copilot-tool-label" htmlFor={toggleId}>
          <span className="vault-copilot-tool-name">{displayName}</span>
          <span className="vault-copilot-tool-description">{description}</span>
        </label>
        <span className="vault-copilot-tool-toggle">
          {locked && <span className="vault-copilot-tool-locked">{t("settings.tools.alwaysOn")}</span>}
          {/* A locked tool never changes: the toggle ignores clicks while disabled. */}
          <ObsidianToggle id={toggleId} checked={enabled} disabled={locked} label={t("settings.tools.use", { tool: displayName })} onChange={onEnabledChange} />
        </span>
      </div>
      {wording && (
        <div className="vault-copilot-tool-auto-approve">
          <div className="vault-copilot-tool-auto-approve-row">
            <ObsidianToggle id={`${toggleId}-auto-approve`} checked={autoApproved} disabled={!enabled} label={wording.label} onChange={onAutoApproveChange} />
            {/* The words are the switch's label: on a phone they are the 44 px target a finger taps. */}
            <label htmlFor={`${toggleId}-auto-approve`}>{wording.toggle}</label>
          </div>
          {autoApproved && <p className="vault-copilot-tool-warning">{wording.warning}</p>}
          {!autoApproved && <p className="vault-copilot-tool-hint">{wording.hint}</p>}
        </div>
      )}
    </div>
  );
}
