import { DEFAULT_SETTINGS } from "../../src/constants";
import type { Clock } from "../../src/ports/Clock";
import { plainHttp } from "../../src/net/plainHttp";
import { nodeHtmlReader } from "../../src/cli/nodeHtmlReader";
import type { CopilotSettings } from "../../src/settings/settingsSchema";
import { MapSecretStore } from "../../src/ports/SecretStore";
import { refuseAll } from "../../src/ports/approval";
import type { BuiltinToolEntry } from "../../src/tools/BuiltinToolEntry";
import { runTool, type ToolRunResult } from "../../src/tools/runTool";
import type { ToolDependencies } from "../../src/tools/toolDependencies";

/** Wednesday 2026-12-02 10:00 in Berlin (09:00 UTC): "today" for the tool tests. */
export const TEST_NOW = Date.UTC(2026, 11, 2, 9, 0, 0);

/** Real parts for built-in tools: a stopped clock, Node's fetch, a map of secrets, no vault. */
export function makeToolDependencies(overrides: Partial<ToolDependencies> & { settings?: Partial<CopilotSettings> } = {}): ToolDependencies {
  const { settings, ...rest } = overrides;
  const merged: CopilotSettings = { ...structuredClone(DEFAULT_SETTINGS), ...settings };
  return {
    vault: null,
    clock: clockAt(TEST_NOW, "Europe/Berlin"),
    http: plainHttp(globalThis.fetch),
    secrets: new MapSecretStore(),
    approval: refuseAll("no approval in this test"),
    getSettings: () => merged,
    html: nodeHtmlReader(),
    ...rest,
  };
}

/** Runs a built-in tool as the agent would: arguments through the schema, errors as model text. */
export function callTool(entry: BuiltinToolEntry, dependencies: ToolDependencies, rawArguments: unknown, signal?: AbortSignal): Promise<ToolRunResult> {
  return runTool(entry.create(dependencies), rawArguments, {
    toolCallId: "call_test",
    defaultTimeoutMs: 10_000,
    maxOutputChars: 100_000,
    signal,
  });
}

/** A clock stopped at one instant. */
export function clockAt(epochMs: number, timeZone: string): Clock {
  return { now: () => epochMs, timeZone: () => timeZone };
}
