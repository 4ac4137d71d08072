import type { ToolMetadata, ToolWording } from "../tools/SimpleTool";
import { en } from "../i18n/en";
import type { MessageKey } from "../i18n/messages";
import { ENGLISH } from "../i18n/languages";
import { currentLanguage, t } from "../i18n/t";

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

export function toolTexts(id: string | undefined, metadata: Pick<ToolMetadata, "displayName" | "description" | "wording"> | undefined, fallbackName: string): ToolTexts {
  // In English the tool's own metadata is the text (the table repeats it, and a test holds the two equal).
  const english = currentLanguage() === ENGLISH;
  const said = (part: "name" | "description" | "pending" | "running" | "done", otherwise: string) => {
    const key = english ? undefined : builtInKey(id, part);
    return key ? t(key) : otherwise;
  };
  const name = said("name", metadata?.displayName ?? fallbackName);
  return {
    name,
    description: said("description", metadata?.description ?? ""),
    wording: {
      pending: said("pending", metadata?.wording?.pending ?? t("banner.genericPending", { tool: name })),
      running: said("running", metadata?.wording?.running ?? t("banner.genericRunning", { tool: name })),
      done: said("done", metadata?.wording?.done ?? t("banner.genericDone", { tool: name })),
    },
  };
}
