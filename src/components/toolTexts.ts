import type { ToolMetadata, ToolWording } from "../tools/SimpleTool";
import { en } from "../i18n/en";
import type { MessageKey } from "../i18n/messages";
import { t } from "../i18n/t";

/**
 * A tool's words in the interface's language. A built-in tool's name, description and banner
 * wording are in the tables by its id (`tool.<id>.name`, …; English the same words its metadata
 * carries, which a test holds); a tool we did not write (MCP) keeps its own name and description,
 * and its banner says "Using <name>" in the interface's language.
 */
export interface ToolTexts {
  name: string;
  description: string;
  wording: ToolWording;
}

function builtInKey(id: string | undefined, part: "name" | "description" | "pending" | "running" | "done"): MessageKey | undefined {
  if (id === undefined) return undefined;
  const key = `tool.${id}.${part}`;
  return Object.hasOwn(en, key) ? (key as MessageKey) : undefined;
}

export function toolTexts(id: string | undefined, metadata: Pick<ToolMetadata, "displayName" | "description"> | undefined, fallbackName: string): ToolTexts {
  const said = (part: "name" | "description" | "pending" | "running" | "done", otherwise: string) => {
    const key = builtInKey(id, part);
    return key ? t(key) : otherwise;
  };
  const name = said("name", metadata?.displayName ?? fallbackName);
  return {
    name,
    description: said("description", metadata?.description ?? ""),
    wording: {
      pending: said("pending", t("banner.genericPending", { tool: name })),
      running: said("running", t("banner.genericRunning", { tool: name })),
      done: said("done", t("banner.genericDone", { tool: name })),
    },
  };
}
